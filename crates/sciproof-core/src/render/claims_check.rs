//! The claims table of `sciproof claims check`: claim, found, verdict; and its JSON form.

use crate::escape::terminal::safe_text;
use crate::json::{self, Object, Value};
use crate::render::{OutputFormat, Render, Renderer, Sink};
use crate::report::{ClaimsCheck, Evidence, Report};

impl Render for ClaimsCheck {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(ClaimsTable),
            OutputFormat::Json => Box::new(ClaimsJson),
            _ => return None,
        })
    }
}

fn found_of(evidence: Option<&Evidence>) -> Option<Value> {
    match evidence {
        Some(Evidence::Claim {
            found: Some(found), ..
        }) => Some(found.clone().unwrap_or(Value::Null)),
        _ => None,
    }
}

fn found_text(evidence: Option<&Evidence>) -> String {
    match evidence {
        Some(Evidence::Claim {
            found: Some(Some(v)),
            ..
        }) => json::to_string_compact(v),
        Some(Evidence::Claim {
            found: Some(None), ..
        }) => "(absent)".into(),
        _ => "(not judged)".into(),
    }
}

/// A table for people: one line per claim.
pub struct ClaimsTable;

impl Renderer<ClaimsCheck> for ClaimsTable {
    fn render(&self, model: &ClaimsCheck, out: &mut Sink) {
        out(&ClaimsTable::text(&model.report));
    }
}

impl ClaimsTable {
    fn text(report: &Report) -> String {
        let rows: Vec<(String, String, &str)> = report
            .checks
            .iter()
            .map(|c| {
                let claim = c.subject.strip_prefix("claim ").unwrap_or(&c.subject);
                (
                    safe_text(claim, 120),
                    safe_text(&found_text(c.evidence.as_ref()), 40),
                    c.status.as_str(),
                )
            })
            .collect();
        if rows.is_empty() {
            return format!(
                "{}: no claims recorded\nRESULT: {}\n",
                safe_text(&report.name, 200),
                report.status().as_str()
            );
        }
        let width = |f: &dyn Fn(&(String, String, &str)) -> usize, title: usize| {
            rows.iter().map(f).max().unwrap_or(0).max(title)
        };
        let (w1, w2) = (
            width(&|r| r.0.chars().count(), 5),
            width(&|r| r.1.chars().count(), 5),
        );
        let mut out = format!("{:<w1$}  {:<w2$}  VERDICT\n", "CLAIM", "FOUND");
        for (claim, found, status) in &rows {
            out.push_str(&format!("{claim:<w1$}  {found:<w2$}  {status}\n"));
        }
        for c in report
            .checks
            .iter()
            .filter(|c| c.status != crate::report::Status::Pass)
        {
            out.push_str(&format!(
                "\n{}: {}",
                safe_text(&c.subject, 200),
                safe_text(&c.message, 2000)
            ));
        }
        out.push('\n');
        for item in report.not_checked() {
            out.push_str(&format!("\nnot checked: {item}"));
        }
        out.push_str(&format!("\nRESULT: {}\n", report.status().as_str()));
        out
    }
}

/// `{"schema": "sciproof.claims", "schema_version": "1.0", "name", "result", "claims": [...]}`
/// with each claim's text, status, found value (null when absent), presence, message and
/// evidence.
pub struct ClaimsJson;

impl Renderer<ClaimsCheck> for ClaimsJson {
    fn render(&self, model: &ClaimsCheck, out: &mut Sink) {
        out(&ClaimsJson::text(&model.report));
    }
}

impl ClaimsJson {
    fn text(report: &Report) -> String {
        let claims: Vec<Value> = report
            .checks
            .iter()
            .map(|c| {
                let found = found_of(c.evidence.as_ref());
                Object::new()
                    .with(
                        "claim",
                        c.subject.strip_prefix("claim ").unwrap_or(&c.subject),
                    )
                    .with("status", c.status.as_str())
                    .with("judged", found.is_some())
                    .with("found", found.unwrap_or(Value::Null))
                    .with("message", &c.message)
                    .with(
                        "evidence",
                        c.evidence
                            .as_ref()
                            .map(Evidence::to_json)
                            .unwrap_or(Value::Null),
                    )
                    .into()
            })
            .collect();
        let doc = Object::new()
            .with("schema", "sciproof.claims")
            .with("schema_version", "1.0")
            .with("name", &report.name)
            .with("result", report.status().as_str())
            .with("claims", Value::Array(claims))
            .with(
                "not_checked",
                Value::Array(report.not_checked().into_iter().map(Value::from).collect()),
            );
        let mut text = json::to_string_pretty(&doc.into());
        text.push('\n');
        text
    }
}
