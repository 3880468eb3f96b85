//! What a picture of claims shows, whatever it is drawn with (Graphviz DOT [`super::dot`], our
//! own SVG [`super::svg`], the picture in the HTML page): one box per claim, coloured and shaped
//! by status (refuted claims red octagons with a thick border, machine-checked ones
//! double-bordered green boxes), an edge from each dependency to what depends on it, the claims
//! of each sciproof run grouped, and the claim a query is about highlighted. A picture of more
//! than [`MAX_CLAIMS`] claims shows the runs instead, one box per run with its claims counted,
//! and says so.
//!
//! The texts are the graph's, untrusted and unescaped: each drawing escapes them for its
//! dialect.

use crate::graph::claim::{self, Claim};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Beyond this many claims a picture of every claim is unreadable: the runs are drawn instead.
pub const MAX_CLAIMS: usize = 400;

/// How a box is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Look {
    /// An octagon (refuted) rather than a box.
    pub octagon: bool,
    /// A dashed border (nothing recorded backs the claim).
    pub dashed: bool,
    /// The fill colour (`#rrggbb`).
    pub fill: &'static str,
    /// The border colour.
    pub border: &'static str,
    /// The border width, in points.
    pub width: u8,
    /// A second border (machine-checked).
    pub double: bool,
}

/// How a claim of `status` is drawn.
pub fn look(status: &str) -> Look {
    let plain = |fill, border| Look {
        octagon: false,
        dashed: false,
        fill,
        border,
        width: 1,
        double: false,
    };
    match status {
        claim::REFUTED => Look {
            octagon: true,
            width: 3,
            ..plain("#f5b7b1", "#922b21")
        },
        s if claim::is_machine_checked(s) => Look {
            width: 2,
            double: true,
            ..plain("#c8f7c5", "#1e8449")
        },
        claim::NUMERICALLY_CHECKED => plain("#d6eaf8", "#2471a3"),
        claim::CERTIFICATE_AVAILABLE => plain("#fcf3cf", "#9a7d0a"),
        claim::EXTERNALLY_ASSERTED | claim::ASSERTED => plain("#fdebd0", "#a04000"),
        _ => Look {
            dashed: true,
            ..plain("#ffffff", "#566573")
        },
    }
}

/// How the claim a query is about is highlighted, over its status's look.
pub const FOCUS_FILL: &str = "#f9e79f";
/// See [`FOCUS_FILL`].
pub const FOCUS_BORDER: &str = "#b7950b";

/// One box.
#[derive(Debug, Clone)]
pub struct Node {
    /// Its name in the drawing: the claim's ID, or `r<N>` for a run.
    pub key: String,
    /// Its lines of text (untrusted): the status, the title, the ID; or the run, its count of
    /// claims and the count by status.
    pub lines: Vec<String>,
    /// How it is drawn.
    pub look: Look,
    /// The group (run) it is drawn in, an index into [`Picture::groups`].
    pub group: Option<usize>,
    /// The claim the query is about.
    pub focus: bool,
}

/// A picture: boxes, edges from dependency to dependent, and groups.
#[derive(Debug, Clone)]
pub struct Picture {
    /// The caption (untrusted text).
    pub caption: String,
    /// The boxes: each group's in group order, then those of no group.
    pub nodes: Vec<Node>,
    /// Edges, as indices into `nodes`, from a dependency to what depends on it.
    pub edges: Vec<(usize, usize)>,
    /// The names of the groups (untrusted text: `run <id>`).
    pub groups: Vec<String>,
    /// Whether the boxes are runs rather than claims (the graph was too large).
    pub runs_only: bool,
}

/// The run a claim belongs to (claims recorded by `graph add-run` carry it).
fn run_of(c: &Claim) -> Option<String> {
    c.provenance
        .get("run")
        .and_then(|v| v.as_str().map(str::to_string))
}

/// The picture of `claims` and the dependencies among them (a query's answer, or the whole
/// graph); `focus`, the claim a query is about, is drawn too, highlighted, with its edges to
/// the claims drawn.
pub fn of_claims(claims: &[&Claim], focus: Option<&Claim>) -> Picture {
    if claims.len() > MAX_CLAIMS {
        return of_runs(claims);
    }
    let checked = claims
        .iter()
        .filter(|c| claim::is_machine_checked(&c.status))
        .count();
    let caption = match focus {
        Some(f) => format!(
            "{} claims around {} (highlighted); machine-checked: {checked} of {}",
            claims.len(),
            f.id,
            claims.len()
        ),
        None => format!(
            "{} claims; machine-checked: {checked} of {}",
            claims.len(),
            claims.len()
        ),
    };
    let mut runs: BTreeMap<String, Vec<&Claim>> = BTreeMap::new();
    let mut loose = Vec::new();
    for c in claims.iter().copied() {
        match run_of(c) {
            Some(run) => runs.entry(run).or_default().push(c),
            None => loose.push(c),
        }
    }
    let node = |c: &Claim, group: Option<usize>| Node {
        key: c.id.to_string(),
        lines: vec![
            format!("{} {}", claim::mark(&c.status), c.status),
            c.label.as_deref().unwrap_or(&c.statement).to_string(),
            c.id.to_string(),
        ],
        look: look(&c.status),
        group,
        focus: focus.is_some_and(|f| f.id == c.id),
    };
    let mut nodes = Vec::with_capacity(claims.len() + 1);
    let mut groups = Vec::new();
    for (i, (run, members)) in runs.iter().enumerate() {
        groups.push(format!("run {run}"));
        nodes.extend(members.iter().map(|c| node(c, Some(i))));
    }
    nodes.extend(loose.iter().map(|c| node(c, None)));
    let outside = focus.filter(|f| !claims.iter().any(|c| c.id == f.id));
    nodes.extend(outside.map(|f| node(f, None)));
    let index: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.key.as_str(), i))
        .collect();
    // Edges in the order of the claims given, each claim's in the order of its dependencies.
    let mut order: Vec<&Claim> = claims.to_vec();
    order.extend(outside);
    let mut edges = Vec::new();
    for c in order {
        for d in &c.depends_on {
            if let Some(&from) = index.get(d.as_str()) {
                edges.push((from, index[c.id.as_str()]));
            }
        }
    }
    Picture {
        caption,
        nodes,
        edges,
        groups,
        runs_only: false,
    }
}

/// One box per run (its claims counted by status), one for claims outside any run, and an edge
/// where a claim of one depends on a claim of another.
fn of_runs(claims: &[&Claim]) -> Picture {
    let group = |c: &Claim| run_of(c).unwrap_or_default();
    let by_id: HashMap<&str, &Claim> = claims.iter().map(|c| (c.id.as_str(), *c)).collect();
    let mut counts: BTreeMap<String, BTreeMap<&str, usize>> = BTreeMap::new();
    for c in claims {
        *counts
            .entry(group(c))
            .or_default()
            .entry(c.status.as_str())
            .or_default() += 1;
    }
    let ids: BTreeMap<&String, usize> = counts.keys().enumerate().map(|(i, k)| (k, i)).collect();
    let nodes = counts
        .iter()
        .enumerate()
        .map(|(i, (run, by_status))| {
            let total: usize = by_status.values().sum();
            let refuted = by_status.get(claim::REFUTED).copied().unwrap_or(0);
            let summary: Vec<String> = by_status.iter().map(|(s, n)| format!("{n} {s}")).collect();
            let base = Look {
                octagon: false,
                dashed: false,
                fill: "#ffffff",
                border: "#566573",
                width: 1,
                double: false,
            };
            Node {
                key: format!("r{i}"),
                lines: vec![
                    if run.is_empty() {
                        "not from a run".to_string()
                    } else {
                        format!("run {run}")
                    },
                    format!("{total} claims"),
                    summary.join(", "),
                ],
                look: if refuted > 0 {
                    Look {
                        fill: "#f5b7b1",
                        border: "#922b21",
                        width: 3,
                        ..base
                    }
                } else {
                    base
                },
                group: None,
                focus: false,
            }
        })
        .collect();
    let mut edges = BTreeSet::new();
    for c in claims {
        for d in &c.depends_on {
            if let Some(dep) = by_id.get(d.as_str()) {
                let (from, to) = (ids[&group(dep)], ids[&group(c)]);
                if from != to {
                    edges.insert((from, to));
                }
            }
        }
    }
    Picture {
        caption: format!(
            "{} claims, too many to draw one by one: each box is a run with its claims counted",
            claims.len()
        ),
        nodes,
        edges: edges.into_iter().collect(),
        groups: Vec::new(),
        runs_only: true,
    }
}
