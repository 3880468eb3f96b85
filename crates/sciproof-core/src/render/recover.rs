//! What `recover` did ([`Recovered`]): a line per thing done, or that there was nothing to do.

use crate::escape::terminal::safe_text;
use crate::ops::Recovered;
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for Recovered {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(RecoveredText),
            _ => return None,
        })
    }
}

/// One line per operation completed or undone, file or lock removed.
pub struct RecoveredText;

impl Renderer<Recovered> for RecoveredText {
    fn render(&self, r: &Recovered, out: &mut Sink) {
        if r.done.is_empty() {
            out(&format!(
                "nothing to recover in {}\n",
                safe_text(&r.dir.display().to_string(), 500)
            ));
        }
        for line in &r.done {
            out(&format!("{}\n", safe_text(line, 2000)));
        }
    }
}
