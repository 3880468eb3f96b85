//! The HTML report (`verify --format html`): one self-contained page ([`crate::render::html`]),
//! readable without JavaScript and with none in it. The verdict comes first, as a word and a colour
//! (never the colour alone), then the checks with their evidence folded away, a table per
//! numeric output that differs, warnings, what was not checked, notes and the run.
//!
//! Everything from a manifest is untrusted and goes through [`crate::escape::html`]; nothing
//! from it is ever placed in a URL, a script or a style.

use crate::escape::html::text;
use crate::json::to_string_pretty;
use crate::numeric::diff::Shown;
use crate::numeric::stats::{At, thousands};
use crate::numeric::{Comparison, Difference, Kind};
use crate::pyfmt::format_g6;
use crate::render::html as page;
use crate::render::{Renderer, Sink};
use crate::report::{Check, Evidence, Report};

fn number(v: &Shown) -> String {
    match v {
        Shown::Null => "-".into(),
        Shown::Bool(b) => if *b { "True" } else { "False" }.into(),
        Shown::Int(i) => text(&i.to_string(), 60),
        Shown::Float(f) => format_g6(*f),
        Shown::Text(t) => text(t, 60),
    }
}

fn opt_number(v: Option<f64>) -> String {
    v.filter(|f| f.is_finite()).map_or("-".into(), format_g6)
}

fn row(d: &Difference) -> String {
    if d.kind == Kind::Summary {
        return format!("<tr><td colspan=\"6\">{}</td></tr>", text(&d.message, 300));
    }
    format!(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        text(d.location.as_deref().unwrap_or("-"), 300),
        number(&d.recorded),
        number(&d.found),
        opt_number(d.abs_diff),
        opt_number(d.rel_diff),
        opt_number(d.allowed)
    )
}

/// The statistics of each group (column, key path, array) that is not bit-identical.
fn statistics_table(out: &mut String, path: &str, c: &Comparison) {
    let groups = c.groups_not_identical();
    if groups.is_empty() {
        return;
    }
    let at = |a: &Option<At>| {
        a.as_ref().map_or("<td>-</td><td>-</td>".into(), |a| {
            format!(
                "<td>{}</td><td>{}</td>",
                format_g6(a.value),
                text(&a.location, 300)
            )
        })
    };
    out.push_str(&format!(
        "<h2>Numeric statistics: {}</h2>\n<p>{}</p>\n",
        text(path, 300),
        text(&c.sentence(), 1000)
    ));
    out.push_str(&format!(
        "<table><thead><tr><th>{}</th><th>Values</th><th>Bit-identical</th><th>Outside tolerance</th><th>Largest abs. error</th><th>At</th><th>Largest rel. error</th><th>At</th></tr></thead><tbody>\n",
        c.statistics.grouped_by.title()
    ));
    for g in groups {
        out.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}{}</tr>\n",
            text(&g.name, 300),
            thousands(g.values),
            thousands(g.identical),
            thousands(g.outside),
            at(&g.largest_abs),
            at(&g.largest_rel)
        ));
    }
    out.push_str("</tbody></table>\n");
    if let Some(others) = c.others_line() {
        out.push_str(&format!("<p>{}</p>\n", text(&others, 1000)));
    }
}

fn numeric_table(out: &mut String, check: &Check) {
    let Some(Evidence::RerunNumeric {
        path,
        rtol,
        atol,
        outcome: Ok(comparison),
    }) = &check.evidence
    else {
        return;
    };
    statistics_table(out, path, comparison);
    let diffs = &comparison.differences;
    if diffs.is_empty() {
        return;
    }
    out.push_str(&format!(
        "<h2>Numeric differences: {}</h2>\n<p>Tolerance: rtol={}, atol={} (a difference passes if it is at most the allowed value).</p>\n",
        text(path, 300),
        format_g6(*rtol),
        format_g6(*atol)
    ));
    out.push_str("<table><thead><tr><th>Location</th><th>Recorded</th><th>Found</th><th>Abs. diff</th><th>Rel. diff</th><th>Allowed</th></tr></thead><tbody>\n");
    for d in diffs {
        out.push_str(&row(d));
        out.push('\n');
    }
    out.push_str("</tbody></table>\n");
}

/// The page.
pub struct HtmlRenderer;

impl Renderer<Report> for HtmlRenderer {
    fn render(&self, model: &Report, out: &mut Sink) {
        out(&HtmlRenderer::page(model));
    }
}

impl HtmlRenderer {
    fn page(report: &Report) -> String {
        let status = report.status().as_str();
        let mut out = page::verdict(report.status(), &report.name);
        out.push_str(&format!(
            "<p class=\"reason\">{}</p>\n",
            text(&report.reason(), 1000)
        ));
        out.push_str("<table class=\"checks\"><thead><tr><th>Result</th><th>Check</th><th>Details</th></tr></thead><tbody>\n");
        for c in &report.checks {
            let evidence = c.evidence.as_ref().map_or(String::new(), |e| {
                format!(
                    "<details><summary>Evidence</summary><pre>{}</pre></details>",
                    text(&to_string_pretty(&e.to_json()), 20_000)
                )
            });
            out.push_str(&format!(
                "<tr><td class=\"{s}\">{} {s}</td><td>{}</td><td>{}{evidence}</td></tr>\n",
                page::symbol(c.status),
                text(&c.subject, 300),
                text(&c.message, 1000),
                s = c.status.as_str()
            ));
        }
        out.push_str("</tbody></table>\n");
        for c in &report.checks {
            numeric_table(&mut out, c);
        }
        if !report.warnings.is_empty() {
            out.push_str(&page::list("Warnings", &report.warnings));
        }
        out.push_str(&page::list("Not checked", &report.not_checked()));
        if !report.notes.is_empty() {
            out.push_str(&page::list("Notes", &report.notes));
        }
        let mut run = vec![format!(
            "rerun requested: {}, executed: {}",
            report.rerun_requested, report.rerun_executed
        )];
        if let Some(r) = &report.rerun_run {
            run.push(format!(
                "rerun from {} to {} ({} s), exit code {}",
                r.started_at,
                r.ended_at,
                format_g6(r.duration_seconds),
                r.exit_code
            ));
        }
        if report.clean_env {
            run.push(format!(
                "reduced environment (--clean-env), passed: {}",
                report.env_passed.join(", ")
            ));
        }
        if let Some(dir) = &report.rerun_outputs_dir {
            run.push(format!("files produced by the rerun were moved to {dir}/"));
        }
        out.push_str(&page::list("Run", &run));
        page::page(&format!("SciProof: {status}: {}", report.name), &out)
    }
}
