//! A claim graph as a Graphviz DOT picture (`graph show --format dot`): one node per claim,
//! coloured and shaped by status (refuted claims red octagons with a thick border, machine-checked
//! ones double-bordered green boxes), an edge from each dependency to what depends on it, and
//! the claims of each sciproof run in a box of their own. A graph of more than
//! [`MAX_CLAIMS`] claims is drawn as its runs instead, one node per run with its claims counted,
//! and says so.
//!
//! Every text comes from the graph and is untrusted: it goes through [`crate::escape::dot`].

use crate::escape::dot::{lines, quoted};
use crate::graph::ClaimGraph;
use crate::graph::claim::{self, Claim};
use crate::render::Sink;
use std::collections::BTreeMap;

/// Beyond this many claims a picture of every claim is unreadable: the runs are drawn instead.
pub const MAX_CLAIMS: usize = 400;

/// The longest statement shown in a node.
const STATEMENT_LIMIT: usize = 80;

/// How a status is drawn: shape, style, fill, border colour, border width, and its word.
fn look(
    status: &str,
) -> (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
) {
    match status {
        claim::REFUTED => ("octagon", "filled,bold", "#f5b7b1", "#922b21", "3"),
        s if claim::is_machine_checked(s) => ("box", "filled,bold", "#c8f7c5", "#1e8449", "2"),
        claim::NUMERICALLY_CHECKED => ("box", "filled", "#d6eaf8", "#2471a3", "1"),
        claim::CERTIFICATE_AVAILABLE => ("box", "filled", "#fcf3cf", "#9a7d0a", "1"),
        claim::EXTERNALLY_ASSERTED | claim::ASSERTED => {
            ("box", "filled", "#fdebd0", "#a04000", "1")
        }
        _ => ("box", "dashed", "#ffffff", "#566573", "1"),
    }
}

/// The status's mark as the documents print it (`[VERIFIED]`, `[REFUTED]`, ...).
fn mark(status: &str) -> &str {
    claim::STATUSES
        .iter()
        .find(|(s, _, _)| *s == status)
        .map_or(status, |(_, mark, _)| mark)
}

/// The run a claim belongs to (claims recorded by `graph add-run` carry it).
fn run_of(c: &Claim) -> Option<String> {
    c.provenance
        .get("run")
        .and_then(|v| v.as_str().map(str::to_string))
}

/// Writes the picture of `graph`.
pub fn render_to(graph: &ClaimGraph, out: &mut Sink) {
    let claims: Vec<&Claim> = graph.claims().iter().collect();
    claims_to(&claims, None, out);
}

/// Writes the picture of `claims` and the dependencies among them (a query's answer, or the
/// whole graph); `focus`, the claim a query is about, is drawn too, highlighted, with its
/// edges to the claims drawn.
pub fn claims_to(claims: &[&Claim], focus: Option<&Claim>, out: &mut Sink) {
    out("digraph claims {\n");
    out("  graph [rankdir=TB, fontname=\"Helvetica\", labelloc=t];\n");
    out("  node [fontname=\"Helvetica\", fontsize=10];\n");
    out("  edge [color=\"#7f8c8d\"];\n");
    if claims.len() > MAX_CLAIMS {
        runs_only(claims, out);
    } else {
        every_claim(claims, focus, out);
    }
    out("}\n");
}

fn every_claim(claims: &[&Claim], focus: Option<&Claim>, out: &mut Sink) {
    let checked = claims
        .iter()
        .filter(|c| claim::is_machine_checked(&c.status))
        .count();
    out(&format!(
        "  label={};\n",
        quoted(
            &match focus {
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
            },
            200
        )
    ));
    let mut runs: BTreeMap<String, Vec<&Claim>> = BTreeMap::new();
    let mut loose = Vec::new();
    for c in claims.iter().copied() {
        match run_of(c) {
            Some(run) => runs.entry(run).or_default().push(c),
            None => loose.push(c),
        }
    }
    for (i, (run, claims)) in runs.iter().enumerate() {
        out(&format!("  subgraph cluster_{i} {{\n"));
        out(&format!(
            "    label={}; style=rounded; color=\"#aab7b8\";\n",
            quoted(&format!("run {run}"), 100)
        ));
        for c in claims {
            node(c, "    ", out);
        }
        out("  }\n");
    }
    for c in loose {
        node(c, "  ", out);
    }
    let mut drawn: std::collections::HashSet<&str> = claims.iter().map(|c| c.id.as_str()).collect();
    let mut all: Vec<&Claim> = claims.to_vec();
    if let Some(f) = focus.filter(|f| !drawn.contains(f.id.as_str())) {
        node(f, "  ", out);
        out(&format!(
            "  {} [fillcolor=\"#f9e79f\", style=\"filled,bold\", penwidth=5, color=\"#b7950b\"];\n",
            quoted(&f.id, 40)
        ));
        drawn.insert(f.id.as_str());
        all.push(f);
    }
    for c in all {
        for d in c.depends_on.iter().filter(|d| drawn.contains(d.as_str())) {
            out(&format!("  {} -> {};\n", quoted(d, 40), quoted(&c.id, 40)));
        }
    }
}

fn node(c: &Claim, indent: &str, out: &mut Sink) {
    let (shape, style, fill, border, width) = look(&c.status);
    let title = c.label.as_deref().unwrap_or(&c.statement);
    let status = format!("{} {}", mark(&c.status), c.status);
    out(&format!(
        "{indent}{} [label={}, shape={shape}, style=\"{style}\", fillcolor=\"{fill}\", color=\"{border}\", penwidth={width}{}];\n",
        quoted(&c.id, 40),
        lines(&[&status, title, &c.id], STATEMENT_LIMIT),
        if claim::is_machine_checked(&c.status) {
            ", peripheries=2"
        } else {
            ""
        }
    ));
}

/// One node per run (its claims counted by status), one for claims outside any run, and an edge
/// where a claim of one depends on a claim of another.
fn runs_only(claims: &[&Claim], out: &mut Sink) {
    let group = |c: &Claim| run_of(c).unwrap_or_default();
    let by_id: std::collections::HashMap<&str, &Claim> =
        claims.iter().map(|c| (c.id.as_str(), *c)).collect();
    let mut counts: BTreeMap<String, BTreeMap<&str, usize>> = BTreeMap::new();
    for c in claims {
        *counts
            .entry(group(c))
            .or_default()
            .entry(c.status.as_str())
            .or_default() += 1;
    }
    out(&format!(
        "  label={};\n",
        quoted(
            &format!(
                "{} claims, too many to draw one by one: each box is a run with its claims counted",
                claims.len()
            ),
            200
        )
    ));
    let ids: BTreeMap<&String, usize> = counts.keys().enumerate().map(|(i, k)| (k, i)).collect();
    for (run, by_status) in &counts {
        let total: usize = by_status.values().sum();
        let refuted = by_status.get(claim::REFUTED).copied().unwrap_or(0);
        let name = if run.is_empty() {
            "not from a run".to_string()
        } else {
            format!("run {run}")
        };
        let summary: Vec<String> = by_status.iter().map(|(s, n)| format!("{n} {s}")).collect();
        let (fill, border, width) = if refuted > 0 {
            ("#f5b7b1", "#922b21", "3")
        } else {
            ("#ffffff", "#566573", "1")
        };
        out(&format!(
            "  r{} [label={}, shape=box, style=\"filled\", fillcolor=\"{fill}\", color=\"{border}\", penwidth={width}];\n",
            ids[run],
            lines(
                &[&name, &format!("{total} claims"), &summary.join(", ")],
                200
            )
        ));
    }
    let mut edges = std::collections::BTreeSet::new();
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
    for (from, to) in edges {
        out(&format!("  r{from} -> r{to};\n"));
    }
}
