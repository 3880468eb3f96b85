//! `sciproof graph merge`: another claim graph merged into this one; a claim already here
//! keeps its status.

use super::warn;
use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::ops::graph::MergeRequest;
use sciproof_core::render::OutputFormat;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The other graph document.
    other: PathBuf,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    let progress = ui.progress(true);
    let merged = sciproof_core::ops::graph::merge(&MergeRequest {
        graph: graph.to_path_buf(),
        other: args.other,
        wait: ui.wait(),
        progress: progress.as_ref(),
        warn: &warn(ui),
    })?;
    ui.render(&merged, OutputFormat::Text);
    Ok(0)
}
