//! `sciproof man`: manual pages (roff), generated from the same definitions as `--help`.

use super::{Cli, Outcome};
use crate::error::CliError;
use crate::ui::Ui;
use clap::CommandFactory;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Write one page per command into DIR (sciproof.1, sciproof-verify.1,
    /// sciproof-graph-verify.1, ...), replacing pages of the same names; without it, print
    /// sciproof.1. Install: `sciproof man --out ~/.local/share/man/man1`.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let mut root = Cli::command();
    root.build();
    let Some(dir) = args.out else {
        ui.print(&String::from_utf8_lossy(&page(&root)?));
        return Ok(0);
    };
    if !dir.is_dir() {
        return Err(CliError::Usage(format!(
            "--out {}: not a folder (create it first)",
            dir.display()
        )));
    }
    let mut pages = Vec::new();
    collect(&root, "sciproof", &mut pages);
    for (name, command) in pages {
        let path = dir.join(format!("{name}.1"));
        sciproof_core::commit::atomic::write_file(&path, &page(&command)?)?;
        ui.print(&format!("{}\n", path.display()));
    }
    Ok(0)
}

/// `command` and every subcommand below it, named as `man` finds them (`sciproof-graph-verify`).
fn collect(command: &clap::Command, name: &str, out: &mut Vec<(String, clap::Command)>) {
    out.push((name.to_string(), command.clone().name(name.to_string())));
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        collect(sub, &format!("{name}-{}", sub.get_name()), out);
    }
}

fn page(command: &clap::Command) -> Result<Vec<u8>, CliError> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut roff)
        .map_err(|e| CliError::Usage(format!("cannot render the manual page: {e}")))?;
    Ok(roff)
}
