//! Two claim graphs compared ([`GraphComparison`], `graph diff`): a line per difference, or
//! `{added, removed, status_changed, edges_changed}`.

use super::claims::claim_line;
use crate::graph::view::GraphComparison;
use crate::json::{Object, Value, to_string_pretty};
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for GraphComparison<'_> {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(ComparisonText),
            OutputFormat::Json => Box::new(ComparisonJson),
            _ => return None,
        })
    }
}

/// `added`, `removed`, `status` and `edges` lines (or that nothing differs).
pub struct ComparisonText;

impl Renderer<GraphComparison<'_>> for ComparisonText {
    fn render(&self, c: &GraphComparison<'_>, out: &mut Sink) {
        let d = &c.diff;
        if d.is_empty() {
            out("no differences in claims, statuses or dependencies\n");
        }
        for id in &d.added {
            let line = c.new.get(id).map(claim_line).unwrap_or_default();
            out(&format!("added    {line}\n"));
        }
        for id in &d.removed {
            let line = c.old.get(id).map(claim_line).unwrap_or_default();
            out(&format!("removed  {line}\n"));
        }
        for s in &d.status_changed {
            out(&format!("status   {}  {} -> {}\n", s.id, s.old, s.new));
        }
        for id in &d.edges_changed {
            out(&format!("edges    {id}  dependencies changed\n"));
        }
    }
}

/// `{"added": [...], "removed": [...], "status_changed": [{"id","old","new"}], "edges_changed": [...]}`.
pub struct ComparisonJson;

impl Renderer<GraphComparison<'_>> for ComparisonJson {
    fn render(&self, c: &GraphComparison<'_>, out: &mut Sink) {
        let d = &c.diff;
        let ids = |v: &[String]| Value::Array(v.iter().map(Value::from).collect());
        let changed = d
            .status_changed
            .iter()
            .map(|s| {
                Value::Object(
                    Object::new()
                        .with("id", s.id.as_str())
                        .with("old", s.old.as_str())
                        .with("new", s.new.as_str()),
                )
            })
            .collect();
        let doc = Object::new()
            .with("added", ids(&d.added))
            .with("removed", ids(&d.removed))
            .with("status_changed", Value::Array(changed))
            .with("edges_changed", ids(&d.edges_changed));
        out(&to_string_pretty(&Value::Object(doc)));
        out("\n");
    }
}
