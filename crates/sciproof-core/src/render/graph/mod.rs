//! Claim graphs shown: the documents a human referee reads (Markdown [`markdown`], LaTeX
//! [`latex`], and the graph's own JSON), lists of claims, the summary, the difference of two
//! graphs, and the re-verification as it happens. Renderers only read the graph; they never
//! decide a status.
//!
//! For documents written by alkahest the output is the reference's, byte for byte. A document
//! written by sciproof names sciproof (`metadata.generator`) instead of an Alkahest version.

pub mod add_run;
pub mod claims;
pub mod compare;
pub mod dot;
pub mod html;
pub mod latex;
pub mod layout;
pub mod markdown;
pub mod picture;
pub mod recheck;
pub mod show;
pub mod summary;
pub mod svg;

use crate::json::{Object, Value};
use crate::pyfmt::py_str;

/// `str(d.get(key, ""))`.
pub(crate) fn field_or_empty(object: &Object, key: &str) -> String {
    match object.get(key) {
        None => String::new(),
        v => py_str(v),
    }
}

/// Who wrote the document, for the header: `Alkahest <version>` (the reference's line, with
/// `unknown` when absent) unless sciproof wrote it.
pub(crate) fn producer(metadata: &Object) -> String {
    match (metadata.get("alkahest_version"), metadata.get("generator")) {
        (None, Some(Value::String(g))) => g.clone(),
        (v, _) => format!(
            "Alkahest {}",
            if v.is_none() {
                "unknown".into()
            } else {
                py_str(v)
            }
        ),
    }
}

/// Whether alkahest wrote the document (then it is rendered exactly as alkahest renders it).
pub(crate) fn is_alkahest(metadata: &Object) -> bool {
    producer(metadata).starts_with("Alkahest")
}

/// Who performed a re-check: `on Alkahest <version>` for the reference's audit entries,
/// `by <checker>` for ours.
pub(crate) fn checker(entry: &Object) -> String {
    match (entry.get("alkahest_version"), entry.get("checker")) {
        (None, Some(Value::String(c))) => format!("by {c}"),
        (v, _) => format!("on Alkahest {}", py_str(v)),
    }
}

/// The default title.
pub(crate) fn title(graph: &crate::graph::ClaimGraph) -> String {
    match &graph.title {
        Some(t) if !t.is_empty() => t.clone(),
        _ if is_alkahest(&graph.metadata) => "Alkahest research record".into(),
        _ => "Claim graph".into(),
    }
}

/// `{100 * k / n:.0f}`: the percentage rounded half to even on the binary double, as Python
/// formats it.
pub(crate) fn percent(checked: usize, total: usize) -> String {
    format!("{:.0}", 100.0 * checked as f64 / total as f64)
}

#[cfg(test)]
mod tests {
    #[test]
    fn percent_rounds_half_to_even() {
        assert_eq!(super::percent(1, 8), "12");
        assert_eq!(super::percent(3, 8), "38");
        assert_eq!(super::percent(5, 8), "62");
        assert_eq!(super::percent(1, 40), "2");
        assert_eq!(super::percent(199, 200), "100");
    }
}
