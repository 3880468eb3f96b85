//! `sciproof crate read`: a claim-check crate read back into its records, with its problems.

use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::escape::terminal::safe_text;
use sciproof_core::render::OutputFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The crate folder, or its ro-crate-metadata.json.
    path: PathBuf,
    /// Print the records as JSON Lines instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let read = sciproof_core::ops::read_crate(&args.path)?;
    let format = if args.json {
        OutputFormat::Json
    } else {
        OutputFormat::Text
    };
    ui.render(&read, format);
    for p in &read.problems {
        ui.line(&format!("problem: {}", safe_text(p, 1000)));
    }
    Ok(if read.problems.is_empty() { 0 } else { 1 })
}
