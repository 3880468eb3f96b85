//! `sciproof graph digest`: the SHA-256 of the graph's stable form.

use super::open;
use crate::commands::Outcome;
use crate::ui::Ui;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(ui: &Ui, graph: &Path, _args: Args) -> Outcome {
    let digest = open(ui, graph)?.digest();
    ui.print(&format!("{digest}\n"));
    Ok(0)
}
