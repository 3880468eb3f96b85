//! The LaTeX document (spec §6.2): every claim a numbered subsection with
//! `\label{clm:<id>}`, dependencies as `\hyperref` links, the machine-checkable fraction.
//!
//! Difference from the reference, so the output always compiles with `pdflatex`: characters
//! outside Latin-1 in escaped text (kernel hypotheses such as `(x ≠ 0)`, `∧`) become math
//! symbols for the common ones and a visible `U+XXXX` for the rest, where the reference
//! writes them raw and `pdflatex` stops at "Unicode character not set up for use with LaTeX".
//! For ASCII and Latin-1 text the output is the reference's, byte for byte.

use super::{percent, producer, title};
use crate::escape::latex as tex;
use crate::graph::ClaimGraph;
use crate::graph::claim::{badge, mark};

/// Renders the graph: a standalone `article`, or (with `standalone` false) the body only.
/// Ends with one newline.
pub fn render(graph: &ClaimGraph, standalone: bool, derivations: bool) -> String {
    crate::render::collect(|sink| render_to(graph, standalone, derivations, sink))
}

/// [`render`], written piece by piece to `sink` (never held whole).
pub fn render_to(
    graph: &ClaimGraph,
    standalone: bool,
    derivations: bool,
    sink: &mut dyn FnMut(&str),
) {
    let total = graph.len();
    let checked = graph.machine_checkable().len();
    let mut lines = crate::render::Lines::new(sink);
    let title = tex::text(&title(graph));
    if standalone {
        lines.extend([
            "\\documentclass[11pt]{article}".to_string(),
            "\\usepackage[T1]{fontenc}".into(),
            "\\usepackage{amsmath,amssymb}".into(),
            "\\usepackage[colorlinks=true,linkcolor=blue]{hyperref}".into(),
            format!("\\title{{{title}}}"),
            format!("\\author{{{}}}", tex::text(&producer(&graph.metadata))),
            "\\date{\\today}".into(),
            "\\begin{document}".into(),
            "\\maketitle".into(),
            String::new(),
        ]);
    } else {
        lines.push(format!("\\section*{{{title}}}"));
        lines.push("");
    }
    // Documents sciproof writes open with the fraction, as the design document says; alkahest's
    // are rendered as alkahest renders them (after the summary).
    let opens_with_fraction = !super::is_alkahest(&graph.metadata);
    let mut fraction = Vec::new();
    if total > 0 {
        fraction.push(format!(
            "\\noindent\\textbf{{Machine-checkable subset: {checked} of {total} claims ({}\\%).}} Only claims marked \\emph{{verified}} were checked by a checker; everything else is recorded evidence and must not be read as proved.",
            percent(checked, total)
        ));
        fraction.push(String::new());
    }
    if opens_with_fraction {
        lines.extend(fraction.drain(..));
    }
    lines.push("\\section*{Verification summary}");
    lines.push("\\begin{tabular}{lrl}");
    lines.push("\\textbf{Status} & \\textbf{Claims} & \\textbf{Meaning} \\\\ \\hline");
    for (status, count) in graph.summary() {
        lines.push(format!(
            "\\texttt{{{}}} & {count} & {} \\\\",
            tex::text(&status),
            tex::text(badge(&status).unwrap_or(&status))
        ));
    }
    lines.push("\\end{tabular}");
    lines.push("");
    lines.extend(fraction.drain(..));
    lines.push("\\section*{Claims}");
    for (n, claim) in graph.topological_order().into_iter().enumerate() {
        let index = n + 1;
        let heading = match (&claim.label, claim.method.as_str()) {
            (Some(l), _) if !l.is_empty() => l.to_string(),
            (_, m) if !m.is_empty() => m.to_string(),
            _ => format!("Claim {index}"),
        };
        lines.push(format!("\\subsection*{{{index}. {}}}", tex::text(&heading)));
        lines.push(format!("\\label{{clm:{}}}", claim.id));
        match claim.latex.as_ref().filter(|l| !l.is_empty()) {
            Some(latex) if tex::safe_math(latex) => lines.push(format!("\\[{latex}\\]")),
            _ => lines.push(format!("\\texttt{{{}}}", tex::text(&claim.statement))),
        }
        lines.push("\\begin{itemize}");
        lines.push(format!(
            "\\item \\textbf{{Status:}} {} \\texttt{{{}}} -- {}",
            tex::text(mark(&claim.status)),
            tex::text(&claim.status),
            tex::text(badge(&claim.status).unwrap_or("unrecognised status"))
        ));
        lines.push(format!(
            "\\item \\textbf{{Claim ID:}} \\texttt{{{}}}",
            tex::text(&claim.id)
        ));
        lines.push(format!(
            "\\item \\textbf{{Method:}} \\texttt{{{}}}",
            tex::text(&claim.method)
        ));
        if claim.hypotheses.is_empty() {
            lines.push("\\item \\textbf{Hypotheses:} none recorded");
        } else {
            let rendered: Vec<String> = claim
                .hypotheses
                .iter()
                .map(|h| format!("\\texttt{{{}}}", tex::text(h)))
                .collect();
            lines.push(format!(
                "\\item \\textbf{{Hypotheses:}} {}",
                rendered.join(", ")
            ));
        }
        if !claim.evidence.is_empty() && claim.evidence != "none" {
            lines.push(format!(
                "\\item \\textbf{{Evidence:}} {}",
                tex::text(&claim.evidence)
            ));
        }
        if !claim.depends_on.is_empty() {
            let links: Vec<String> = claim
                .depends_on
                .iter()
                .map(|d| format!("\\hyperref[clm:{d}]{{\\texttt{{{}}}}}", tex::text(d)))
                .collect();
            lines.push(format!(
                "\\item \\textbf{{Depends on:}} {}",
                links.join(", ")
            ));
        }
        match claim.certificate.as_ref().filter(|c| !c.is_empty()) {
            Some(c) => lines.push(format!(
                "\\item \\textbf{{Certificate:}} {} bytes of \\texttt{{{}}} source emitted (generated, not machine-checked)",
                c.chars().count(),
                tex::text(
                    claim
                        .certificate_format
                        .as_deref()
                        .filter(|f| !f.is_empty())
                        .unwrap_or("unknown")
                )
            )),
            None => lines.push("\\item \\textbf{Certificate:} none emitted"),
        }
        if derivations && !claim.derivation.is_empty() {
            let steps: Vec<String> = claim
                .derivation
                .iter()
                .map(|s| {
                    let rule = s
                        .as_object()
                        .map(|o| super::field_or_empty(o, "rule"))
                        .unwrap_or_default();
                    format!("\\texttt{{{}}}", tex::text(&rule))
                })
                .collect();
            lines.push(format!(
                "\\item \\textbf{{Derivation:}} {} step(s): {}",
                claim.derivation.len(),
                steps.join(", ")
            ));
        }
        lines.push("\\end{itemize}");
        lines.push("");
    }
    if standalone {
        lines.push("\\end{document}");
    }
    lines.finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            tex::text("a_b & 50% {x}^~\\"),
            "a\\_b \\& 50\\% \\{x\\}\\textasciicircum{}\\textasciitilde{}\\textbackslash{}"
        );
        assert_eq!(tex::text("(x ≠ 0) é"), "(x \\ensuremath{\\neq} 0) é");
        assert_eq!(tex::text("☃"), "\\texttt{U+2603}");
    }
}
