//! `sciproof diff`: what changed between two recorded runs (nothing is executed).

use super::Outcome;
use crate::flags::FormatFlags;
use crate::ui::Ui;
use sciproof_core::diff::Diff;
use sciproof_core::ops::DiffRequest;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The earlier manifest.
    old: PathBuf,
    /// The later manifest.
    new: PathBuf,
    #[command(flatten)]
    format: FormatFlags<Diff>,
    /// Show the values of allow-listed environment variables (hidden by default) and the
    /// difference statistics of each column, key path or array of a numeric output.
    #[arg(long)]
    show_values: bool,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let format = args.format.resolve()?;
    let compared = sciproof_core::ops::diff(&DiffRequest {
        old: args.old,
        new: args.new,
        show_values: args.show_values,
        wait: ui.wait(),
    })?;
    ui.recovered(&compared.recovered);
    ui.render(&compared.diff, format);
    Ok(if compared.diff.identical() { 0 } else { 1 })
}
