//! Why a graph operation was refused.

use thiserror::Error;

/// A refusal from the claim graph. The graph is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GraphError {
    /// A dependency or a queried ID is not in the graph.
    #[error("claim '{claim}' depends on '{missing}', which is not in this graph")]
    MissingDependency { claim: String, missing: String },
    /// A query named an ID that is not in the graph.
    #[error("no claim '{0}' in this graph")]
    Unknown(String),
    /// A prefix matches more than one claim.
    #[error("'{prefix}' is ambiguous: it starts {count} claim IDs ({examples}); give more digits")]
    Ambiguous {
        prefix: String,
        count: usize,
        examples: String,
    },
    /// A merge edge would close a cycle.
    #[error(
        "claim '{claim}' cannot depend on '{dependency}': '{dependency}' already depends on it, so the edge would close a cycle"
    )]
    CycleEdge { claim: String, dependency: String },
    /// A loaded document has a dependency cycle.
    #[error("claim graph contains a dependency cycle involving: {0}")]
    Cycle(String),
    /// The document is not a claim graph.
    #[error("not an Alkahest claim graph (kind={0})")]
    NotAGraph(String),
    /// The document was written by a newer schema.
    #[error(
        "claim-graph schema v{0} is newer than this build supports (v1); upgrade sciproof to read it"
    )]
    NewerSchema(String),
    /// The document is not valid JSON.
    #[error("not valid JSON: {0}")]
    Json(String),
    /// The document has problems (every one is listed, with its place).
    #[error("{} problem{} in the claim graph:\n  - {}", .0.len(), if .0.len() == 1 { "" } else { "s" }, .0.join("\n  - "))]
    Invalid(Vec<String>),
}
