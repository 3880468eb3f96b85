//! The Markdown document (spec §6.1): title, producer line with the digest, a verification
//! summary table, the machine-checkable fraction, then one section per claim.

use super::{checker, field_or_empty, percent, producer, title};
use crate::graph::ClaimGraph;
use crate::graph::claim::{badge, mark};

/// What to include.
#[derive(Debug, Clone, Copy)]
pub struct MarkdownOptions {
    /// The derivation table of each claim.
    pub derivations: bool,
    /// Certificates in full, as code blocks.
    pub certificates: bool,
    /// Derivation steps shown per claim before "N more steps".
    pub max_steps: usize,
}

impl Default for MarkdownOptions {
    fn default() -> Self {
        MarkdownOptions {
            derivations: true,
            certificates: false,
            max_steps: 12,
        }
    }
}

/// `|` as `\|` and line breaks as spaces, so a value stays inside its table cell or line.
pub fn md_escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Renders the graph (the reference's bytes for its own documents). Ends with one newline.
pub fn render(graph: &ClaimGraph, options: MarkdownOptions) -> String {
    let total = graph.len();
    let checked = graph.machine_checkable().len();
    let fraction = if total > 0 {
        format!(
            "> **Machine-checkable subset: {checked} of {total} claims ({}%).** Only claims marked *verified* were checked by a checker. Everything else is recorded evidence and must not be read as proved.",
            percent(checked, total)
        )
    } else {
        "> No claims recorded.".to_string()
    };
    // The design document says every document opens with the fraction; the reference puts it
    // after the summary table. Documents sciproof writes follow the design; alkahest's are
    // rendered exactly as alkahest renders them.
    let opens_with_fraction = !super::is_alkahest(&graph.metadata);
    let mut lines: Vec<String> = vec![format!("# {}", title(graph)), String::new()];
    if opens_with_fraction {
        lines.push(fraction.clone());
        lines.push(String::new());
    }
    lines.push(format!(
        "*{} · claim-graph schema v1 · {total} claim{} · digest `{}`*",
        producer(&graph.metadata),
        if total == 1 { "" } else { "s" },
        &graph.digest()[..16]
    ));
    lines.push(String::new());
    lines.push("## Verification summary".into());
    lines.push(String::new());
    lines.push("| Status | Claims | What it means |".into());
    lines.push("| --- | ---: | --- |".into());
    for (status, count) in graph.summary() {
        lines.push(format!(
            "| `{status}` | {count} | {} |",
            md_escape(badge(&status).unwrap_or(&status))
        ));
    }
    lines.push(String::new());
    if !opens_with_fraction {
        lines.push(fraction);
        lines.push(String::new());
    }
    if let Some(errors) = graph
        .metadata
        .get("capture_errors")
        .and_then(|e| e.as_array())
        .filter(|e| !e.is_empty())
    {
        lines.push("> **Capture warnings** — the following results could not be recorded, so this document is incomplete:".into());
        lines.push(">".into());
        for e in errors {
            lines.push(format!("> - `{}`", md_escape(&super::py_str(Some(e)))));
        }
        lines.push(String::new());
    }
    lines.push("## Claims".into());
    lines.push(String::new());
    let dependents = dependents_by_position(graph);
    for (n, &at) in graph.topological_positions().iter().enumerate() {
        let index = n + 1;
        let claim = &graph.claims[at];
        let heading = match (&claim.label, claim.method.as_str()) {
            (Some(l), _) if !l.is_empty() => l.clone(),
            (_, m) if !m.is_empty() => m.to_string(),
            _ => format!("Claim {index}"),
        };
        lines.push(format!(
            "### {index}. {heading} <a id=\"{}\"></a>",
            claim.id
        ));
        lines.push(String::new());
        lines.push(format!(
            "**Status:** {} `{}` — {}",
            mark(&claim.status),
            claim.status,
            badge(&claim.status).unwrap_or("unrecognised status")
        ));
        lines.push(String::new());
        if let Some(latex) = claim.latex.as_ref().filter(|l| !l.is_empty()) {
            lines.extend(["$$".into(), latex.clone(), "$$".into(), String::new()]);
        }
        lines.push(format!(
            "- **Statement:** `{}`",
            md_escape(&claim.statement)
        ));
        lines.push(format!("- **Claim ID:** `{}`", claim.id));
        lines.push(format!("- **Method:** `{}`", claim.method));
        if claim.hypotheses.is_empty() {
            lines.push("- **Hypotheses:** none recorded (claim asserted unconditionally)".into());
        } else {
            let rendered: Vec<String> = claim
                .hypotheses
                .iter()
                .map(|h| format!("`{}`", md_escape(h)))
                .collect();
            lines.push(format!("- **Hypotheses:** {}", rendered.join(", ")));
        }
        if !claim.evidence.is_empty() && claim.evidence != "none" {
            lines.push(format!("- **Evidence:** {}", md_escape(&claim.evidence)));
        }
        let links = |ids: &mut dyn Iterator<Item = &str>| {
            ids.map(|d| format!("[`{d}`](#{d})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !claim.depends_on.is_empty() {
            lines.push(format!(
                "- **Depends on:** {}",
                links(&mut claim.depends_on.iter().map(String::as_str))
            ));
        }
        if !dependents[at].is_empty() {
            lines.push(format!(
                "- **Cited by:** {}",
                links(&mut dependents[at].iter().map(|&p| graph.claims[p].id.as_str()))
            ));
        }
        match claim.certificate.as_ref().filter(|c| !c.is_empty()) {
            Some(c) => lines.push(format!(
                "- **Certificate:** {} bytes of `{}` source emitted (generated, not machine-checked)",
                c.chars().count(),
                claim.certificate_format.as_deref().filter(|f| !f.is_empty()).unwrap_or("unknown")
            )),
            None => lines.push("- **Certificate:** none emitted".into()),
        }
        if let Some(notes) = claim.notes.as_ref().filter(|n| !n.is_empty()) {
            lines.push(format!("- **Notes:** {}", md_escape(notes)));
        }
        if let Some(last) = claim.audit.last() {
            let last = last.object();
            let last = &last;
            lines.push(format!(
                "- **Last re-check:** `{}` via `{}` {} — {}",
                super::py_str(last.get("outcome")),
                super::py_str(last.get("kind")),
                checker(last),
                md_escape(&field_or_empty(last, "detail"))
            ));
        }
        lines.push(String::new());
        if options.derivations && !claim.derivation.is_empty() {
            let m = claim.derivation.len();
            lines.push(format!(
                "<details><summary>Derivation ({m} step{})</summary>",
                if m == 1 { "" } else { "s" }
            ));
            lines.push(String::new());
            lines.push("| # | Rule | Before | After |".into());
            lines.push("| ---: | --- | --- | --- |".into());
            for (j, step) in claim.derivation.iter().take(options.max_steps).enumerate() {
                let cell = |key: &str| match step.as_object() {
                    Some(o) => md_escape(&field_or_empty(o, key)),
                    None => String::new(),
                };
                lines.push(format!(
                    "| {} | `{}` | `{}` | `{}` |",
                    j + 1,
                    cell("rule"),
                    cell("before"),
                    cell("after")
                ));
            }
            if m > options.max_steps {
                lines.push(format!(
                    "| … | *{} more steps* | | |",
                    m - options.max_steps
                ));
            }
            lines.extend([String::new(), "</details>".into(), String::new()]);
        }
        if options.certificates
            && let Some(c) = claim.certificate.as_ref().filter(|c| !c.is_empty())
        {
            lines.push(format!(
                "```{}",
                claim.certificate_format.as_deref().unwrap_or("")
            ));
            lines.push(c.trim_end().to_string());
            lines.push("```".into());
            lines.push(String::new());
        }
    }
    let mut text = lines.join("\n").trim_end().to_string();
    text.push('\n');
    text
}

/// For each claim position, the positions of the claims that cite it, in insertion order.
pub(crate) fn dependents_by_position(graph: &ClaimGraph) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); graph.len()];
    for (i, deps) in graph.deps.iter().enumerate() {
        for &d in deps {
            out[d as usize].push(i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_documents_render_byte_for_byte() {
        for name in ["example-a", "example-b"] {
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/claim-graphs/");
            let text = std::fs::read_to_string(format!("{dir}{name}.json")).unwrap();
            let (graph, _) = ClaimGraph::from_json(&text).unwrap();
            let expected = std::fs::read_to_string(format!("{dir}{name}.md")).unwrap();
            assert_eq!(
                render(&graph, MarkdownOptions::default()),
                expected,
                "{name}"
            );
        }
    }
}
