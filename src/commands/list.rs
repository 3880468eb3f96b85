//! `sciproof list`: the manifests in a folder, newest first, with `--check` their verdicts.

use super::Outcome;
use crate::flags::FormatFlags;
use crate::ui::Ui;
use sciproof_core::ledger::{Ledger, ListRequest};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The folder (default: the current one).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Also list manifests in subfolders (hidden folders, node_modules and target are skipped).
    #[arg(short = 'r', long)]
    recursive: bool,
    /// Verify the integrity of each manifest (in parallel).
    #[arg(long)]
    check: bool,
    #[command(flatten)]
    format: FormatFlags<Ledger>,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let format = args.format.resolve()?;
    let ledger = sciproof_core::ops::list(&ListRequest {
        dir: args.dir,
        recursive: args.recursive,
        check: args.check,
    })?;
    ui.render(&ledger, format);
    Ok(ledger.result().map_or(0, |s| s.exit_code() as u8))
}
