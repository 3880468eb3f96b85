//! The text report for terminals. Every string that comes from a manifest is escaped.

use super::statistics_lines;
use crate::escape::terminal::safe_text;
use crate::render::{Renderer, Sink};
use crate::report::Report;

/// The reference's text layout: checks, warnings, notes, basis, not checked, RESULT.
pub struct TextRenderer;

impl Renderer<Report> for TextRenderer {
    fn render(&self, model: &Report, out: &mut Sink) {
        out(&TextRenderer::text(model));
    }
}

impl TextRenderer {
    fn text(report: &Report) -> String {
        let mut lines = vec![
            format!(
                "SciProof verification of '{}'",
                safe_text(&report.name, 500)
            ),
            String::new(),
        ];
        for c in &report.checks {
            lines.push(format!(
                "  [{}] {}: {}",
                c.status.as_str(),
                safe_text(&c.subject, 500),
                safe_text(&c.message, 2000)
            ));
            lines.extend(
                statistics_lines(c)
                    .iter()
                    .map(|l| format!("        {}", safe_text(l, 2000))),
            );
        }
        if !report.warnings.is_empty() {
            lines.push(String::new());
            lines.extend(
                report
                    .warnings
                    .iter()
                    .map(|w| format!("  warning: {}", safe_text(w, 2000))),
            );
        }
        if !report.notes.is_empty() {
            lines.push(String::new());
            lines.extend(
                report
                    .notes
                    .iter()
                    .map(|n| format!("  note: {}", safe_text(n, 2000))),
            );
        }
        if let Some(dir) = &report.rerun_outputs_dir {
            lines.push(format!(
                "  note: files produced by the rerun were moved to {}/",
                safe_text(dir, 500)
            ));
        }
        lines.push(String::new());
        lines.push(format!("  basis: {}", safe_text(&report.reason(), 4000)));
        lines.extend(
            report
                .not_checked()
                .iter()
                .map(|i| format!("  not checked: {i}")),
        );
        lines.push(String::new());
        lines.push(format!("RESULT: {}", report.status().as_str()));
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }
}
