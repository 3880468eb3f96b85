//! `graph merge`: another graph merged into this one; a claim already here keeps its status.

use super::{Warn, lock, open, open_or_new, save};
use crate::commit::lock::Wait;
use crate::error::Result;
use crate::escape::terminal::safe_text;
use crate::graph::error::GraphFileError;
use crate::graph::view::Merged;
use crate::progress::Progress;
use std::path::PathBuf;

/// The graphs to merge.
pub struct MergeRequest<'a> {
    /// This graph's file (created when missing).
    pub graph: PathBuf,
    /// The other graph's file.
    pub other: PathBuf,
    /// What to do when another sciproof is changing this graph.
    pub wait: Wait<'a>,
    /// Progress while a large graph is read.
    pub progress: &'a dyn Progress,
    /// Receives what was dropped when reading either graph.
    pub warn: Warn<'a>,
}

/// Merges (see [`crate::graph::ClaimGraph::merge`]) and writes the result.
pub fn merge(request: &MergeRequest) -> Result<Merged> {
    let path = &request.graph;
    let _lock = lock(path, "graph merge", request.wait)?;
    let graph = open_or_new(path, None, request.progress, request.warn)?;
    let theirs = open(&request.other, request.progress, request.warn)?;
    let before = graph.len();
    let merged = graph
        .merge(&theirs)
        .map_err(|source| GraphFileError::Merge {
            shown: safe_text(&request.other.display().to_string(), 500),
            source,
        })?;
    save(&merged, path)?;
    Ok(Merged {
        other: request.other.clone(),
        theirs: theirs.len(),
        new: merged.len() - before,
    })
}
