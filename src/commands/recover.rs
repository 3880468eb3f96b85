//! `sciproof recover`: finish or undo what an interrupted sciproof left in a folder.

use super::Outcome;
use crate::ui::Ui;
use sciproof_core::ops::RecoverRequest;
use sciproof_core::render::OutputFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The folder (default: the current one).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Also look in subfolders (links are not followed; .git is skipped).
    #[arg(short = 'r', long)]
    recursive: bool,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let recovered = sciproof_core::ops::recover(&RecoverRequest {
        dir: args.dir,
        recursive: args.recursive,
        wait: ui.wait(),
    })?;
    ui.render(&recovered, OutputFormat::Text);
    Ok(0)
}
