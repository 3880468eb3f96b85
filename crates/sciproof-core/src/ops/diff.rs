//! `diff`: what changed between two recorded runs (nothing is executed).

use crate::commit::evidence::settle;
use crate::commit::lock::Wait;
use crate::diff::{Diff, Side, between};
use crate::error::Result;
use std::path::PathBuf;

/// The two manifests to compare.
pub struct DiffRequest<'a> {
    /// The earlier manifest.
    pub old: PathBuf,
    /// The later manifest.
    pub new: PathBuf,
    /// Show the values of allow-listed environment variables (hidden by default) and the
    /// difference statistics of each column, key path or array of a numeric output.
    pub show_values: bool,
    /// What to do when another sciproof is changing either evidence.
    pub wait: Wait<'a>,
}

/// The comparison, and what was done first about unfinished operations on either manifest.
pub struct Compared {
    /// What changed.
    pub diff: Diff,
    /// One line per interrupted operation that was completed or undone first.
    pub recovered: Vec<String>,
}

/// Settles both manifests, reads each once, and compares them.
pub fn diff(request: &DiffRequest) -> Result<Compared> {
    let mut recovered = Vec::new();
    for path in [&request.old, &request.new] {
        recovered.extend(settle(path, request.wait)?);
    }
    let old = crate::manifest::load(&request.old)?;
    let new = crate::manifest::load(&request.new)?;
    let diff = between(Side::of(&old), Side::of(&new), request.show_values);
    Ok(Compared { diff, recovered })
}
