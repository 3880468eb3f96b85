//! `sciproof graph by-tag`: claims carrying this tag.

use super::{ListFormat, list};
use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::graph::query::Query;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    tag: String,
    #[command(flatten)]
    format: ListFormat,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    list(ui, graph, Query::ByTag(args.tag), args.format.format)
}
