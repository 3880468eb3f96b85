//! The verification report ([`Report`]) in text, JSON (`sciproof.report` 1.0), Markdown,
//! JUnit XML and a self-contained HTML page.

pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod text;

use crate::render::{OutputFormat, Render, Renderer};
use crate::report::{Check, Evidence, Report};

/// The per-group statistics of a numeric check, one line each (text and JUnit; Markdown and
/// HTML show them as a table).
fn statistics_lines(check: &Check) -> Vec<String> {
    match &check.evidence {
        Some(Evidence::RerunNumeric {
            outcome: Ok(comparison),
            ..
        }) => comparison.group_lines(),
        _ => Vec::new(),
    }
}

impl Render for Report {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(text::TextRenderer),
            OutputFormat::Json => Box::new(json::JsonRenderer),
            OutputFormat::Markdown => Box::new(markdown::MarkdownRenderer),
            OutputFormat::Junit => Box::new(junit::JunitRenderer),
            OutputFormat::Html => Box::new(html::HtmlRenderer),
            _ => return None,
        })
    }
}
