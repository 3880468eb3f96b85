//! Claims answering a query ([`ClaimList`]): one line per claim, a JSON array of
//! `{id, status, statement, label}`, or a picture of them (Graphviz DOT or SVG).

use crate::escape::terminal::safe_text;
use crate::graph::Claim;
use crate::graph::view::ClaimList;
use crate::json::write_str;
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

/// A JSON array, one object per claim (`id`, `status`, `statement`, `label`, in that order,
/// non-ASCII escaped), handed on in pieces of about 64 KiB.
pub struct ClaimsJson;

impl Renderer<ClaimList<'_>> for ClaimsJson {
    fn render(&self, list: &ClaimList<'_>, out: &mut Sink) {
        if list.claims.is_empty() {
            out("[]\n");
            return;
        }
        const PIECE: usize = 1 << 16;
        let mut text = String::with_capacity(PIECE + 1024);
        text.push('[');
        for (i, c) in list.claims.iter().enumerate() {
            text.push_str(if i == 0 { "\n  " } else { ",\n  " });
            claim_json(&mut text, c);
            if text.len() >= PIECE {
                out(&text);
                text.clear();
            }
        }
        text.push_str("\n]\n");
        out(&text);
    }
}

/// Appends one claim's object as an item of the list: what writing the object `{"id",
/// "status", "statement", "label"}` one level deep with [`crate::json::Style::ASCII`] writes,
/// written field by field (a million-claim answer would otherwise build a million objects only
/// to write them).
fn claim_json(out: &mut String, c: &Claim) {
    out.push_str("{\n    \"id\": ");
    write_str(out, &c.id, true);
    out.push_str(",\n    \"status\": ");
    write_str(out, &c.status, true);
    out.push_str(",\n    \"statement\": ");
    write_str(out, &c.statement, true);
    out.push_str(",\n    \"label\": ");
    match &c.label {
        Some(label) => write_str(out, label, true),
        None => out.push_str("null"),
    }
    out.push_str("\n  }");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Object, Style, Value, write_value};
    use proptest::prelude::*;

    /// The list as a JSON value written whole: what [`ClaimsJson`] must write.
    fn as_value(claims: &[Claim]) -> String {
        let items = claims
            .iter()
            .map(|c| {
                Value::Object(
                    Object::new()
                        .with("id", c.id.as_str())
                        .with("status", c.status.as_str())
                        .with("statement", &*c.statement)
                        .with("label", Value::from(c.label.as_deref())),
                )
            })
            .collect();
        let mut text = String::new();
        write_value(&mut text, &Value::Array(items), Some(0), Style::ASCII);
        text.push('\n');
        text
    }

    fn rendered(claims: &[Claim]) -> (String, usize) {
        let list = ClaimList {
            claims: claims.iter().collect(),
            focus: None,
        };
        let (mut text, mut pieces) = (String::new(), 0);
        ClaimsJson.render(&list, &mut |piece| {
            text.push_str(piece);
            pieces += 1;
        });
        (text, pieces)
    }

    fn claim(id: &str, statement: &str, status: &str, label: Option<&str>) -> Claim {
        let mut c = Claim::new(id.into(), statement.into());
        c.status = status.into();
        c.label = label.map(Into::into);
        c
    }

    #[test]
    fn written_as_the_value_of_the_list() {
        let claims = [
            claim("clm_1", "x \"quoted\" \\ and\nnew line\t", "proved", None),
            claim(
                "clm_2",
                "π ≈ 3.14 😀 \u{7f} \u{1b}[31m",
                "refuted",
                Some(""),
            ),
            claim("clm_ü", "", "", Some("label \u{0}")),
        ];
        for n in 0..=claims.len() {
            assert_eq!(
                rendered(&claims[..n]).0,
                as_value(&claims[..n]),
                "{n} claims"
            );
        }
        // (many claims: handed on in several pieces, which join to the same text)
        let many: Vec<Claim> = (0..2000)
            .map(|i| claim(&format!("clm_{i}"), &"s".repeat(i % 50), "unverified", None))
            .collect();
        let (text, pieces) = rendered(&many);
        assert!(pieces > 1, "{pieces}");
        assert_eq!(text, as_value(&many));
    }

    proptest! {
        #[test]
        fn any_text_is_written_as_the_value_writes_it(
            statement in any::<String>(),
            status in any::<String>(),
            label in proptest::option::of(any::<String>()),
        ) {
            let claims = [claim("clm_0", &statement, &status, label.as_deref())];
            prop_assert_eq!(rendered(&claims).0, as_value(&claims));
        }
    }
}
