//! A claim-check crate read back ([`ReadCrate`], `sciproof crate read`): a table of its records
//! for people, or the records as JSON Lines. Its problems are the command's to report (stderr).

use crate::checkcrate::read::ReadCrate;
use crate::checkcrate::{CheckRecord, to_json_lines};
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for ReadCrate {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(CrateTable),
            OutputFormat::Json => Box::new(CrateJsonLines),
            _ => return None,
        })
    }
}

/// A table for people: claim, phase (assertion name), outcome as read, the value found, and the
/// validity of the file read.
pub struct CrateTable;

impl Renderer<ReadCrate> for CrateTable {
    fn render(&self, read: &ReadCrate, out: &mut Sink) {
        out(&table(&read.records));
    }
}

/// The records as JSON Lines (one compact object per line), as `export --format check-records`
/// writes them.
pub struct CrateJsonLines;

impl Renderer<ReadCrate> for CrateJsonLines {
    fn render(&self, read: &ReadCrate, out: &mut Sink) {
        out(&to_json_lines(&read.records));
    }
}

/// `text` made safe for a terminal and cut to `width` characters (with `…`).
fn clip(text: &str, width: usize) -> String {
    let safe = crate::escape::terminal::safe(text);
    if safe.chars().count() <= width {
        safe
    } else {
        safe.chars().take(width - 1).chain(['…']).collect()
    }
}

fn table(records: &[CheckRecord]) -> String {
    let rows: Vec<[String; 5]> = records
        .iter()
        .map(|r| {
            let read = r.reads.first();
            [
                clip(&format!("{} {}", r.claim_id, r.claim_text), 60),
                r.assertion_name.clone(),
                r.read_outcome().to_string(),
                clip(read.and_then(|f| f.stored.as_deref()).unwrap_or("-"), 24),
                read.and_then(|f| f.validity.clone())
                    .unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let header = ["claim", "phase", "outcome", "found", "file validity"];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[&str]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(&header);
    for row in &rows {
        out.push_str(&line(&row.each_ref().map(String::as_str)));
    }
    out
}
