//! The LaTeX document (spec §6.2): every claim a numbered subsection with
//! `\label{clm:<id>}`, dependencies as `\hyperref` links, the machine-checkable fraction.
//!
//! Difference from the reference, so the output always compiles with `pdflatex`: characters
//! outside Latin-1 in escaped text (kernel hypotheses such as `(x ≠ 0)`, `∧`) become math
//! symbols for the common ones and a visible `U+XXXX` for the rest, where the reference
//! writes them raw and `pdflatex` stops at "Unicode character not set up for use with LaTeX".
//! For ASCII and Latin-1 text the output is the reference's, byte for byte.

use super::{percent, producer, title};
use crate::graph::ClaimGraph;
use crate::graph::claim::{badge, mark};

/// Escapes text for LaTeX: the ten special characters, and characters `pdflatex` cannot
/// typeset from UTF-8 input.
pub fn tex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' => out.push_str("\\&"),
            '%' => out.push_str("\\%"),
            '$' => out.push_str("\\$"),
            '#' => out.push_str("\\#"),
            '_' => out.push_str("\\_"),
            '{' => out.push_str("\\{"),
            '}' => out.push_str("\\}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            c if (c as u32) < 0x100 && !c.is_control() => out.push(c),
            c if c.is_control() => out.push(' '),
            c => match math_symbol(c) {
                Some(m) => {
                    out.push_str("\\ensuremath{");
                    out.push_str(m);
                    out.push('}');
                }
                None => out.push_str(&format!("\\texttt{{U+{:04X}}}", c as u32)),
            },
        }
    }
    out
}

/// The amsmath/amssymb command for common mathematical characters.
fn math_symbol(c: char) -> Option<&'static str> {
    const GREEK: [(char, &str); 40] = [
        ('α', "\\alpha"),
        ('β', "\\beta"),
        ('γ', "\\gamma"),
        ('δ', "\\delta"),
        ('ε', "\\epsilon"),
        ('ζ', "\\zeta"),
        ('η', "\\eta"),
        ('θ', "\\theta"),
        ('ι', "\\iota"),
        ('κ', "\\kappa"),
        ('λ', "\\lambda"),
        ('μ', "\\mu"),
        ('ν', "\\nu"),
        ('ξ', "\\xi"),
        ('π', "\\pi"),
        ('ρ', "\\rho"),
        ('σ', "\\sigma"),
        ('τ', "\\tau"),
        ('υ', "\\upsilon"),
        ('φ', "\\phi"),
        ('χ', "\\chi"),
        ('ψ', "\\psi"),
        ('ω', "\\omega"),
        ('Γ', "\\Gamma"),
        ('Δ', "\\Delta"),
        ('Θ', "\\Theta"),
        ('Λ', "\\Lambda"),
        ('Ξ', "\\Xi"),
        ('Π', "\\Pi"),
        ('Σ', "\\Sigma"),
        ('Φ', "\\Phi"),
        ('Ψ', "\\Psi"),
        ('Ω', "\\Omega"),
        ('ϕ', "\\varphi"),
        ('ϵ', "\\varepsilon"),
        ('ℝ', "\\mathbb{R}"),
        ('ℕ', "\\mathbb{N}"),
        ('ℤ', "\\mathbb{Z}"),
        ('ℚ', "\\mathbb{Q}"),
        ('ℂ', "\\mathbb{C}"),
    ];
    const OPERATORS: [(char, &str); 32] = [
        ('≠', "\\neq"),
        ('≤', "\\leq"),
        ('≥', "\\geq"),
        ('≈', "\\approx"),
        ('≡', "\\equiv"),
        ('∧', "\\land"),
        ('∨', "\\lor"),
        ('¬', "\\neg"),
        ('→', "\\rightarrow"),
        ('←', "\\leftarrow"),
        ('↔', "\\leftrightarrow"),
        ('⇒', "\\Rightarrow"),
        ('⇔', "\\Leftrightarrow"),
        ('∀', "\\forall"),
        ('∃', "\\exists"),
        ('∈', "\\in"),
        ('∉', "\\notin"),
        ('⊂', "\\subset"),
        ('⊆', "\\subseteq"),
        ('∪', "\\cup"),
        ('∩', "\\cap"),
        ('∅', "\\emptyset"),
        ('∞', "\\infty"),
        ('∫', "\\int"),
        ('∑', "\\sum"),
        ('∏', "\\prod"),
        ('√', "\\surd"),
        ('∂', "\\partial"),
        ('∇', "\\nabla"),
        ('⋅', "\\cdot"),
        ('∘', "\\circ"),
        ('−', "-"),
    ];
    GREEK
        .iter()
        .chain(OPERATORS.iter())
        .find(|(k, _)| *k == c)
        .map(|(_, v)| *v)
}

/// Renders the graph: a standalone `article`, or (with `standalone` false) the body only.
/// Ends with one newline.
pub fn render(graph: &ClaimGraph, standalone: bool, derivations: bool) -> String {
    super::collect(|sink| render_to(graph, standalone, derivations, sink))
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
    let mut lines = super::Lines::new(sink);
    let title = tex_escape(&title(graph));
    if standalone {
        lines.extend([
            "\\documentclass[11pt]{article}".to_string(),
            "\\usepackage[T1]{fontenc}".into(),
            "\\usepackage{amsmath,amssymb}".into(),
            "\\usepackage[colorlinks=true,linkcolor=blue]{hyperref}".into(),
            format!("\\title{{{title}}}"),
            format!("\\author{{{}}}", tex_escape(&producer(&graph.metadata))),
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
            tex_escape(&status),
            tex_escape(badge(&status).unwrap_or(&status))
        ));
    }
    lines.push("\\end{tabular}");
    lines.push("");
    lines.extend(fraction.drain(..));
    lines.push("\\section*{Claims}");
    for (n, claim) in graph.topological_order().into_iter().enumerate() {
        let index = n + 1;
        let heading = match (&claim.label, claim.method.as_str()) {
            (Some(l), _) if !l.is_empty() => l.clone(),
            (_, m) if !m.is_empty() => m.to_string(),
            _ => format!("Claim {index}"),
        };
        lines.push(format!(
            "\\subsection*{{{index}. {}}}",
            tex_escape(&heading)
        ));
        lines.push(format!("\\label{{clm:{}}}", claim.id));
        match claim.latex.as_ref().filter(|l| !l.is_empty()) {
            Some(latex) if super::safe_math(latex) => lines.push(format!("\\[{latex}\\]")),
            _ => lines.push(format!("\\texttt{{{}}}", tex_escape(&claim.statement))),
        }
        lines.push("\\begin{itemize}");
        lines.push(format!(
            "\\item \\textbf{{Status:}} {} \\texttt{{{}}} -- {}",
            tex_escape(mark(&claim.status)),
            tex_escape(&claim.status),
            tex_escape(badge(&claim.status).unwrap_or("unrecognised status"))
        ));
        lines.push(format!(
            "\\item \\textbf{{Claim ID:}} \\texttt{{{}}}",
            tex_escape(&claim.id)
        ));
        lines.push(format!(
            "\\item \\textbf{{Method:}} \\texttt{{{}}}",
            tex_escape(&claim.method)
        ));
        if claim.hypotheses.is_empty() {
            lines.push("\\item \\textbf{Hypotheses:} none recorded");
        } else {
            let rendered: Vec<String> = claim
                .hypotheses
                .iter()
                .map(|h| format!("\\texttt{{{}}}", tex_escape(h)))
                .collect();
            lines.push(format!(
                "\\item \\textbf{{Hypotheses:}} {}",
                rendered.join(", ")
            ));
        }
        if !claim.evidence.is_empty() && claim.evidence != "none" {
            lines.push(format!(
                "\\item \\textbf{{Evidence:}} {}",
                tex_escape(&claim.evidence)
            ));
        }
        if !claim.depends_on.is_empty() {
            let links: Vec<String> = claim
                .depends_on
                .iter()
                .map(|d| format!("\\hyperref[clm:{d}]{{\\texttt{{{}}}}}", tex_escape(d)))
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
                tex_escape(
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
                    format!("\\texttt{{{}}}", tex_escape(&rule))
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
            tex_escape("a_b & 50% {x}^~\\"),
            "a\\_b \\& 50\\% \\{x\\}\\textasciicircum{}\\textasciitilde{}\\textbackslash{}"
        );
        assert_eq!(tex_escape("(x ≠ 0) é"), "(x \\ensuremath{\\neq} 0) é");
        assert_eq!(tex_escape("☃"), "\\texttt{U+2603}");
    }
}
