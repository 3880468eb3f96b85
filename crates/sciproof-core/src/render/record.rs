//! What `record` found and captured ([`Recorded`]): the reference's summary, then the
//! equivalent `capture` command.

use crate::escape::terminal::{safe, safe_text};
use crate::ops::Recorded;
use crate::render::{OutputFormat, Render, Renderer, Sink};
use crate::trace::Method;

impl Render for Recorded {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(RecordedText),
            _ => return None,
        })
    }
}

/// The summary.
pub struct RecordedText;

impl Renderer<Recorded> for RecordedText {
    fn render(&self, r: &Recorded, out: &mut Sink) {
        let name = r
            .capture
            .manifest_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out(&format!("Evidence written to {}\n", safe(&name)));
        out(&format!("  inputs found:   {}\n", r.inputs.len()));
        out(&format!("  outputs, exact: {}\n", r.exact.len()));
        out(&format!("  outputs, numeric: {}\n", r.numeric.len()));
        for (path, rtol) in &r.tolerances {
            out(&format!(
                "    {}: varies between runs, tolerance rtol={}\n",
                safe(path),
                crate::pyfmt::format_g6(*rtol)
            ));
        }
        for (path, reason) in &r.excluded {
            out(&format!(
                "  NOT declared: {} ({})\n",
                safe(path),
                safe_text(reason, 200)
            ));
        }
        for note in &r.notes {
            out(&format!("  note: {}\n", safe_text(note, 300)));
        }
        out("\nEquivalent command (commit it, or run it again later):\n");
        out(&format!("  {}\n", safe_text(&r.command_line, 4000)));
        out(match r.method {
            Method::Ptrace => {
                "Check the list above: inputs are the files any process of the command read (traced at the system-call level).\n"
            }
            Method::PythonAuditHook => {
                "Check the list above: only files that Python opened are detected as inputs.\n"
            }
        });
        if !r.tolerances.is_empty() {
            out(
                "The tolerances come from two runs; 'sciproof calibrate' measures them with more.\n",
            );
        }
    }
}
