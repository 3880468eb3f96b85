//! `sciproof completions SHELL`: the shell completion script, on standard output.

use super::{Cli, Outcome};
use crate::ui::Ui;
use clap::CommandFactory;

#[derive(clap::Args)]
pub struct Args {
    /// The shell (install: bash `sciproof completions bash > ~/.local/share/bash-completion/completions/sciproof`,
    /// zsh into a folder of $fpath as `_sciproof`, fish into ~/.config/fish/completions/sciproof.fish).
    shell: clap_complete::Shell,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "sciproof", &mut script);
    ui.print(&String::from_utf8_lossy(&script));
    Ok(0)
}
