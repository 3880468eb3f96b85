//! The manifests of a folder ([`Ledger`], `sciproof list`) in text, JSON (`sciproof.list`
//! 1.0), Markdown and JUnit XML.

use crate::escape::markdown::escape;
use crate::escape::terminal::safe_text;
use crate::escape::xml::attr;
use crate::json::{self, Object, Value};
use crate::ledger::Ledger;
use crate::render::{OutputFormat, Render, Renderer, Sink};
use crate::report::Status;

impl Render for Ledger {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(LedgerText),
            OutputFormat::Json => Box::new(LedgerJson),
            OutputFormat::Markdown => Box::new(LedgerMarkdown),
            OutputFormat::Junit => Box::new(LedgerJunit),
            OutputFormat::Html => Box::new(LedgerHtml),
            _ => return None,
        })
    }
}

/// One line per manifest, then the summary.
pub struct LedgerText;

impl Renderer<Ledger> for LedgerText {
    fn render(&self, ledger: &Ledger, out: &mut Sink) {
        out(&LedgerText::text(ledger));
    }
}

impl LedgerText {
    fn text(ledger: &Ledger) -> String {
        let entries = &ledger.entries;
        if entries.is_empty() {
            return "no manifests found\n".into();
        }
        let mut lines = Vec::new();
        for e in entries {
            let file = safe_text(&e.file, 300);
            if let Some(error) = &e.error {
                lines.push(format!("  {file}  INVALID: {error}"));
                continue;
            }
            let mut line = format!(
                "  {file}  captured {}  exit {}  in {}  out {}  claims {}",
                safe_text(e.created_at.as_deref().unwrap_or(""), 60),
                e.exit_code.unwrap_or(0),
                e.inputs.unwrap_or(0),
                e.outputs.unwrap_or(0),
                e.claims.unwrap_or(0)
            );
            if e.signed {
                line.push_str("  signed");
            }
            if let Some(commit) = &e.commit {
                line.push_str(&format!(
                    "  git {}{}",
                    safe_text(commit, 12),
                    if e.dirty == Some(true) { "+dirty" } else { "" }
                ));
            }
            if let Some(v) = e.verdict {
                line.push_str(&format!("  {}", v.as_str()));
            }
            if let Some(note) = &e.note {
                line.push_str(&format!("  note: {}", safe_text(note, 40)));
            }
            lines.push(line);
        }
        lines.push(String::new());
        lines.push(format!("summary: {}", ledger.summary()));
        lines.join("\n") + "\n"
    }
}

/// `sciproof.list` 1.0; `result` is null without `--check`.
pub struct LedgerJson;

impl Renderer<Ledger> for LedgerJson {
    fn render(&self, ledger: &Ledger, out: &mut Sink) {
        out(&LedgerJson::text(ledger));
    }
}

impl LedgerJson {
    fn text(ledger: &Ledger) -> String {
        let entries = &ledger.entries;
        let items: Vec<Value> = entries
            .iter()
            .map(|e| {
                Object::new()
                    .with("file", &e.file)
                    .with("name", e.name.clone())
                    .with("created_at", e.created_at.clone())
                    .with("exit_code", e.exit_code)
                    .with("commit", e.commit.clone())
                    .with("dirty", e.dirty)
                    .with("inputs", e.inputs)
                    .with("outputs", e.outputs)
                    .with("claims", e.claims)
                    .with("note", e.note.clone())
                    .with("signed", e.signed)
                    .with("verdict", e.verdict.map(|v| v.as_str()))
                    .with("error", e.error.clone())
                    .into()
            })
            .collect();
        let doc = Object::new()
            .with("schema", "sciproof.list")
            .with("schema_version", "1.0")
            .with("checked", ledger.checked)
            .with("summary", ledger.summary())
            .with("result", ledger.result().map(|s| s.as_str()))
            .with("manifests", Value::Array(items));
        json::to_string_pretty(&doc.into()) + "\n"
    }
}

/// A table, one row per manifest.
pub struct LedgerMarkdown;

impl Renderer<Ledger> for LedgerMarkdown {
    fn render(&self, ledger: &Ledger, out: &mut Sink) {
        out(&LedgerMarkdown::text(ledger));
    }
}

impl LedgerMarkdown {
    fn text(ledger: &Ledger) -> String {
        let entries = &ledger.entries;
        let mut lines = vec![
            "## SciProof manifests".to_string(),
            String::new(),
            format!("> {}", escape(&ledger.summary(), 1000)),
            String::new(),
        ];
        lines.push("| File | Name | Captured | Exit | Git | Signed | Result |".into());
        lines.push("| --- | --- | --- | --- | --- | --- | --- |".into());
        for e in entries {
            if let Some(error) = &e.error {
                lines.push(format!(
                    "| {} | | | | | | INVALID: {} |",
                    escape(&e.file, 300),
                    escape(error, 300)
                ));
                continue;
            }
            let git = e.commit.as_ref().map_or("-".to_string(), |c| {
                format!(
                    "{}{}",
                    escape(c, 12),
                    if e.dirty == Some(true) {
                        " (dirty)"
                    } else {
                        ""
                    }
                )
            });
            lines.push(format!(
                "| {} | {} | {} | {} | {git} | {} | {} |",
                escape(&e.file, 300),
                escape(e.name.as_deref().unwrap_or(""), 100),
                escape(e.created_at.as_deref().unwrap_or(""), 60),
                e.exit_code.unwrap_or(0),
                if e.signed { "yes" } else { "no" },
                e.verdict.map_or("-", |v| v.as_str())
            ));
        }
        lines.join("\n") + "\n"
    }
}

/// A page: the overall verdict (with `--check`), then one row per manifest with its verdict.
pub struct LedgerHtml;

impl Renderer<Ledger> for LedgerHtml {
    fn render(&self, ledger: &Ledger, out: &mut Sink) {
        use crate::escape::html::text;
        use crate::render::html as page;
        let mut body = match ledger.result() {
            Some(status) => page::verdict(status, &ledger.summary()),
            None => format!("<h1>{}</h1>\n", text(&ledger.summary(), 200)),
        };
        body.push_str("<table class=\"manifests\"><thead><tr><th>File</th><th>Name</th><th>Captured</th><th>Exit</th><th>Git</th><th>Signed</th><th>Result</th></tr></thead><tbody>\n");
        for e in &ledger.entries {
            if let Some(error) = &e.error {
                body.push_str(&format!(
                    "<tr><td>{}</td><td colspan=\"5\"></td><td class=\"FAIL\">INVALID: {}</td></tr>\n",
                    text(&e.file, 300),
                    text(error, 300)
                ));
                continue;
            }
            let git = e.commit.as_ref().map_or("-".to_string(), |c| {
                format!(
                    "{}{}",
                    text(c, 12),
                    if e.dirty == Some(true) {
                        " (dirty)"
                    } else {
                        ""
                    }
                )
            });
            let (class, word) = e.verdict.map_or(("", "-"), |v| (v.as_str(), v.as_str()));
            body.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{git}</td><td>{}</td><td class=\"{class}\">{word}</td></tr>\n",
                text(&e.file, 300),
                text(e.name.as_deref().unwrap_or(""), 100),
                text(e.created_at.as_deref().unwrap_or(""), 60),
                e.exit_code.unwrap_or(0),
                if e.signed { "yes" } else { "no" },
            ));
        }
        body.push_str("</tbody></table>\n");
        out(&page::page(
            &format!("SciProof manifests: {}", ledger.summary()),
            &body,
        ));
    }
}

/// One testcase per manifest.
pub struct LedgerJunit;

impl Renderer<Ledger> for LedgerJunit {
    fn render(&self, ledger: &Ledger, out: &mut Sink) {
        out(&LedgerJunit::text(ledger));
    }
}

impl LedgerJunit {
    fn text(ledger: &Ledger) -> String {
        let entries = &ledger.entries;
        let failures = ledger.failures();
        let skipped = ledger.inconclusive();
        let mut x = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"sciproof:list\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"0\">\n",
            entries.len()
        );
        for e in entries {
            let open = format!(
                "    <testcase classname=\"sciproof.manifest\" name=\"{}\" time=\"0\"",
                attr(&e.file, 300)
            );
            if let Some(error) = &e.error {
                x.push_str(&format!("{open}>\n      <failure message=\"invalid manifest: {}\" type=\"INVALID\" />\n    </testcase>\n", attr(error, 500)));
            } else if e.verdict == Some(Status::Fail) {
                x.push_str(&format!("{open}>\n      <failure message=\"verification failed\" type=\"FAIL\" />\n    </testcase>\n"));
            } else if e.verdict == Some(Status::Inconclusive) {
                x.push_str(&format!("{open}>\n      <skipped message=\"INCONCLUSIVE: some evidence could not be checked\" />\n    </testcase>\n"));
            } else {
                x.push_str(&format!("{open} />\n"));
            }
        }
        x.push_str("  </testsuite>\n</testsuites>\n");
        x
    }
}
