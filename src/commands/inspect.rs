//! `sciproof inspect`: what a manifest records (never executes anything).

use super::Outcome;
use crate::ui::Ui;
use sciproof_core::ops::InspectRequest;
use sciproof_core::render::OutputFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The manifest file (NAME.sciproof.json).
    manifest: PathBuf,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let inspection = sciproof_core::ops::inspect(&InspectRequest {
        manifest: args.manifest,
        wait: ui.wait(),
    })?;
    ui.recovered(&inspection.recovered);
    ui.render(&inspection.manifest, OutputFormat::Text);
    Ok(0)
}
