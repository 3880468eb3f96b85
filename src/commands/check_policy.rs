//! `sciproof check-policy`: validate a policy file and list its rules.

use super::Outcome;
use crate::ui::Ui;
use sciproof_core::render::OutputFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The policy file (TOML).
    policy: PathBuf,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let policy = sciproof_core::ops::check_policy(&args.policy)?;
    ui.render(&policy, OutputFormat::Text);
    Ok(0)
}
