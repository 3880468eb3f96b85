//! `sciproof claims`: the claims of a manifest.

mod check;

use super::Outcome;
use crate::ui::Ui;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Evaluate only the claims on the recorded outputs and print claim, found value, verdict.
    Check(check::Args),
}

pub fn run(ui: &Ui, command: Command) -> Outcome {
    match command {
        Command::Check(args) => check::run(ui, args),
    }
}
