//! What changed between two graphs: claims added, removed, and whose status changed.

use super::store::ClaimGraph;

/// A claim present in both graphs with another status.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusChange {
    /// The claim.
    pub id: String,
    /// Its status in the earlier graph.
    pub old: String,
    /// Its status in the later graph.
    pub new: String,
}

/// The differences, each list in the order of the graph it comes from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GraphDiff {
    /// IDs only in the new graph.
    pub added: Vec<String>,
    /// IDs only in the old graph.
    pub removed: Vec<String>,
    /// Claims in both with another status.
    pub status_changed: Vec<StatusChange>,
    /// IDs in both whose dependencies differ.
    pub edges_changed: Vec<String>,
}

impl GraphDiff {
    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.status_changed.is_empty()
            && self.edges_changed.is_empty()
    }
}

/// Compares `old` with `new` by claim ID.
pub fn diff(old: &ClaimGraph, new: &ClaimGraph) -> GraphDiff {
    let mut out = GraphDiff::default();
    for c in new.claims() {
        match old.get(&c.id) {
            None => out.added.push(c.id.to_string()),
            Some(before) => {
                if before.status != c.status {
                    out.status_changed.push(StatusChange {
                        id: c.id.to_string(),
                        old: before.status.to_string(),
                        new: c.status.to_string(),
                    });
                }
                let mut a = before.depends_on.clone();
                let mut b = c.depends_on.clone();
                a.sort();
                b.sort();
                if a != b {
                    out.edges_changed.push(c.id.to_string());
                }
            }
        }
    }
    out.removed = old
        .claims()
        .iter()
        .filter(|c| !new.contains(&c.id))
        .map(|c| c.id.to_string())
        .collect();
    out
}
