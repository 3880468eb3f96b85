//! Why a graph operation was refused.

use thiserror::Error;

/// A refusal from the claim graph. The graph is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GraphError {
    /// A dependency or a queried ID is not in the graph.
    #[error("claim '{claim}' depends on '{missing}', which is not in this graph")]
    MissingDependency {
        /// The claim.
        claim: String,
        /// The ID it depends on.
        missing: String,
    },
    /// A query named an ID that is not in the graph.
    #[error("no claim '{0}' in this graph")]
    Unknown(String),
    /// A prefix matches more than one claim.
    #[error("'{prefix}' is ambiguous: it starts {count} claim IDs ({examples}); give more digits")]
    Ambiguous {
        /// The prefix given.
        prefix: String,
        /// How many IDs it starts.
        count: usize,
        /// A few of them.
        examples: String,
    },
    /// A merge edge would close a cycle.
    #[error(
        "claim '{claim}' cannot depend on '{dependency}': '{dependency}' already depends on it, so the edge would close a cycle"
    )]
    CycleEdge {
        /// The claim that would gain the edge.
        claim: String,
        /// The dependency that already depends on it.
        dependency: String,
    },
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
    /// The document has problems (each with its place; the first 50 are spelled out, one a
    /// line).
    #[error("{}", problem_list(.0))]
    Invalid(Vec<String>),
    /// A re-verification recipe given to record a claim is not one.
    #[error("{0}")]
    Recipe(String),
}

/// Why a claim-graph file cannot be used.
#[derive(Debug, Error)]
pub enum GraphFileError {
    /// There is no file.
    #[error("no claim graph at {}: create one with `sciproof graph add-run`, `graph record` or `graph conjecture`, or name another with --graph FILE", .0.display())]
    Missing(std::path::PathBuf),
    /// The file cannot be read (not a regular file, an I/O error).
    #[error("{0}")]
    Unreadable(String),
    /// The file is larger than a claim graph may be.
    #[error("claim graph {} is larger than {limit} bytes, the limit for a claim graph", .path.display())]
    TooLarge {
        /// The file.
        path: std::path::PathBuf,
        /// The limit.
        limit: u64,
    },
    /// The file is not a valid claim graph.
    #[error("while reading claim graph {}: {source}", .path.display())]
    Invalid {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong with it.
        #[source]
        source: GraphError,
    },
    /// Another graph cannot be merged into this one.
    #[error("{shown}: {source}")]
    Merge {
        /// The other graph's file, as shown (terminal-safe).
        shown: String,
        /// Why.
        #[source]
        source: GraphError,
    },
}

/// How many problems a message spells out.
const PROBLEMS_SHOWN: usize = 50;

/// `N problems in the claim graph:` and one line per problem (terminal-safe: a problem that
/// quotes the document cannot start a line of its own), at most [`PROBLEMS_SHOWN`].
fn problem_list(problems: &[String]) -> String {
    let mut text = format!(
        "{} problem{} in the claim graph:",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    for p in problems.iter().take(PROBLEMS_SHOWN) {
        text.push_str("\n  - ");
        text.push_str(&crate::escape::terminal::safe_text(p, 1000));
    }
    if problems.len() > PROBLEMS_SHOWN {
        text.push_str(&format!(
            "\n  ... and {} more",
            problems.len() - PROBLEMS_SHOWN
        ));
    }
    text
}
