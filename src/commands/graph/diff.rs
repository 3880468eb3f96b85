//! `sciproof graph diff`: claims added, removed, re-linked or with another status.

use super::{done_with, open};
use crate::commands::Outcome;
use crate::flags::formats;
use crate::ui::Ui;
use sciproof_core::graph::view::GraphComparison;
use sciproof_core::render::OutputFormat;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    old: PathBuf,
    new: PathBuf,
    #[arg(long, default_value = "text", value_parser = formats::<GraphComparison<'static>>())]
    format: OutputFormat,
}

pub fn run(ui: &Ui, _graph: &Path, args: Args) -> Outcome {
    let old = open(ui, &args.old)?;
    let new = open(ui, &args.new)?;
    let comparison = GraphComparison {
        diff: sciproof_core::graph::compare::diff(&old, &new),
        old: &old,
        new: &new,
    };
    ui.render(&comparison, args.format);
    let differ = !comparison.diff.is_empty();
    done_with(old);
    done_with(new);
    Ok(if differ { 1 } else { 0 })
}
