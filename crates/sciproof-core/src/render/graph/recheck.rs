//! A claim graph's re-verification as it happens ([`Reverification`], `graph verify`): text,
//! the reference's Markdown table, or a JSON document, each outcome written as it is decided.

use crate::escape::markdown as md;
use crate::escape::terminal::safe_text;
use crate::graph::recipe::{Outcome, RecheckOutcome, RecheckSummary, Reverification};
use crate::json::{Object, Style, Value, write_string, write_value};
use crate::render::{OutputFormat, Sink, StreamRenderer};

/// The renderer of `format` (the list of [`Reverification`]'s formats).
pub fn renderer(format: OutputFormat) -> Option<Box<dyn StreamRenderer<Reverification>>> {
    Some(match format {
        OutputFormat::Text => Box::new(RecheckText),
        OutputFormat::Markdown => Box::new(RecheckMarkdown),
        OutputFormat::Json => Box::new(RecheckJson),
        _ => return None,
    })
}

/// A line per re-checked claim (claims without a recipe are left out), then the counts.
pub struct RecheckText;

impl StreamRenderer<Reverification> for RecheckText {
    fn head(&self, _checked_at: &String, _out: &mut Sink) {}
    fn item(&self, _index: usize, o: &RecheckOutcome, out: &mut Sink) {
        if o.outcome == Outcome::Skipped && o.kind == "none" {
            return;
        }
        out(&format!(
            "{}  {:<12} {:<18} {}\n",
            o.claim_id,
            o.outcome.as_str(),
            safe_text(&o.kind, 40),
            safe_text(&o.detail, 400)
        ));
    }
    fn tail(&self, _count: usize, summary: &RecheckSummary, out: &mut Sink) {
        out(&format!("summary: {}\n", summary.repr()));
    }
}

/// The reference's report table (checker named `sciproof`).
pub struct RecheckMarkdown;

impl StreamRenderer<Reverification> for RecheckMarkdown {
    fn head(&self, _checked_at: &String, out: &mut Sink) {
        out(
            "### Re-verification (sciproof)\n\n| Claim | Outcome | Check | Detail |\n| --- | --- | --- | --- |\n",
        );
    }
    fn item(&self, _index: usize, o: &RecheckOutcome, out: &mut Sink) {
        out(&format!(
            "| `{}` | `{}` | {} | {} |\n",
            o.claim_id,
            o.outcome.as_str(),
            md::code(&o.kind),
            md::text(&o.detail)
        ));
    }
    fn tail(&self, _count: usize, summary: &RecheckSummary, out: &mut Sink) {
        out(&format!("\nSummary: {}\n", summary.repr()));
    }
}

/// `{checked_at, outcomes: [{claim_id, outcome, kind, detail}], ok, summary}`.
pub struct RecheckJson;

impl StreamRenderer<Reverification> for RecheckJson {
    fn head(&self, checked_at: &String, out: &mut Sink) {
        out(&format!(
            "{{\n  \"checked_at\": \"{checked_at}\",\n  \"outcomes\": ["
        ));
    }
    fn item(&self, index: usize, o: &RecheckOutcome, out: &mut Sink) {
        // Written field by field as `json.dumps(item, indent=2)` writes the object (a million
        // outcomes are not each built as an object first).
        let mut text = String::with_capacity(128 + o.detail.len());
        text.push_str(if index == 0 { "\n    {" } else { ",\n    {" });
        for (n, (key, value)) in [
            ("claim_id", o.claim_id.as_str()),
            ("outcome", o.outcome.as_str()),
            ("kind", o.kind.as_str()),
            ("detail", o.detail.as_str()),
        ]
        .into_iter()
        .enumerate()
        {
            text.push_str(if n == 0 { "\n      \"" } else { ",\n      \"" });
            text.push_str(key);
            text.push_str("\": ");
            write_string(&mut text, value);
        }
        text.push_str("\n    }");
        out(&text);
    }
    fn tail(&self, count: usize, summary: &RecheckSummary, out: &mut Sink) {
        let mut counts = Object::new();
        for (k, v) in summary.counts() {
            counts.insert(*k, *v);
        }
        let mut text = String::from(if count == 0 { "],\n" } else { "\n  ],\n" });
        text.push_str(&format!(
            "  \"ok\": {},\n  \"summary\": ",
            if summary.ok() { "true" } else { "false" }
        ));
        write_value(&mut text, &Value::Object(counts), Some(1), Style::ASCII);
        text.push_str("\n}\n");
        out(&text);
    }
}
