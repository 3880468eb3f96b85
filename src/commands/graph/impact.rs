//! `sciproof graph impact`: what dies if this claim is false (every claim that cites it, transitively).

use super::{ListFormat, list};
use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::graph::query::Query;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    id: String,
    #[command(flatten)]
    format: ListFormat,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    list(ui, graph, Query::Impact(args.id), args.format.format)
}
