//! `sciproof graph add-run`: verified runs added to the graph with their claims and lineage.

use super::warn;
use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::ops::graph::AddRunRequest;
use sciproof_core::render::OutputFormat;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Manifests (NAME.sciproof.json), added in this order.
    #[arg(required = true)]
    manifests: Vec<PathBuf>,
    /// Title of the graph when this creates it.
    #[arg(long, value_name = "TITLE")]
    title: Option<String>,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    let progress = ui.progress(true);
    let added = sciproof_core::ops::graph::add_run(&AddRunRequest {
        graph: graph.to_path_buf(),
        manifests: args.manifests,
        title: args.title,
        recorded_at: sciproof_core::ops::now(),
        wait: ui.wait(),
        progress: progress.as_ref(),
        warn: &warn(ui),
    })?;
    // What was added is shown only once the document is written.
    ui.render(&added, OutputFormat::Text);
    Ok(0)
}
