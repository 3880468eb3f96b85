//! A picture of claims ([`super::picture`]) in Graphviz DOT (`graph show --format dot`, `graph
//! impact ID --format dot`): runs as clusters, shapes and colours by status, for `dot -Tsvg`.
//!
//! Every text comes from the graph and is untrusted: it goes through [`crate::escape::dot`].

use super::picture::{self, FOCUS_BORDER, FOCUS_FILL, Node, Picture};
use crate::escape::dot::{lines, quoted};
use crate::graph::ClaimGraph;
use crate::graph::claim::Claim;
use crate::render::Sink;

/// The longest line of text shown in a box.
const LINE_LIMIT: usize = 80;

/// Writes the picture of `graph`.
pub fn render_to(graph: &ClaimGraph, out: &mut Sink) {
    let claims: Vec<&Claim> = graph.claims().iter().collect();
    claims_to(&claims, None, out);
}

/// Writes the picture of `claims` and the dependencies among them, `focus` highlighted.
pub fn claims_to(claims: &[&Claim], focus: Option<&Claim>, out: &mut Sink) {
    write(&picture::of_claims(claims, focus), out);
}

/// Writes `picture`.
pub fn write(picture: &Picture, out: &mut Sink) {
    out("digraph claims {\n");
    out("  graph [rankdir=TB, fontname=\"Helvetica\", labelloc=t];\n");
    out("  node [fontname=\"Helvetica\", fontsize=10];\n");
    out("  edge [color=\"#7f8c8d\"];\n");
    out(&format!("  label={};\n", quoted(&picture.caption, 200)));
    let limit = if picture.runs_only { 200 } else { LINE_LIMIT };
    for (i, name) in picture.groups.iter().enumerate() {
        out(&format!("  subgraph cluster_{i} {{\n"));
        out(&format!(
            "    label={}; style=rounded; color=\"#aab7b8\";\n",
            quoted(name, 100)
        ));
        for n in picture.nodes.iter().filter(|n| n.group == Some(i)) {
            node(n, "    ", limit, out);
        }
        out("  }\n");
    }
    for n in picture.nodes.iter().filter(|n| n.group.is_none()) {
        node(n, "  ", limit, out);
    }
    for n in picture.nodes.iter().filter(|n| n.focus) {
        out(&format!(
            "  {} [fillcolor=\"{FOCUS_FILL}\", style=\"filled,bold\", penwidth=5, color=\"{FOCUS_BORDER}\"];\n",
            quoted(&n.key, 40)
        ));
    }
    for &(from, to) in &picture.edges {
        out(&format!(
            "  {} -> {};\n",
            quoted(&picture.nodes[from].key, 40),
            quoted(&picture.nodes[to].key, 40)
        ));
    }
    out("}\n");
}

fn node(n: &Node, indent: &str, limit: usize, out: &mut Sink) {
    let look = n.look;
    let style = match (look.dashed, look.width > 1) {
        (true, _) => "dashed",
        (false, true) => "filled,bold",
        (false, false) => "filled",
    };
    let texts: Vec<&str> = n.lines.iter().map(String::as_str).collect();
    out(&format!(
        "{indent}{} [label={}, shape={}, style=\"{style}\", fillcolor=\"{}\", color=\"{}\", penwidth={}{}];\n",
        quoted(&n.key, 40),
        lines(&texts, limit),
        if look.octagon { "octagon" } else { "box" },
        look.fill,
        look.border,
        look.width,
        if look.double { ", peripheries=2" } else { "" }
    ));
}
