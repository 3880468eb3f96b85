//! `sciproof graph verify`: every claim with a recipe re-checked, a failed re-check marking its
//! claim refuted; the outcomes are shown once the graph holding them is written.

use super::warn;
use crate::commands::Outcome;
use crate::flags::{py_float, stream_formats};
use crate::ui::Ui;
use sciproof_core::graph::recipe::Reverification;
use sciproof_core::ops::graph::GraphVerifyRequest;
use sciproof_core::render::OutputFormat;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    /// Leave statuses alone (the exit code still says a re-check failed).
    #[arg(long)]
    no_mark_refuted: bool,
    /// Absolute tolerance of numeric_relation and expression recipes without their own.
    #[arg(long, value_name = "X", default_value = "1e-8", value_parser = py_float)]
    tolerance: f64,
    /// Sample points of the expression recipes' numeric rule, comma-separated ('' for none).
    #[arg(long, value_name = "S,S,...", default_value = "0.37,1.23,2.71", value_parser = samples)]
    samples: Samples,
    /// Report format.
    #[arg(long, default_value = "text", value_parser = stream_formats::<Reverification>())]
    format: OutputFormat,
}

/// A list of sample points.
#[derive(Clone)]
struct Samples(Vec<f64>);

fn samples(text: &str) -> Result<Samples, String> {
    if text.trim().is_empty() {
        return Ok(Samples(Vec::new()));
    }
    text.split(',')
        .map(|s| py_float(s.trim()).map_err(|e| format!("sample {:?}: {e}", s.trim())))
        .collect::<Result<_, _>>()
        .map(Samples)
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    let progress = ui.progress(args.format == OutputFormat::Text);
    let checked_at = sciproof_core::ops::now();
    let mut out = None;
    // Outcomes are written once the graph holds them; a failed write (a closed pipe) is
    // reported afterwards, the outcomes being saved in the graph.
    let summary = sciproof_core::ops::graph::verify(
        &GraphVerifyRequest {
            graph: graph.to_path_buf(),
            tolerance: args.tolerance,
            samples: args.samples.0,
            mark_refuted: !args.no_mark_refuted,
            checked_at: checked_at.clone(),
            wait: ui.wait(),
            progress: progress.as_ref(),
            warn: &warn(ui),
        },
        &mut |outcomes| {
            out.get_or_insert_with(|| {
                let mut s = ui.stream::<Reverification>(args.format);
                s.head(&checked_at);
                s
            })
            .items(&outcomes);
            // Not freed: the process ends soon and the system takes the memory back at once,
            // where freeing a million outcomes (allocated on the reader's workers) one by one
            // took a third of a second.
            std::mem::forget(outcomes);
        },
    )?;
    let out = out.unwrap_or_else(|| {
        let mut s = ui.stream::<Reverification>(args.format);
        s.head(&checked_at);
        s
    });
    if let Some(e) = out.finish(&summary) {
        ui.fail_output(&e);
    }
    Ok(summary.status().exit_code() as u8)
}
