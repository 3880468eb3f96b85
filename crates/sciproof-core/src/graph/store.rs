//! The graph itself: claims in insertion order, an index by ID, and the add/merge rules that
//! keep it acyclic by construction (spec §3.1).

use super::claim::Claim;
use super::error::GraphError;
use crate::json::{Compact, Object};

/// The positions of a claim's dependencies in its graph: up to four kept inline, as nearly
/// every claim has (a million claims need no million small allocations).
pub(super) type Positions = smallvec::SmallVec<[u32; 4]>;

/// A directed acyclic graph of claims. Edges point from a claim to the claims it depends on,
/// and always at claims already present, so no sequence of [`ClaimGraph::add`] calls can
/// build a cycle.
#[derive(Debug, Clone, Default)]
pub struct ClaimGraph {
    /// The document's title.
    pub title: Option<String>,
    /// Free-form metadata (written as given, keys sorted).
    pub metadata: Object,
    pub(super) claims: Vec<Claim>,
    pub(super) index: super::index::IdIndex,
    /// `deps[i]`: the positions of claim `i`'s dependencies (parallel to `depends_on`).
    pub(super) deps: Vec<Positions>,
}

impl ClaimGraph {
    /// An empty graph.
    pub fn new(title: Option<String>) -> ClaimGraph {
        ClaimGraph {
            title,
            ..ClaimGraph::default()
        }
    }

    /// Number of claims.
    pub fn len(&self) -> usize {
        self.claims.len()
    }

    /// Whether the graph has no claims.
    pub fn is_empty(&self) -> bool {
        self.claims.is_empty()
    }

    /// Claims in insertion order.
    pub fn claims(&self) -> &[Claim] {
        &self.claims
    }

    /// The claim with this exact ID.
    pub fn get(&self, id: &str) -> Option<&Claim> {
        self.index.get(id).map(|i| &self.claims[i as usize])
    }

    /// Whether the ID is in the graph.
    pub fn contains(&self, id: &str) -> bool {
        self.index.contains(id)
    }

    pub(super) fn position(&self, id: &str) -> Result<usize, GraphError> {
        self.index
            .get(id)
            .map(|i| i as usize)
            .ok_or_else(|| GraphError::Unknown(id.to_string()))
    }

    /// The one claim ID that starts with `prefix` (an exact ID always wins).
    pub fn resolve(&self, prefix: &str) -> Result<&str, GraphError> {
        if let Some(c) = self.get(prefix) {
            return Ok(&c.id);
        }
        let mut found = self
            .claims
            .iter()
            .filter(|c| c.id.starts_with(prefix) && !prefix.is_empty());
        match (found.next(), found.next()) {
            (Some(c), None) => Ok(&c.id),
            (None, _) => Err(GraphError::Unknown(prefix.to_string())),
            (Some(a), Some(b)) => {
                let count = 2 + found.count();
                Err(GraphError::Ambiguous {
                    prefix: prefix.to_string(),
                    count,
                    examples: format!("{}, {}{}", a.id, b.id, if count > 2 { ", …" } else { "" }),
                })
            }
        }
    }

    /// Adds a claim, or merges it into the stored claim with the same ID (spec §3.1).
    ///
    /// Guarantees: every dependency is already in the graph (else `MissingDependency`); a merge
    /// edge that would close a cycle is refused (`CycleEdge`); a merge keeps the stored status,
    /// evidence, verification, derivation and every other field, and only gains the new edges,
    /// tags and audit entries, and the recipe when it had none. Returns the stored claim.
    pub fn add(&mut self, mut claim: Claim) -> Result<&Claim, GraphError> {
        let mut deps: Vec<super::claim::ClaimId> = Vec::with_capacity(claim.depends_on.len());
        for d in std::mem::take(&mut claim.depends_on) {
            if d != claim.id && !deps.contains(&d) {
                deps.push(d);
            }
        }
        let mut positions = Positions::with_capacity(deps.len());
        for d in &deps {
            match self.index.get(d) {
                Some(p) => positions.push(p),
                None => {
                    return Err(GraphError::MissingDependency {
                        claim: claim.id.to_string(),
                        missing: d.to_string(),
                    });
                }
            }
        }
        let Some(at) = self.index.get(&claim.id) else {
            claim.depends_on = deps;
            let at = self.claims.len() as u32;
            self.index.insert(&claim.id, at);
            self.claims.push(claim);
            self.deps.push(positions);
            return Ok(&self.claims[at as usize]);
        };
        let at = at as usize;
        for (d, &p) in deps.iter().zip(&positions) {
            if self.claims[at].depends_on.contains(d) {
                continue;
            }
            if self.reaches(p as usize, at) {
                return Err(GraphError::CycleEdge {
                    claim: claim.id.to_string(),
                    dependency: d.to_string(),
                });
            }
        }
        let stored = &mut self.claims[at];
        for (d, p) in deps.into_iter().zip(positions) {
            if !stored.depends_on.contains(&d) {
                stored.depends_on.push(d);
                self.deps[at].push(p);
            }
        }
        let mut tags = std::mem::take(&mut stored.tags).into_vec();
        for t in claim.tags {
            if !tags.contains(&t) {
                tags.push(t);
            }
        }
        stored.tags = tags.into();
        if stored.check.as_ref().is_none_or(Compact::is_empty) {
            stored.check = claim.check.filter(|c| !c.is_empty());
        }
        stored.audit.extend(claim.audit);
        Ok(&self.claims[at])
    }

    /// A new graph with this graph's claims and then `other`'s, each through [`ClaimGraph::add`]'s
    /// merge rules (spec §3.1: a claim already present keeps its status and gains only edges,
    /// tags, audit entries, and a recipe it had none of); the title is this graph's, the
    /// metadata this graph's updated by `other`'s.
    pub fn merge(&self, other: &ClaimGraph) -> Result<ClaimGraph, GraphError> {
        let mut merged = ClaimGraph::new(self.title.clone());
        merged.metadata = self.metadata.clone();
        for (key, value) in other.metadata.iter() {
            merged.metadata.insert(key, value.clone());
        }
        for claim in self
            .topological_order()
            .into_iter()
            .chain(other.topological_order())
        {
            merged.add(claim.clone())?;
        }
        Ok(merged)
    }

    /// Whether `target` is among the transitive dependencies of `from` (or is `from`).
    fn reaches(&self, from: usize, target: usize) -> bool {
        let mut seen = vec![false; self.claims.len()];
        let mut stack = vec![from];
        while let Some(i) = stack.pop() {
            if i == target {
                return true;
            }
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            stack.extend(self.deps[i].iter().map(|&p| p as usize));
        }
        false
    }

    /// Lowers a claim to `refuted` (the only change of status this graph makes after
    /// recording). Returns whether the status changed.
    pub fn mark_refuted(&mut self, id: &str) -> Result<bool, GraphError> {
        let at = self.position(id)?;
        let claim = &mut self.claims[at];
        if claim.status == super::claim::REFUTED {
            return Ok(false);
        }
        claim.status = super::claim::REFUTED.into();
        Ok(true)
    }

    /// Appends an audit entry to a claim.
    pub fn push_audit(&mut self, id: &str, entry: Object) -> Result<(), GraphError> {
        let at = self.position(id)?;
        self.claims[at].audit.push(Compact::from_object(&entry));
        Ok(())
    }
}
