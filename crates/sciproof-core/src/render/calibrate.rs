//! A calibration ([`Calibration`]): the reference's report, one line per output, then STABLE
//! or VARIES.

use crate::calibrate::Calibration;
use crate::escape::terminal::{safe, safe_text};
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for Calibration {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(CalibrationText),
            _ => return None,
        })
    }
}

/// The report.
pub struct CalibrationText;

impl Renderer<Calibration> for CalibrationText {
    fn render(&self, c: &Calibration, out: &mut Sink) {
        out(&format!(
            "SciProof calibration of '{}' ({} runs of the recorded command, plus the recorded baseline)\n\n",
            safe(&c.name),
            c.runs
        ));
        let wrong: std::collections::BTreeSet<i64> = c
            .exit_codes
            .iter()
            .copied()
            .filter(|code| *code != c.recorded_exit_code)
            .collect();
        if !wrong.is_empty() {
            let codes: Vec<String> = wrong.iter().map(i64::to_string).collect();
            out(&format!(
                "  [DIFFERS] exit code: {} in some runs, recorded {}\n",
                codes.join(", "),
                c.recorded_exit_code
            ));
        }
        for o in &c.outputs {
            out(&format!(
                "  [{}] {} ({}): {}\n",
                if o.ok { "OK" } else { "DIFFERS" },
                safe(&o.path),
                o.mode,
                safe_text(&o.message, 600)
            ));
            if let Some(s) = &o.suggestion {
                out(&format!("           suggestion: {}\n", safe_text(s, 300)));
            }
        }
        out("\n");
        for note in &c.notes {
            out(&format!("  note: {note}\n"));
        }
        out(&format!(
            "\nRESULT: {}\n",
            if c.stable() { "STABLE" } else { "VARIES" }
        ));
    }
}
