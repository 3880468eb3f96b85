//! Claims answering a query ([`ClaimList`]): one line per claim, a JSON array of
//! `{id, status, statement, label}`, or a picture of them (Graphviz DOT or SVG).

use crate::escape::terminal::safe_text;
use crate::graph::Claim;
use crate::graph::view::ClaimList;
use crate::json::{Object, Style, Value, write_value};
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for ClaimList<'_> {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(ClaimsText),
            OutputFormat::Json => Box::new(ClaimsJson),
            OutputFormat::Dot => Box::new(ClaimsDot),
            OutputFormat::Svg => Box::new(ClaimsSvg),
            _ => return None,
        })
    }
}

/// `ID  STATUS  TITLE`: a claim on one line (the title is the label, else the statement).
pub fn claim_line(c: &Claim) -> String {
    let title = c
        .label
        .as_deref()
        .filter(|l| !l.is_empty())
        .unwrap_or(&c.statement);
    format!("{}  {:<21} {}", c.id, c.status, safe_text(title, 200))
}

/// A picture of the claims and the dependencies among them, with the claim the query is about
/// highlighted (`graph impact ID --format dot` draws what dies if that claim is false).
pub struct ClaimsDot;

impl Renderer<ClaimList<'_>> for ClaimsDot {
    fn render(&self, list: &ClaimList<'_>, out: &mut Sink) {
        super::dot::claims_to(&list.claims, list.focus, out);
    }
}

/// The same picture as [`ClaimsDot`], as SVG laid out by sciproof (`graph impact ID --format
/// svg`).
pub struct ClaimsSvg;

impl Renderer<ClaimList<'_>> for ClaimsSvg {
    fn render(&self, list: &ClaimList<'_>, out: &mut Sink) {
        super::svg::claims_to(&list.claims, list.focus, out);
    }
}

/// One line per claim.
pub struct ClaimsText;

impl Renderer<ClaimList<'_>> for ClaimsText {
    fn render(&self, list: &ClaimList<'_>, out: &mut Sink) {
        for c in &list.claims {
            out(&claim_line(c));
            out("\n");
        }
    }
}

/// A JSON array, one object per claim, written claim by claim.
pub struct ClaimsJson;

impl Renderer<ClaimList<'_>> for ClaimsJson {
    fn render(&self, list: &ClaimList<'_>, out: &mut Sink) {
        if list.claims.is_empty() {
            out("[]\n");
            return;
        }
        out("[");
        for (i, c) in list.claims.iter().enumerate() {
            let item = Value::Object(
                Object::new()
                    .with("id", c.id.as_str())
                    .with("status", c.status.as_str())
                    .with("statement", c.statement.as_str())
                    .with("label", Value::from(c.label.clone())),
            );
            let mut text = String::from(if i == 0 { "\n  " } else { ",\n  " });
            write_value(&mut text, &item, Some(1), Style::ASCII);
            out(&text);
        }
        out("\n]\n");
    }
}
