//! `sciproof calibrate`: run the recorded command several times and measure how much its
//! outputs vary (EXECUTES the command N times).

use super::Outcome;
use crate::flags::py_float;
use crate::ui::Ui;
use sciproof_core::calibrate::CalibrateRequest;
use sciproof_core::render::OutputFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The manifest file (NAME.sciproof.json).
    manifest: PathBuf,
    /// How many times to run the command (2 to 50).
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Do not ask for confirmation.
    #[arg(long)]
    yes: bool,
    /// Stop each run after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = py_float)]
    timeout: Option<f64>,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    if !(sciproof_core::calibrate::MIN_RUNS..=sciproof_core::calibrate::MAX_RUNS)
        .contains(&args.runs)
    {
        return crate::error::usage("--runs must be between 2 and 50");
    }
    if let Some(t) = args.timeout {
        crate::flags::check_timeout(t)?;
    }
    let progress = ui.progress(true);
    let confirm = |prompt: &str| ui.confirm(prompt);
    let Some(calibration) = sciproof_core::ops::calibrate(&CalibrateRequest {
        manifest: args.manifest,
        runs: args.runs,
        timeout: args.timeout,
        confirm: (!args.yes).then_some(&confirm as sciproof_core::consent::Confirm),
        wait: ui.wait(),
        progress: progress.as_ref(),
    })?
    else {
        ui.line("declined; nothing was executed");
        return Ok(2);
    };
    ui.render(&calibration, OutputFormat::Text);
    Ok(if calibration.stable() { 0 } else { 1 })
}
