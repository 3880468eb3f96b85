//! `sciproof sign`: an OpenSSH signature of a manifest, in `<MANIFEST>.sig`.

use super::Outcome;
use crate::ui::Ui;
use sciproof_core::ops::SignRequest;
use sciproof_core::render::OutputFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The manifest file (NAME.sciproof.json).
    manifest: PathBuf,
    /// The OpenSSH private key (Ed25519, ECDSA or RSA; an encrypted key asks for its passphrase).
    #[arg(long, value_name = "KEY")]
    key: PathBuf,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let passphrase = |key: &std::path::Path| ui.passphrase(key);
    let signed = sciproof_core::ops::sign(&SignRequest {
        manifest: args.manifest,
        key: args.key,
        passphrase: &passphrase,
        wait: ui.wait(),
    })?;
    ui.recovered(&signed.recovered);
    ui.render(&signed, OutputFormat::Text);
    Ok(0)
}
