//! `graph add-run`: verified runs (integrity only) added with their claims and lineage.

use super::{Warn, graph_dir, lock, open_or_new, save};
use crate::commit::lock::Wait;
use crate::error::Result;
use crate::graph::view::AddedRuns;
use crate::progress::Progress;
use std::path::PathBuf;

/// The manifests to add, in order.
pub struct AddRunRequest<'a> {
    /// The graph file (created when missing).
    pub graph: PathBuf,
    /// The manifests.
    pub manifests: Vec<PathBuf>,
    /// The title of a graph this creates.
    pub title: Option<String>,
    /// When (RFC 3339), written into the new claims.
    pub recorded_at: String,
    /// What to do when another sciproof is changing the graph.
    pub wait: Wait<'a>,
    /// Progress while a large graph is read.
    pub progress: &'a dyn Progress,
    /// Receives what was dropped when reading the graph.
    pub warn: Warn<'a>,
}

/// Adds each run (see [`crate::graph::ClaimGraph::add_run`]) and writes the graph once, after
/// all were added.
pub fn add_run(request: &AddRunRequest) -> Result<AddedRuns> {
    let path = &request.graph;
    let _lock = lock(path, "graph add-run", request.wait)?;
    let mut graph = open_or_new(path, request.title.clone(), request.progress, request.warn)?;
    let dir = graph_dir(path);
    let mut runs = Vec::with_capacity(request.manifests.len());
    for manifest in &request.manifests {
        let added = graph.add_run(manifest, &dir, &request.recorded_at)?;
        runs.push((manifest.clone(), added));
    }
    save(&graph, path)?;
    Ok(AddedRuns { graph, runs })
}
