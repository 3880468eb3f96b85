//! The local disk: artifacts are paths relative to the manifest's folder (never outside it).
//! A file is its SHA-256, a directory its tree digest over every file below it.

use super::{ArtifactStore, Location, State};
use crate::hash::sha256_file;
use crate::manifest::Artifact;
use crate::paths::resolve_inside;
use crate::progress::Progress;
use crate::tree::{MAX_TREE_FILES, TreeDiff, scan_tree, tree_digest};
use std::path::Path;

/// The local file system.
pub struct LocalDisk;

impl ArtifactStore for LocalDisk {
    fn name(&self) -> &'static str {
        "local"
    }
    /// Every declared path no other store claims.
    fn holds(&self, _declared: &str) -> bool {
        true
    }
    fn locate(&self, base: &Path, declared: &str) -> Result<Location, String> {
        resolve_inside(base, declared)
            .map(Location::Path)
            .map_err(|e| e.to_string())
    }
    fn state(
        &self,
        location: &Location,
        artifact: &Artifact,
        recorded: Option<&str>,
        _remote: Option<&crate::manifest::Remote>,
        label: &str,
        progress: &dyn Progress,
    ) -> State {
        match location {
            Location::Path(path) => state(path, artifact, recorded, label, progress),
            Location::Object(url) => State::unavailable(
                artifact.is_directory(),
                format!("{url} is not on the local disk"),
            ),
        }
    }
}

/// The SHA-256 of the file at `path`, with progress labelled `label`.
pub fn file_digest(path: &Path, label: &str, progress: &dyn Progress) -> Result<String, String> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    progress.begin(label, size, crate::progress::Unit::Bytes);
    let result = sha256_file(path, progress);
    progress.finish();
    result
        .map(|(d, _)| d)
        .map_err(|e| crate::error::strerror(&e))
}

/// The state of the file or directory at `path`, declared as `artifact` with the recorded digest `recorded`. A file
/// entry whose path is now a directory (or the reverse) counts as absent; special files (FIFOs,
/// devices) are never opened and count as absent too.
pub fn state(
    path: &Path,
    artifact: &Artifact,
    recorded: Option<&str>,
    label: &str,
    progress: &dyn Progress,
) -> State {
    match artifact {
        Artifact::File => {
            let exists = std::fs::metadata(path).is_ok_and(|m| m.is_file());
            if !exists {
                return State::absent(false);
            }
            match file_digest(path, label, progress) {
                Ok(d) => State::present_file(d),
                Err(e) => State {
                    exists: true,
                    problem: Some(format!("cannot read it: {e}")),
                    ..State::absent(false)
                },
            }
        }
        Artifact::Directory { files, .. } => {
            if !std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
                return State::absent(true);
            }
            match scan_tree(path, MAX_TREE_FILES, progress) {
                Err(e) => State {
                    exists: true,
                    problem: Some(e.0),
                    ..State::absent(true)
                },
                Ok(entries) => {
                    let digest = tree_digest(&entries);
                    let diff = (Some(digest.as_str()) != recorded)
                        .then(|| TreeDiff::between(files, &entries));
                    State::present_directory(digest, entries.len(), diff)
                }
            }
        }
    }
}
