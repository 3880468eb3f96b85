//! `sciproof update`: capture the recorded experiment again and show what changed.

use super::Outcome;
use crate::flags::py_float;
use crate::ui::Ui;
use sciproof_core::render::OutputFormat;
use sciproof_core::update::UpdateRequest;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The manifest file (NAME.sciproof.json).
    manifest: PathBuf,
    /// Do not ask for confirmation.
    #[arg(long)]
    yes: bool,
    /// Print what would run and be replaced, and stop.
    #[arg(long)]
    dry_run: bool,
    /// A new note for the new evidence.
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
    /// Stop the command after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = py_float)]
    timeout: Option<f64>,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    if args.dry_run {
        ui.print(&format!(
            "{}\n",
            sciproof_core::ops::update_plan(&args.manifest)?
        ));
        return Ok(0);
    }
    let progress = ui.progress(true);
    let confirm = |prompt: &str| ui.confirm(prompt);
    let Some(updated) = sciproof_core::ops::update(&UpdateRequest {
        manifest: args.manifest,
        note: args.note,
        timeout: args.timeout,
        confirm: (!args.yes).then_some(&confirm as sciproof_core::consent::Confirm),
        wait: ui.wait(),
        progress: progress.as_ref(),
    })?
    else {
        ui.line("declined; nothing was executed and nothing was changed");
        return Ok(2);
    };
    ui.recovered(&updated.capture.recovered);
    for w in updated.capture.warnings.iter().chain(&updated.warnings) {
        ui.warn(w);
    }
    ui.render(&updated, OutputFormat::Text);
    if updated.capture.manifest.execution.exit_code != 0 {
        ui.line("The command failed; the failure was recorded.");
        return Ok(1);
    }
    Ok(0)
}
