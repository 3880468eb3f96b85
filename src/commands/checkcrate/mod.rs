//! `sciproof crate`: claim-check RO-Crates.

mod read;

use super::Outcome;
use crate::ui::Ui;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Read a claim-check crate (a folder or its ro-crate-metadata.json) into the records it was written from, and list every way it departs from the profile. Exit 0 clean, 1 problems found, 3 not a claim-check crate.
    Read(read::Args),
}

pub fn run(ui: &Ui, command: Command) -> Outcome {
    match command {
        Command::Read(args) => read::run(ui, args),
    }
}
