//! The claim-graph operations: each takes the graph's file, holds its lock from before the
//! read to after the write when it changes the graph (so two writers never lose each other's
//! claims), and returns a model of [`crate::graph::view`].

mod add_run;
mod merge;
mod record;
mod verify;

pub use add_run::{AddRunRequest, add_run};
pub use merge::{MergeRequest, merge};
pub use record::{NewClaim, RecordRequest, record};
pub use verify::{GraphVerifyRequest, verify};

use crate::commit::lock::{Lock, Wait};
use crate::error::Result;
use crate::graph::ClaimGraph;
use crate::graph::error::GraphFileError;
use crate::progress::Progress;
use std::path::{Path, PathBuf};

/// Where a graph operation reports what a document held that was dropped on reading
/// (unknown keys): one warning, already prefixed with the file.
pub type Warn<'a> = &'a dyn Fn(&str);

/// Reads the graph at `path`, with progress on large documents; what was dropped goes to
/// `warn`. A missing file is refused with how to create one.
pub fn open(path: &Path, progress: &dyn Progress, warn: Warn) -> Result<ClaimGraph> {
    existing(path)?;
    let (graph, notes) = ClaimGraph::load_with_progress(path, progress)?;
    warn_dropped(path, notes, warn);
    Ok(graph)
}

/// The digest of the graph at `path` ([`ClaimGraph::digest`]): read as a stream when the
/// document is in the order its graph is written in (every saved graph is), so the graph is
/// never held in memory; otherwise loaded whole. What was dropped goes to `warn`.
pub fn digest(path: &Path, progress: &dyn Progress, warn: Warn) -> Result<String> {
    existing(path)?;
    match crate::graph::streamed_digest::digest_file(path, progress)? {
        Some((digest, notes)) => {
            warn_dropped(path, notes, warn);
            Ok(digest)
        }
        None => Ok(open(path, progress, warn)?.digest()),
    }
}

/// Refuses a graph that does not exist, with how to create one.
fn existing(path: &Path) -> Result<()> {
    if path.exists() {
        Ok(())
    } else {
        Err(GraphFileError::Missing(path.to_path_buf()).into())
    }
}

/// Tells `warn` what reading the graph at `path` dropped.
fn warn_dropped(path: &Path, notes: crate::graph::LoadNotes, warn: Warn) {
    for w in notes.warnings {
        warn(&format!(
            "{}: {}",
            path.display(),
            crate::escape::terminal::safe_text(&w, 500)
        ));
    }
}

/// [`open`], or a new empty graph (written by sciproof) if the file does not exist.
fn open_or_new(
    path: &Path,
    title: Option<String>,
    progress: &dyn Progress,
    warn: Warn,
) -> Result<ClaimGraph> {
    if path.exists() {
        return open(path, progress, warn);
    }
    let mut graph = ClaimGraph::new(title);
    graph.metadata.insert("generator", "sciproof");
    Ok(graph)
}

/// The folder relative paths in a graph are resolved against: the graph file's.
fn graph_dir(path: &Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Takes the lock of the graph document at `path` for `what`, which changes it.
fn lock(path: &Path, what: &str, wait: Wait) -> Result<Lock> {
    crate::commit::lock::lock(path, what, wait)
}

/// Writes the graph atomically.
fn save(graph: &ClaimGraph, path: &Path) -> Result<()> {
    graph.save(path, false)
}
