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

/// The longest text of one field that a document shows (a 1 MB statement is cut, with the
/// number of characters left out).
const FIELD_LIMIT: usize = 20_000;

/// Untrusted text made safe to stand on one line: terminal controls and bidirectional or
/// invisible format controls shown as escapes, line breaks as spaces, `|` as `\|` (so a value
/// stays inside its table cell).
fn one_line(text: &str) -> String {
    crate::text::safe_text(&text.replace('\n', " "), FIELD_LIMIT).replace('|', "\\|")
}

/// `|` as `\|` and line breaks as spaces, so a value stays inside its table cell or line, with
/// every control neutralised (see [`one_line`]).
pub fn md_escape(text: &str) -> String {
    one_line(text)
}

/// An inline code span of untrusted text that nothing can break out of: delimited by one
/// backtick more than the longest run of backticks inside (padded with spaces when the text
/// starts or ends with one, as CommonMark requires). Inside a code span no Markdown or HTML is
/// interpreted. Plain text without backticks gives `` `text` ``, as the reference writes it.
pub fn md_code(text: &str) -> String {
    let body = one_line(text);
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    if longest == 0 {
        return format!("`{body}`");
    }
    let fence = "`".repeat(longest + 1);
    format!("{fence} {body} {fence}")
}

/// Untrusted text in a plain-text position of a line (a list item: the evidence, notes, a
/// re-check's detail), with `|` escaped as the reference escapes it there. See [`md_inert`].
pub fn md_text(text: &str) -> String {
    md_inert(&one_line(text))
}

/// Untrusted text in a heading (the title, a claim's label), where the reference does not
/// escape `|`. See [`md_inert`].
pub fn md_heading(text: &str) -> String {
    md_inert(&crate::text::safe_text(
        &text.replace('\n', " "),
        FIELD_LIMIT,
    ))
}

/// Makes everything GitHub would turn into live markup inert, with the escapes of the
/// verification report, and leaves ordinary prose as it is (a benign document renders as the
/// reference renders it): `<` before a letter, `/`, `!` or `?` (a tag, comment or autolink),
/// `&` before `#` or a letter (a character reference, which could decode into markup or a
/// mention), `[` and `]` (links and images), `@` before a name (a mention), `#` before a digit
/// (an issue reference), `:` before `/` or a name character (a URL scheme or an emoji
/// shortcode), `www.` (an autolink).
fn md_inert(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let name = |n: char| n.is_alphanumeric() || matches!(n, '_' | '-' | '+');
        match c {
            '<' if next
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')) =>
            {
                out.push_str("&lt;")
            }
            '&' if next.is_some_and(|n| n == '#' || n.is_ascii_alphanumeric()) => {
                out.push_str("&amp;")
            }
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '@' if next.is_some_and(name) => out.push_str("&#64;&#8203;"),
            '#' if next.is_some_and(|n| n.is_ascii_digit()) => out.push_str("&#35;&#8203;"),
            ':' if next.is_some_and(|n| n == '/' || name(n)) => out.push_str("&#58;&#8203;"),
            '.' if i >= 3
                && chars[i - 3..i]
                    .iter()
                    .collect::<String>()
                    .eq_ignore_ascii_case("www") =>
            {
                out.push_str("&#46;")
            }
            _ => out.push(c),
        }
    }
    out
}

/// Renders the graph (the reference's bytes for its own documents). Ends with one newline.
pub fn render(graph: &ClaimGraph, options: MarkdownOptions) -> String {
    super::collect(|sink| render_to(graph, options, sink))
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
    let mut lines = super::Lines::new(sink);
    lines.push(format!("# {}", md_heading(&title(graph))));
    lines.push("");
    if opens_with_fraction {
        lines.push(fraction.clone());
        lines.push("");
    }
    lines.push(format!(
        "*{} · claim-graph schema v1 · {total} claim{} · digest `{}`*",
        md_heading(&producer(&graph.metadata)),
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
            md_code(&status),
            md_text(badge(&status).unwrap_or(&status))
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
            lines.push(format!("> - {}", md_code(&super::py_str(Some(e)))));
        }
        lines.push("");
    }
    lines.push("## Claims");
    lines.push("");
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
            "### {index}. {} <a id=\"{}\"></a>",
            md_heading(&heading),
            claim.id
        ));
        lines.push("");
        lines.push(format!(
            "**Status:** {} {} — {}",
            mark(&claim.status),
            md_code(&claim.status),
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
        lines.push(format!("- **Statement:** {}", md_code(&claim.statement)));
        lines.push(format!("- **Claim ID:** `{}`", claim.id));
        lines.push(format!("- **Method:** {}", md_code(&claim.method)));
        if claim.hypotheses.is_empty() {
            lines.push("- **Hypotheses:** none recorded (claim asserted unconditionally)");
        } else {
            let rendered: Vec<String> = claim.hypotheses.iter().map(|h| md_code(h)).collect();
            lines.push(format!("- **Hypotheses:** {}", rendered.join(", ")));
        }
        if !claim.evidence.is_empty() && claim.evidence != "none" {
            lines.push(format!("- **Evidence:** {}", md_text(&claim.evidence)));
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
                "- **Certificate:** {} bytes of {} source emitted (generated, not machine-checked)",
                c.chars().count(),
                md_code(
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
            lines.push(format!("- **Notes:** {}", md_text(notes)));
        }
        if let Some(last) = claim.audit.last() {
            let last = last.object();
            let last = &last;
            lines.push(format!(
                "- **Last re-check:** {} via {} {} — {}",
                md_code(&super::py_str(last.get("outcome"))),
                md_code(&super::py_str(last.get("kind"))),
                md_text(&checker(last)),
                md_text(&field_or_empty(last, "detail"))
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
                    Some(o) => md_code(&field_or_empty(o, key)),
                    None => md_code(""),
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
                    .map(|l| crate::text::safe_text(l, usize::MAX))
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
    super::safe_math(latex).then(|| latex.to_string())
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
