//! `sciproof demo`: the built-in experiment, captured, verified, tampered with and restored.

use super::Outcome;
use crate::ui::Ui;
use sciproof_core::render::OutputFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Folder to create the experiment in (must be new, empty, or made by an earlier demo).
    #[arg(default_value = sciproof_core::demo::DEFAULT_DIR)]
    dir: PathBuf,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let ok = sciproof_core::ops::demo(&args.dir, &mut |step| {
        ui.render(step, OutputFormat::Text);
    })?;
    Ok(if ok { 0 } else { 1 })
}
