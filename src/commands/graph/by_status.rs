//! `sciproof graph by-status`: claims with exactly this status.

use super::{ListFormat, list};
use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::graph::query::Query;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    status: String,
    #[command(flatten)]
    format: ListFormat,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    list(ui, graph, Query::ByStatus(args.status), args.format.format)
}
