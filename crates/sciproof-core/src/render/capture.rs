//! What a capture wrote ([`CaptureResult`]): the summary `sciproof capture` prints.

use crate::capture::CaptureResult;
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for CaptureResult {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(CaptureSummary),
            _ => return None,
        })
    }
}

/// The manifest's name, the command's exit code, the counts of inputs and outputs, and what
/// to know before sharing the manifest.
pub struct CaptureSummary;

impl Renderer<CaptureResult> for CaptureSummary {
    fn render(&self, captured: &CaptureResult, out: &mut Sink) {
        let m = &captured.manifest;
        let name = captured
            .manifest_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out(&format!("Evidence written to {name}\n"));
        out(&format!("  command exit code: {}\n", m.execution.exit_code));
        out(&format!("  inputs recorded:   {}\n", m.inputs.len()));
        out(&format!("  outputs recorded:  {}\n", m.outputs.len()));
        out(
            "Note: stdout/stderr are stored in the manifest; check them for secrets before sharing it.\n",
        );
        if m.claims.iter().any(|c| c.needs_this_tool()) {
            out(
                "Note: this manifest has claims that only this sciproof reads (printed-precision claims, or claims on .tsv, .npy or .npz outputs); sciproof 0.4.1 (Python) refuses it as invalid rather than misreading it.\n",
            );
        }
    }
}
