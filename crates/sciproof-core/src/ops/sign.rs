//! `sign`: an OpenSSH signature of the manifest's exact bytes, in `<MANIFEST>.sig`.

use crate::commit::lock::Wait;
use crate::error::Result;
use crate::signing::Passphrase;
use std::path::PathBuf;

/// What to sign, with which key.
pub struct SignRequest<'a> {
    /// The manifest file.
    pub manifest: PathBuf,
    /// The OpenSSH private key.
    pub key: PathBuf,
    /// Asked for the passphrase of an encrypted key.
    pub passphrase: Passphrase<'a>,
    /// What to do when another sciproof is changing this evidence.
    pub wait: Wait<'a>,
}

/// A signature written.
pub struct Signed {
    /// The signature file.
    pub signature: PathBuf,
    /// What was done first about an interrupted operation.
    pub recovered: Vec<String>,
}

/// Signs the manifest (see [`crate::signing::sign_manifest`]).
pub fn sign(request: &SignRequest) -> Result<Signed> {
    let (signature, recovered) = crate::signing::sign_manifest(
        &request.manifest,
        &request.key,
        request.passphrase,
        request.wait,
    )?;
    Ok(Signed {
        signature,
        recovered: recovered.into_iter().collect(),
    })
}
