//! `inspect`: what a manifest records, read after any interrupted operation on it was settled.

use crate::commit::evidence::settle;
use crate::commit::lock::Wait;
use crate::error::Result;
use crate::manifest::Manifest;
use std::path::PathBuf;

/// Which manifest to inspect.
pub struct InspectRequest<'a> {
    /// The manifest file.
    pub manifest: PathBuf,
    /// What to do when another sciproof is changing this evidence.
    pub wait: Wait<'a>,
}

/// A manifest as recorded, and what was done first about an unfinished operation.
pub struct Inspection {
    /// The manifest.
    pub manifest: Manifest,
    /// One line per interrupted operation that was completed or undone first.
    pub recovered: Vec<String>,
}

/// Reads the manifest (never executes anything).
pub fn inspect(request: &InspectRequest) -> Result<Inspection> {
    let recovered = settle(&request.manifest, request.wait)?
        .into_iter()
        .collect();
    let manifest = crate::manifest::load(&request.manifest)?.manifest;
    Ok(Inspection {
        manifest,
        recovered,
    })
}
