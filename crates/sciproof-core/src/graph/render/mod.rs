//! Documents a human referee reads: Markdown ([`markdown`]) and LaTeX ([`latex`]). Renderers
//! only read the graph; they never decide a status.
//!
//! For documents written by alkahest the output is the reference's, byte for byte. A document
//! written by sciproof names sciproof (`metadata.generator`) instead of an Alkahest version.

pub mod latex;
pub mod markdown;

use crate::json::{Number, Object, Value};

/// A document written line by line to a sink, as `lines.join("\n").trim_end() + "\n"` would
/// give it, without holding the document: a rendering of a million claims is streamed.
pub struct Lines<'s> {
    sink: &'s mut dyn FnMut(&str),
    /// Line breaks owed before the next non-empty line (empty lines at the end are dropped).
    owed: usize,
    started: bool,
}

impl<'s> Lines<'s> {
    /// Lines for `sink`.
    pub fn new(sink: &'s mut dyn FnMut(&str)) -> Self {
        Lines {
            sink,
            owed: 0,
            started: false,
        }
    }
    /// Appends a line.
    pub fn push(&mut self, line: impl AsRef<str>) {
        if self.started {
            self.owed += 1;
        }
        self.started = true;
        let line = line.as_ref();
        if !line.is_empty() {
            for _ in 0..self.owed {
                (self.sink)("\n");
            }
            self.owed = 0;
            (self.sink)(line);
        }
    }
    /// Appends lines.
    pub fn extend<S: AsRef<str>>(&mut self, lines: impl IntoIterator<Item = S>) {
        for line in lines {
            self.push(line);
        }
    }
    /// Ends the document with one line break.
    pub fn finish(self) {
        (self.sink)("\n");
    }
}

/// Collects what a renderer writes to a sink.
pub(crate) fn collect(render: impl FnOnce(&mut dyn FnMut(&str))) -> String {
    let mut text = String::new();
    render(&mut |piece| text.push_str(piece));
    text
}

/// Python's `str()` of a JSON value, as the reference prints stored values.
pub(crate) fn py_str(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => "None".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(true)) => "True".into(),
        Some(Value::Bool(false)) => "False".into(),
        Some(Value::Number(Number::Int(i))) => i.to_string(),
        Some(Value::Number(Number::Float(f))) => crate::pyfmt::float_repr(*f),
        Some(v) => crate::json::to_string_compact(v),
    }
}

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
pub(crate) fn title(graph: &super::ClaimGraph) -> String {
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
