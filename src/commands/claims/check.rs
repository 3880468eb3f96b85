//! `sciproof claims check`: the claims of a manifest evaluated on its recorded outputs.

use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::render::OutputFormat;
use sciproof_core::verify::VerifyRequest;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The manifest file (NAME.sciproof.json).
    manifest: PathBuf,
    /// Print a JSON document (schema sciproof.claims 1.0) instead of the table.
    #[arg(long)]
    json: bool,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let format = if args.json {
        OutputFormat::Json
    } else {
        OutputFormat::Text
    };
    let progress = ui.progress(!args.json);
    let checked = sciproof_core::ops::check_claims(&VerifyRequest {
        wait: ui.wait(),
        ..VerifyRequest::integrity(&args.manifest, progress.as_ref())
    })?;
    ui.render(&checked, format);
    Ok(checked.report.status().exit_code() as u8)
}
