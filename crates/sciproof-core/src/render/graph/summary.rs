//! Claims per status and the machine-checkable fraction ([`GraphSummary`], `graph summary`).

use crate::graph::view::GraphSummary;
use crate::json::{Object, Value, to_string_pretty};
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for GraphSummary {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(SummaryText),
            OutputFormat::Json => Box::new(SummaryJson),
            _ => return None,
        })
    }
}

/// A line per status, then the machine-checkable fraction and what it means.
pub struct SummaryText;

impl Renderer<GraphSummary> for SummaryText {
    fn render(&self, s: &GraphSummary, out: &mut Sink) {
        for (status, count) in &s.by_status {
            out(&format!("{status:<22} {count}\n"));
        }
        out(&format!(
            "machine-checkable: {} of {} claims; everything else is recorded evidence and must not be read as proved\n",
            s.machine_checkable, s.claims
        ));
    }
}

/// `{claims, machine_checkable, by_status, digest}`.
pub struct SummaryJson;

impl Renderer<GraphSummary> for SummaryJson {
    fn render(&self, s: &GraphSummary, out: &mut Sink) {
        let mut counts = Object::new();
        for (k, v) in &s.by_status {
            counts.insert(k.as_str(), *v);
        }
        let doc = Object::new()
            .with("claims", s.claims)
            .with("machine_checkable", s.machine_checkable)
            .with("by_status", counts)
            .with("digest", s.digest.as_str());
        out(&to_string_pretty(&Value::Object(doc)));
        out("\n");
    }
}
