//! What changed between two runs ([`Diff`], `sciproof diff`) in text, JSON (`sciproof.diff`
//! 1.0), Markdown and an HTML page.

use crate::diff::{Diff, SECTIONS};
use crate::escape::markdown::escape;
use crate::escape::terminal::safe_text;
use crate::json::{self, Object, Value};
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for Diff {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(DiffText),
            OutputFormat::Json => Box::new(DiffJson),
            OutputFormat::Markdown => Box::new(DiffMarkdown),
            OutputFormat::Html => Box::new(DiffHtml),
            _ => return None,
        })
    }
}

/// At most this many lines per section in text and Markdown.
const MAX_LINES: usize = 20;

/// The text form: a line per change, by section.
pub struct DiffText;

impl Renderer<Diff> for DiffText {
    fn render(&self, d: &Diff, out: &mut Sink) {
        out(&text(d));
    }
}

fn text(d: &Diff) -> String {
    let mut lines = vec![
        format!(
            "SciProof diff: '{}' -> '{}'",
            safe_text(&d.old_name, 200),
            safe_text(&d.new_name, 200)
        ),
        String::new(),
    ];
    for section in SECTIONS {
        let changes: Vec<_> = d.changes.iter().filter(|c| c.section == section).collect();
        if changes.is_empty() {
            continue;
        }
        let counted = changes.iter().filter(|c| !c.informational).count();
        lines.push(format!("  {section} ({counted})"));
        for c in changes.iter().take(MAX_LINES) {
            lines.push(format!(
                "    {} {}: {}",
                c.kind.symbol(),
                safe_text(&c.subject, 300),
                safe_text(&c.message, 2000)
            ));
        }
        if changes.len() > MAX_LINES {
            lines.push(format!("    ... and {} more", changes.len() - MAX_LINES));
        }
        lines.push(String::new());
    }
    lines.push(format!("summary: {}", d.summary()));
    lines.extend(
        d.notes
            .iter()
            .map(|n| format!("note: {}", safe_text(n, 2000))),
    );
    lines.push(String::new());
    lines.push(format!(
        "RESULT: {}",
        if d.identical() {
            "IDENTICAL"
        } else {
            "DIFFERENT"
        }
    ));
    lines.join("\n") + "\n"
}

/// The JSON form.
fn to_json(d: &Diff) -> Value {
    let mut counts = Object::new();
    for (section, n) in d.counts() {
        counts.insert(section, n);
    }
    let changes: Vec<Value> = d
        .changes
        .iter()
        .map(|c| {
            Object::new()
                .with("section", c.section)
                .with("kind", c.kind.as_str())
                .with("subject", &c.subject)
                .with("message", &c.message)
                .with("informational", c.informational)
                .with("evidence", c.evidence.clone().unwrap_or(Value::Null))
                .into()
        })
        .collect();
    Object::new()
        .with("schema", "sciproof.diff")
        .with("schema_version", "1.0")
        .with(
            "old",
            Object::new()
                .with("name", &d.old_name)
                .with("file", &d.old_file),
        )
        .with(
            "new",
            Object::new()
                .with("name", &d.new_name)
                .with("file", &d.new_file),
        )
        .with("identical", d.identical())
        .with("summary", d.summary())
        .with("counts", counts)
        .with("changes", Value::Array(changes))
        .with(
            "notes",
            Value::Array(d.notes.iter().map(|n| Value::from(n.as_str())).collect()),
        )
        .into()
}

/// `sciproof.diff` 1.0.
pub struct DiffJson;

impl Renderer<Diff> for DiffJson {
    fn render(&self, d: &Diff, out: &mut Sink) {
        out(&json_text(d));
    }
}

fn json_text(d: &Diff) -> String {
    json::to_string_pretty(&to_json(d)) + "\n"
}

/// GitHub-flavoured Markdown: a table per section.
pub struct DiffMarkdown;

impl Renderer<Diff> for DiffMarkdown {
    fn render(&self, d: &Diff, out: &mut Sink) {
        out(&markdown(d));
    }
}

fn markdown(d: &Diff) -> String {
    let verdict = if d.identical() {
        "IDENTICAL"
    } else {
        "DIFFERENT"
    };
    let mut lines = vec![
        format!(
            "## SciProof diff: {verdict}: {} -> {}",
            escape(&d.old_name, 100),
            escape(&d.new_name, 100)
        ),
        String::new(),
        format!("> {}", escape(&d.summary(), 1000)),
    ];
    for section in SECTIONS {
        let changes: Vec<_> = d.changes.iter().filter(|c| c.section == section).collect();
        if changes.is_empty() {
            continue;
        }
        lines.push(String::new());
        lines.push(format!(
            "### {section} ({})",
            changes.iter().filter(|c| !c.informational).count()
        ));
        lines.push(String::new());
        lines.push("| | Subject | Details |".into());
        lines.push("| --- | --- | --- |".into());
        for c in changes.iter().take(MAX_LINES) {
            lines.push(format!(
                "| {} | {} | {} |",
                c.kind.symbol(),
                escape(&c.subject, 300),
                escape(&c.message, 1000)
            ));
        }
        if changes.len() > MAX_LINES {
            lines.push(format!(
                "| | ... and {} more | |",
                changes.len() - MAX_LINES
            ));
        }
    }
    lines.push(String::new());
    lines.push("### Notes".into());
    lines.push(String::new());
    lines.extend(d.notes.iter().map(|n| format!("- {}", escape(n, 1000))));
    lines.join("\n") + "\n"
}

/// A page: IDENTICAL or DIFFERENT first, then every change by section, then the notes.
pub struct DiffHtml;

impl Renderer<Diff> for DiffHtml {
    fn render(&self, d: &Diff, out: &mut Sink) {
        use crate::escape::html::text;
        use crate::render::html as page;
        let word = if d.identical() {
            "IDENTICAL"
        } else {
            "DIFFERENT"
        };
        let names = format!("{} -> {}", d.old_name, d.new_name);
        let mut body = page::banner(word, word, &names);
        body.push_str(&format!(
            "<p class=\"reason\">{}</p>\n",
            text(&d.summary(), 1000)
        ));
        for section in SECTIONS {
            let changes: Vec<_> = d.changes.iter().filter(|c| c.section == section).collect();
            if changes.is_empty() {
                continue;
            }
            body.push_str(&format!(
                "<h2>{section} ({})</h2>\n<table class=\"changes\"><thead><tr><th></th><th>Subject</th><th>Details</th></tr></thead><tbody>\n",
                changes.iter().filter(|c| !c.informational).count()
            ));
            for c in changes {
                body.push_str(&format!(
                    "<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                    text(c.kind.symbol(), 10),
                    text(&c.subject, 300),
                    text(&c.message, 1000)
                ));
            }
            body.push_str("</tbody></table>\n");
        }
        body.push_str(&page::list("Notes", &d.notes));
        out(&page::page(
            &format!("SciProof diff: {word}: {names}"),
            &body,
        ));
    }
}
