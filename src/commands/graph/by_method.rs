//! `sciproof graph by-method`: claims recorded by this method.

use super::{ListFormat, list};
use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::graph::query::Query;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    method: String,
    #[command(flatten)]
    format: ListFormat,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    list(ui, graph, Query::ByMethod(args.method), args.format.format)
}
