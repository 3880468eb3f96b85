//! The Markdown document (spec §6.1): title, producer line with the digest, a verification
//! summary table, the machine-checkable fraction, then one section per claim.

use super::{checker, field_or_empty, percent, producer, title};
use crate::escape::markdown as md;
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

/// Renders the graph (the reference's bytes for its own documents). Ends with one newline.
pub fn render(graph: &ClaimGraph, options: MarkdownOptions) -> String {
    crate::render::collect(|sink| render_to(graph, options, sink))
}

/// [`render`], written piece by piece to `sink` (never held whole).
pub fn render_to(graph: &ClaimGraph, options: MarkdownOptions, sink: &mut dyn FnMut(&str)) {
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
    let mut lines = crate::render::Lines::new(sink);
    lines.push(format!("# {}", md::heading(&title(graph))));
    lines.push("");
    if opens_with_fraction {
        lines.push(fraction.clone());
        lines.push("");
    }
    lines.push(format!(
        "*{} · claim-graph schema v1 · {total} claim{} · digest `{}`*",
        md::heading(&producer(&graph.metadata)),
        if total == 1 { "" } else { "s" },
        &graph.digest()[..16]
    ));
    lines.push("");
    lines.push("## Verification summary");
    lines.push("");
    lines.push("| Status | Claims | What it means |");
    lines.push("| --- | ---: | --- |");
    for (status, count) in graph.summary() {
        lines.push(format!(
            "| {} | {count} | {} |",
            md::code(&status),
            md::text(badge(&status).unwrap_or(&status))
        ));
    }
    lines.push("");
    if !opens_with_fraction {
        lines.push(fraction);
        lines.push("");
    }
    if let Some(errors) = graph
        .metadata
        .get("capture_errors")
        .and_then(|e| e.as_array())
        .filter(|e| !e.is_empty())
    {
        lines.push("> **Capture warnings** — the following results could not be recorded, so this document is incomplete:");
        lines.push(">");
        for e in errors {
            lines.push(format!("> - {}", md::code(&crate::pyfmt::py_str(Some(e)))));
        }
        lines.push("");
    }
    lines.push("## Claims");
    lines.push("");
    let dependents = graph.dependents_by_position();
    for (n, &at) in graph.topological_positions().iter().enumerate() {
        let index = n + 1;
        let claim = &graph.claim_at(at);
        let heading = match (&claim.label, claim.method.as_str()) {
            (Some(l), _) if !l.is_empty() => l.to_string(),
            (_, m) if !m.is_empty() => m.to_string(),
            _ => format!("Claim {index}"),
        };
        lines.push(format!(
            "### {index}. {} <a id=\"{}\"></a>",
            md::heading(&heading),
            claim.id
        ));
        lines.push("");
        lines.push(format!(
            "**Status:** {} {} — {}",
            mark(&claim.status),
            md::code(&claim.status),
            badge(&claim.status).unwrap_or("unrecognised status")
        ));
        lines.push("");
        if let Some(latex) = claim
            .latex
            .as_ref()
            .filter(|l| !l.is_empty())
            .and_then(|l| display_math(l))
        {
            lines.extend(["$$", &latex, "$$", ""]);
        }
        lines.push(format!("- **Statement:** {}", md::code(&claim.statement)));
        lines.push(format!("- **Claim ID:** `{}`", claim.id));
        lines.push(format!("- **Method:** {}", md::code(&claim.method)));
        if claim.hypotheses.is_empty() {
            lines.push("- **Hypotheses:** none recorded (claim asserted unconditionally)");
        } else {
            let rendered: Vec<String> = claim.hypotheses.iter().map(|h| md::code(h)).collect();
            lines.push(format!("- **Hypotheses:** {}", rendered.join(", ")));
        }
        if !claim.evidence.is_empty() && claim.evidence != "none" {
            lines.push(format!("- **Evidence:** {}", md::text(&claim.evidence)));
        }
        let links = |ids: &mut dyn Iterator<Item = &str>| {
            ids.map(|d| format!("[`{d}`](#{d})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !claim.depends_on.is_empty() {
            lines.push(format!(
                "- **Depends on:** {}",
                links(&mut claim.depends_on.iter().map(|d| d.as_str()))
            ));
        }
        if !dependents[at].is_empty() {
            lines.push(format!(
                "- **Cited by:** {}",
                links(
                    &mut dependents[at]
                        .iter()
                        .map(|&p| graph.claim_at(p).id.as_str())
                )
            ));
        }
        match claim.certificate.as_ref().filter(|c| !c.is_empty()) {
            Some(c) => lines.push(format!(
                "- **Certificate:** {} bytes of {} source emitted (generated, not machine-checked)",
                c.chars().count(),
                md::code(
                    claim
                        .certificate_format
                        .as_deref()
                        .filter(|f| !f.is_empty())
                        .unwrap_or("unknown")
                )
            )),
            None => lines.push("- **Certificate:** none emitted"),
        }
        if let Some(notes) = claim.notes.as_ref().filter(|n| !n.is_empty()) {
            lines.push(format!("- **Notes:** {}", md::text(notes)));
        }
        if let Some(last) = claim.audit.last() {
            let last = last.object();
            let last = &last;
            lines.push(format!(
                "- **Last re-check:** {} via {} {} — {}",
                md::code(&crate::pyfmt::py_str(last.get("outcome"))),
                md::code(&crate::pyfmt::py_str(last.get("kind"))),
                md::text(&checker(last)),
                md::text(&field_or_empty(last, "detail"))
            ));
        }
        lines.push("");
        if options.derivations && !claim.derivation.is_empty() {
            let m = claim.derivation.len();
            lines.push(format!(
                "<details><summary>Derivation ({m} step{})</summary>",
                if m == 1 { "" } else { "s" }
            ));
            lines.push("");
            lines.push("| # | Rule | Before | After |");
            lines.push("| ---: | --- | --- | --- |");
            for (j, step) in claim.derivation.iter().take(options.max_steps).enumerate() {
                let cell = |key: &str| match step.as_object() {
                    Some(o) => md::code(&field_or_empty(o, key)),
                    None => md::code(""),
                };
                lines.push(format!(
                    "| {} | {} | {} | {} |",
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
            lines.extend(["", "</details>", ""]);
        }
        if options.certificates
            && let Some(c) = claim.certificate.as_ref().filter(|c| !c.is_empty())
        {
            // A fence longer than any run of backticks in the certificate, which cannot end it.
            let longest = c.split(|ch| ch != '`').map(str::len).max().unwrap_or(0);
            let fence = "`".repeat(longest.max(2) + 1);
            let info: String = claim
                .certificate_format
                .as_deref()
                .unwrap_or("")
                .chars()
                .filter(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | '+' | '.'))
                .collect();
            lines.push(format!("{fence}{info}"));
            lines.push(
                c.trim_end()
                    .lines()
                    .map(|l| crate::escape::terminal::safe_text(l, usize::MAX))
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
            lines.push(fence);
            lines.push("");
        }
    }
    lines.finish();
}

/// A claim's LaTeX for a `$$` display block, or `None` (left out) when it could end the block
/// or carry markup: a display formula is one line of TeX, without `$`, HTML or controls.
fn display_math(latex: &str) -> Option<String> {
    crate::escape::latex::safe_math(latex).then(|| latex.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_documents_render_byte_for_byte() {
        for name in ["example-a", "example-b"] {
            let dir = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/data/claim-graphs/"
            );
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
