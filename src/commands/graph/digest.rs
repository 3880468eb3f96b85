//! `sciproof graph digest`: the SHA-256 of the graph's stable form.

use super::warn;
use crate::commands::Outcome;
use crate::ui::Ui;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(ui: &Ui, graph: &Path, _args: Args) -> Outcome {
    let progress = ui.progress(true);
    let digest = sciproof_core::ops::graph::digest(graph, progress.as_ref(), &warn(ui))?;
    ui.print(&format!("{digest}\n"));
    Ok(0)
}
