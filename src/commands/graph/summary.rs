//! `sciproof graph summary`: claims per status and the machine-checkable fraction.

use super::{done_with, open};
use crate::commands::Outcome;
use crate::flags::formats;
use crate::ui::Ui;
use sciproof_core::graph::view::GraphSummary;
use sciproof_core::render::OutputFormat;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value = "text", value_parser = formats::<GraphSummary>())]
    format: OutputFormat,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    let graph = open(ui, graph)?;
    ui.render(&GraphSummary::of(&graph), args.format);
    done_with(graph);
    Ok(0)
}
