//! What the claim-graph commands show, as models for [`crate::render::graph`]: the graph as a
//! document, a list of claims, the summary, two graphs compared, runs added.

use super::compare::GraphDiff;
use super::lineage::AddedRun;
use super::{Claim, ClaimGraph};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The graph as a document (`graph show`), and which parts of it.
#[derive(Debug, Clone, Copy)]
pub struct GraphView<'g> {
    /// The graph.
    pub graph: &'g ClaimGraph,
    /// Derivation tables (Markdown, LaTeX).
    pub derivations: bool,
    /// A standalone LaTeX `article` (else the body only).
    pub standalone: bool,
    /// JSON: the stable form (no timestamps).
    pub stable: bool,
}

/// Claims answering a query, in the query's order.
#[derive(Debug, Clone)]
pub struct ClaimList<'g> {
    /// The claims.
    pub claims: Vec<&'g Claim>,
    /// The claim the query is about (`impact ID`, `ancestors ID`, ...), which pictures draw
    /// highlighted; `None` for queries about the whole graph.
    pub focus: Option<&'g Claim>,
}

/// Claims per status, the machine-checkable fraction, and the digest.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphSummary {
    /// Claims per status, sorted by status.
    pub by_status: BTreeMap<String, usize>,
    /// All claims.
    pub claims: usize,
    /// Claims a checker checked.
    pub machine_checkable: usize,
    /// SHA-256 of the stable form.
    pub digest: String,
}

impl GraphSummary {
    /// The summary of `graph`.
    pub fn of(graph: &ClaimGraph) -> GraphSummary {
        GraphSummary {
            by_status: graph.summary(),
            claims: graph.len(),
            machine_checkable: graph.machine_checkable().len(),
            digest: graph.digest(),
        }
    }
}

/// Two graphs compared (`graph diff`): the differences, and both graphs to describe them.
#[derive(Debug, Clone)]
pub struct GraphComparison<'g> {
    /// What differs.
    pub diff: GraphDiff,
    /// The earlier graph.
    pub old: &'g ClaimGraph,
    /// The later graph.
    pub new: &'g ClaimGraph,
}

/// Runs added to a graph (`graph add-run`), each with its manifest, in the order added.
#[derive(Debug, Clone)]
pub struct AddedRuns {
    /// The graph after adding them.
    pub graph: ClaimGraph,
    /// Each manifest and what it added.
    pub runs: Vec<(PathBuf, AddedRun)>,
}

/// A claim graph merged into another (`graph merge`).
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The other graph's file, as given.
    pub other: PathBuf,
    /// Claims in the other graph.
    pub theirs: usize,
    /// Of those, claims that were new here.
    pub new: usize,
}
