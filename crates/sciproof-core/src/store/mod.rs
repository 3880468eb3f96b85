//! Where artifacts live, behind one trait: each store implements [`ArtifactStore`] in its own
//! file and [`STORES`] lists them. The integrity verification asks [`store_of`] for the store
//! of each declared input and output, then the store where the artifact is ([`Location`]) and
//! what is there now ([`State`]).
//!
//! Two stores: object storage ([`object`]: `s3://`, `gs://`, `az://` addresses) and the local
//! disk ([`local`]: every other path). Moving outputs aside for a rerun works on the local disk
//! only; a rerun never overwrites a remote output that has no pinned version to go back to.
//!
//! A new store is one file implementing the trait, one line in [`STORES`], and, if its
//! addresses are not paths, one variant of [`Location`].

pub mod local;
pub mod object;
pub mod object_config;
pub mod object_url;

use crate::manifest::Artifact;
use crate::progress::Progress;
use crate::tree::TreeDiff;
use std::path::{Path, PathBuf};

/// What is at a declared artifact now.
#[derive(Debug, Clone)]
pub struct State {
    /// Whether it is a directory.
    pub directory: bool,
    /// Whether it exists.
    pub exists: bool,
    /// File SHA-256 or tree digest (`None` when absent or unreadable).
    pub digest: Option<String>,
    /// Files in the directory.
    pub files: Option<usize>,
    /// How the directory differs.
    pub diff: Option<TreeDiff>,
    /// Why it could not be checked (a FAIL: something is there that cannot be read).
    pub problem: Option<String>,
    /// Why nothing can be said about it (an INCONCLUSIVE: the store cannot be asked, or the
    /// pinned object is gone).
    pub unavailable: Option<String>,
    /// What else is worth saying (an object overwritten after capture whose pinned version was
    /// read).
    pub note: Option<String>,
}

impl State {
    /// Nothing there.
    pub fn absent(directory: bool) -> State {
        State {
            directory,
            exists: false,
            digest: None,
            files: None,
            diff: None,
            problem: None,
            unavailable: None,
            note: None,
        }
    }

    /// Nothing can be said about it, because of `why`.
    pub fn unavailable(directory: bool, why: String) -> State {
        State {
            unavailable: Some(why),
            ..State::absent(directory)
        }
    }

    /// A file with the digest `digest`.
    pub fn present_file(digest: String) -> State {
        State {
            exists: true,
            digest: Some(digest),
            ..State::absent(false)
        }
    }

    /// A directory of `files` files with the tree digest `digest`, and how it differs from
    /// what was recorded.
    pub fn present_directory(digest: String, files: usize, diff: Option<TreeDiff>) -> State {
        State {
            exists: true,
            digest: Some(digest),
            files: Some(files),
            diff,
            ..State::absent(true)
        }
    }
}

/// Where a store found a declared artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A path on the local disk.
    Path(PathBuf),
    /// An object or prefix in object storage.
    Object(object_url::ObjectUrl),
}

/// A place artifacts live.
pub trait ArtifactStore: Sync {
    /// A short name (`local`).
    fn name(&self) -> &'static str;

    /// Whether a path as a manifest declares it names an artifact of this store.
    fn holds(&self, declared: &str) -> bool;

    /// Where the artifact declared as `declared`, in a manifest in `base`, is; `Err` (the
    /// reason) when the declaration cannot name an artifact of this store (a local path that
    /// leaves the manifest's folder).
    fn locate(&self, base: &Path, declared: &str) -> Result<Location, String>;

    /// What is at `location` now, declared as `artifact` with the recorded digest `recorded`
    /// and, in object storage, the recorded pins `remote` (never executes anything; `label`
    /// names it in progress).
    fn state(
        &self,
        location: &Location,
        artifact: &Artifact,
        recorded: Option<&str>,
        remote: Option<&crate::manifest::Remote>,
        label: &str,
        progress: &dyn Progress,
    ) -> State;
}

/// Every store, the local disk last (it holds every path no other store claims).
pub static STORES: [&dyn ArtifactStore; 2] = [&object::ObjectStorage, &local::LocalDisk];

/// The store of an artifact declared as `declared`.
pub fn store_of(declared: &str) -> &'static dyn ArtifactStore {
    STORES
        .iter()
        .copied()
        .find(|s| s.holds(declared))
        .unwrap_or(&local::LocalDisk)
}
