//! `recover`: finish or undo what an interrupted sciproof left in a folder.

use crate::commit::lock::Wait;
use crate::error::Result;
use std::path::PathBuf;

/// Where to recover.
pub struct RecoverRequest<'a> {
    /// The folder.
    pub dir: PathBuf,
    /// Also subfolders (links are not followed; `.git` is skipped).
    pub recursive: bool,
    /// What to do when another sciproof is still working there.
    pub wait: Wait<'a>,
}

/// What was done.
pub struct Recovered {
    /// The folder.
    pub dir: PathBuf,
    /// One line per operation completed or undone, temporary file or stale lock removed.
    pub done: Vec<String>,
}

/// Settles every interrupted operation (see [`crate::commit::evidence::recover_folder`]).
pub fn recover(request: &RecoverRequest) -> Result<Recovered> {
    let done =
        crate::commit::evidence::recover_folder(&request.dir, request.recursive, request.wait)?;
    Ok(Recovered {
        dir: request.dir.clone(),
        done,
    })
}
