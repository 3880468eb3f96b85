//! The verification report ([`Report`]) in text, JSON (`sciproof.report` 1.0), Markdown,
//! JUnit XML and a self-contained HTML page.

pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod text;

use crate::render::{OutputFormat, Render, Renderer};
use crate::report::Report;

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
