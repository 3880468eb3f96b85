//! `graph verify`: every claim with a recipe re-checked and the graph (with its new audit
//! entries) written; then the outcomes handed on.

use super::{Warn, existing, graph_dir, lock, open, save, warn_dropped};
use crate::commit::lock::Wait;
use crate::error::Result;
use crate::graph::recipe::streamed::{Streamed, verify_file};
use crate::graph::recipe::{RecheckOutcome, RecheckSummary, VerifyOptions};
use crate::progress::Progress;
use std::path::PathBuf;

/// How to re-verify.
pub struct GraphVerifyRequest<'a> {
    /// The graph file.
    pub graph: PathBuf,
    /// Absolute tolerance of `numeric_relation` and expression recipes without their own.
    pub tolerance: f64,
    /// The sample points of the expression recipes' numeric rule.
    pub samples: Vec<f64>,
    /// Mark a claim whose re-check failed `refuted`.
    pub mark_refuted: bool,
    /// When (RFC 3339), written into every audit entry.
    pub checked_at: String,
    /// What to do when another sciproof is changing the graph.
    pub wait: Wait<'a>,
    /// Progress while the graph is read and re-checked.
    pub progress: &'a dyn Progress,
    /// Receives what was dropped when reading the graph.
    pub warn: Warn<'a>,
}

/// Re-verifies (see [`crate::graph::ClaimGraph::verify_each`]) and writes the graph; the
/// counts decide the exit code ([`RecheckSummary::status`]). Once the graph is written, the
/// outcomes go to `on_outcomes` in claim order (theirs to keep or free: freeing a million of
/// them takes a noticeable while, which a process about to exit can skip).
pub fn verify(
    request: &GraphVerifyRequest,
    on_outcomes: &mut dyn FnMut(Vec<RecheckOutcome>),
) -> Result<RecheckSummary> {
    let path = &request.graph;
    let _lock = lock(path, "graph verify", request.wait)?;
    existing(path)?;
    let options = VerifyOptions {
        tolerance: request.tolerance,
        samples: request.samples.clone(),
        mark_refuted: request.mark_refuted,
        checked_at: request.checked_at.clone(),
        base: graph_dir(path),
    };
    // A document in the order it is written in (every one sciproof or alkahest writes) is
    // re-verified as it is read; any other is loaded whole and put in order first.
    match verify_file(path, &options, request.progress)? {
        Streamed::Done {
            summary,
            outcomes,
            notes,
            replaced,
        } => {
            // The old document is closed (its cached pages freed) on another core while the
            // outcomes are shown.
            std::thread::scope(|scope| {
                let closing = scope.spawn(move || drop(replaced));
                warn_dropped(path, notes, request.warn);
                on_outcomes(outcomes);
                // (joined, so that the thread has exited, not only finished, on return)
                let _ = closing.join();
            });
            Ok(summary)
        }
        Streamed::NotInOrder => {
            // As on the streamed path, the outcomes are shown once the graph holds their
            // audit entries: a save that fails shows none of them.
            let mut graph = open(path, request.progress, request.warn)?;
            let mut outcomes = Vec::new();
            let summary = graph.verify_each(&options, request.progress, &mut |outcome| {
                outcomes.push(outcome.clone())
            });
            save(&graph, path)?;
            on_outcomes(outcomes);
            Ok(summary)
        }
    }
}
