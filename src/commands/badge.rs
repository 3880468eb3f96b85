//! `sciproof badge`: verify, and write an SVG badge of the verdict.

use super::Outcome;
use crate::flags::{RerunFlags, check_timeout};
use crate::ui::Ui;
use sciproof_core::ops::BadgeRequest;
use sciproof_core::render::OutputFormat;
use sciproof_core::verify::VerifyRequest;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The manifest file (NAME.sciproof.json).
    manifest: PathBuf,
    /// Where to write the badge.
    #[arg(
        short = 'o',
        long = "output",
        default_value = "sciproof-badge.svg",
        value_name = "FILE"
    )]
    output: PathBuf,
    #[command(flatten)]
    rerun: RerunFlags,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    check_timeout(args.rerun.timeout)?;
    let confirm = |prompt: &str| ui.confirm(prompt);
    let progress = ui.progress(true);
    let badge = sciproof_core::ops::badge(&BadgeRequest {
        verify: VerifyRequest {
            manifest: args.manifest,
            rerun: args.rerun.options(&confirm, false, Vec::new()),
            policy: None,
            allowed_signers: None,
            progress: progress.as_ref(),
            wait: ui.wait(),
        },
        output: args.output,
        day: sciproof_core::ops::now()[..10].to_string(),
    })?;
    ui.recovered(&badge.recovered);
    if let Some(signal) = badge.interrupted {
        return Err(sciproof_core::Error::Interrupted {
            signal,
            detail: "no badge was written".into(),
        }
        .into());
    }
    ui.render(&badge, OutputFormat::Text);
    Ok(badge.status.exit_code() as u8)
}
