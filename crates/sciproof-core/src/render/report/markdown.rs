//! The Markdown report (`verify --format markdown`): GitHub-flavoured Markdown of the same
//! report, for CI summaries and pull-request comments.
//!
//! Text that comes from a manifest is untrusted. [`escape`] keeps links, autolinks, mentions,
//! issue references, emoji shortcodes, HTML and emphasis inert: Markdown punctuation is
//! backslash-escaped or written as a character reference, and mentions, references and
//! shortcode or URL colons get a zero-width space, so that they stay inert even after GitHub
//! decodes the character references.

use crate::escape::markdown::escape;
use crate::numeric::diff::Shown;
use crate::numeric::stats::{At, thousands};
use crate::numeric::{Comparison, Difference, Kind};
use crate::pyfmt::format_g6;
use crate::render::{Renderer, Sink};
use crate::report::{Check, Evidence, Report, Status};

fn mark(status: Status) -> &'static str {
    match status {
        Status::Pass => ":white_check_mark:",
        Status::Fail => ":x:",
        Status::Inconclusive => ":grey_question:",
    }
}

fn number(v: &Shown) -> String {
    match v {
        Shown::Null => "-".into(),
        Shown::Bool(true) => "True".into(),
        Shown::Bool(false) => "False".into(),
        Shown::Int(i) => match num_traits::ToPrimitive::to_f64(i) {
            Some(f) => format_g6(f),
            None => escape(&i.to_string(), 60),
        },
        Shown::Float(f) => format_g6(*f),
        Shown::Text(t) => escape(t, 60),
    }
}

fn opt_number(v: Option<f64>) -> String {
    v.filter(|f| f.is_finite()).map_or("-".into(), format_g6)
}

fn numeric_table(lines: &mut Vec<String>, check: &Check) {
    let Some(Evidence::RerunNumeric {
        path,
        rtol,
        atol,
        outcome: Ok(comparison),
    }) = &check.evidence
    else {
        return;
    };
    statistics_table(lines, path, comparison);
    let diffs = &comparison.differences;
    if diffs.is_empty() {
        return;
    }
    lines.push(String::new());
    lines.push(format!("### Numeric differences: {}", escape(path, 300)));
    lines.push(String::new());
    lines.push(format!(
        "Tolerance: `rtol={}`, `atol={}` (a difference passes if it is at most the *allowed* value).",
        format_g6(*rtol),
        format_g6(*atol)
    ));
    lines.push(String::new());
    lines.push("| Location | Recorded | Found | Abs. diff | Rel. diff | Allowed |".into());
    lines.push("| --- | --- | --- | --- | --- | --- |".into());
    for d in diffs {
        lines.push(row(d));
    }
}

/// The statistics of each group (column, key path, array) that is not bit-identical.
fn statistics_table(lines: &mut Vec<String>, path: &str, c: &Comparison) {
    let groups = c.groups_not_identical();
    if groups.is_empty() {
        return;
    }
    let at = |a: &Option<At>| {
        a.as_ref().map_or("- | -".into(), |a| {
            format!("{} | {}", format_g6(a.value), escape(&a.location, 300))
        })
    };
    lines.push(String::new());
    lines.push(format!("### Numeric statistics: {}", escape(path, 300)));
    lines.push(String::new());
    lines.push(escape(&c.sentence(), 1000));
    lines.push(String::new());
    lines.push(format!(
        "| {} | Values | Bit-identical | Outside tolerance | Largest abs. error | At | Largest rel. error | At |",
        c.statistics.grouped_by.title()
    ));
    lines.push("| --- | --- | --- | --- | --- | --- | --- | --- |".into());
    for g in groups {
        lines.push(format!(
            "| {} | {} | {} | {} | {} | {} |",
            escape(&g.name, 300),
            thousands(g.values),
            thousands(g.identical),
            thousands(g.outside),
            at(&g.largest_abs),
            at(&g.largest_rel)
        ));
    }
    if let Some(others) = c.others_line() {
        lines.push(String::new());
        lines.push(escape(&others, 1000));
    }
}

fn row(d: &Difference) -> String {
    if d.kind == Kind::Summary {
        return format!("| {} | | | | | |", escape(&d.message, 300));
    }
    format!(
        "| {} | {} | {} | {} | {} | {} |",
        escape(d.location.as_deref().unwrap_or("-"), 300),
        number(&d.recorded),
        number(&d.found),
        opt_number(d.abs_diff),
        opt_number(d.rel_diff),
        opt_number(d.allowed)
    )
}

/// The reference's layout: heading with the verdict, the basis as a quote, a table of checks,
/// a table per numeric output that differs, warnings, not checked, notes.
pub struct MarkdownRenderer;

impl Renderer<Report> for MarkdownRenderer {
    fn render(&self, model: &Report, out: &mut Sink) {
        out(&MarkdownRenderer::text(model));
    }
}

impl MarkdownRenderer {
    fn text(report: &Report) -> String {
        let status = report.status();
        let mut lines = vec![
            format!(
                "## SciProof: {} {}: {}",
                mark(status),
                status.as_str(),
                escape(&report.name, 100)
            ),
            String::new(),
            format!("> {}", escape(&report.reason(), 1000)),
            String::new(),
            "| Result | Check | Details |".into(),
            "| --- | --- | --- |".into(),
        ];
        for c in &report.checks {
            lines.push(format!(
                "| {} {} | {} | {} |",
                mark(c.status),
                c.status.as_str(),
                escape(&c.subject, 300),
                escape(&c.message, 300)
            ));
        }
        for c in &report.checks {
            numeric_table(&mut lines, c);
        }
        let mut block = |title: &str, items: &[String]| {
            lines.push(String::new());
            lines.push(format!("### {title}"));
            lines.push(String::new());
            lines.extend(items.iter().map(|i| format!("- {}", escape(i, 1000))));
        };
        if !report.warnings.is_empty() {
            block("Warnings", &report.warnings);
        }
        block("Not checked", &report.not_checked());
        if !report.notes.is_empty() {
            block("Notes", &report.notes);
        }
        if let Some(dir) = &report.rerun_outputs_dir {
            lines.push(String::new());
            lines.push(format!(
                "Files produced by the rerun were moved to `{}/`.",
                escape(dir, 300)
            ));
        }
        lines.push(String::new());
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escaping_matches_the_reference() {
        assert_eq!(escape("a|b\nc", 300), "a\\|b\\\\nc");
        assert_eq!(
            escape("[link](http://x)", 300),
            "\\[link\\](http&#58;&#8203;//x)"
        );
        assert_eq!(escape("@user #12", 300), "&#64;&#8203;user &#35;&#8203;12");
        assert_eq!(
            escape("*em* _u_ ~s~", 300),
            "&#42;em&#42; &#95;u&#95; &#126;s&#126;"
        );
        assert_eq!(
            escape("scope: artifact :tada:", 300),
            "scope: artifact &#58;&#8203;tada&#58;&#8203;"
        );
        assert_eq!(escape("WWW.x.org", 300), "WWW&#46;x.org");
        assert_eq!(escape("a   b\u{a0}c", 300), "a b c");
        assert_eq!(escape("<b>`x`</b>", 300), "&lt;b&gt;&#96;x&#96;&lt;/b&gt;");
    }
}
