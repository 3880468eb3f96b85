//! Questions a graph answers (spec §4). Results come in insertion order, except
//! [`ClaimGraph::topological_order`], which is a real topological order.

use super::claim::Claim;
use super::error::GraphError;
use super::store::ClaimGraph;
use std::collections::BTreeMap;

/// A question about the claims of a graph, as the `graph` subcommands ask it. Claims are named
/// by their ID or a unique prefix of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    /// What dies if this claim is false: every claim that cites it, transitively.
    Impact(String),
    /// What this claim rests on, transitively.
    Ancestors(String),
    /// The claims that cite this one directly.
    Dependents(String),
    /// The claims this one depends on directly, in its own order.
    Dependencies(String),
    /// Claims with exactly this status.
    ByStatus(String),
    /// Claims carrying this tag.
    ByTag(String),
    /// Claims recorded by this method.
    ByMethod(String),
    /// Claims a checker checked.
    MachineCheckable,
    /// Every claim, each after all of its dependencies.
    TopologicalOrder,
    /// Claims that depend on nothing.
    Roots,
    /// Claims nothing depends on.
    Leaves,
}

impl Query {
    /// The claim ID (or unique prefix) the query is about, if it is about one claim.
    pub fn subject(&self) -> Option<&str> {
        match self {
            Query::Impact(id)
            | Query::Ancestors(id)
            | Query::Dependents(id)
            | Query::Dependencies(id) => Some(id),
            _ => None,
        }
    }
}

impl ClaimGraph {
    /// The claims answering `query`, in its order; an ID prefix that names no claim, or more
    /// than one, is an error.
    pub fn answer(&self, query: &Query) -> Result<Vec<&Claim>, GraphError> {
        Ok(match query {
            Query::Impact(id) => self.impact(self.resolve(id)?)?,
            Query::Ancestors(id) => self.ancestors(self.resolve(id)?)?,
            Query::Dependents(id) => self.dependents(self.resolve(id)?)?,
            Query::Dependencies(id) => self.dependencies(self.resolve(id)?)?,
            Query::ByStatus(status) => self.by_status(status),
            Query::ByTag(tag) => self.by_tag(tag),
            Query::ByMethod(method) => self.by_method(method),
            Query::MachineCheckable => self.machine_checkable(),
            Query::TopologicalOrder => self.topological_order(),
            Query::Roots => self.roots(),
            Query::Leaves => self.leaves(),
        })
    }

    fn in_order(&self, mask: &[bool]) -> Vec<&Claim> {
        self.claims
            .iter()
            .zip(mask)
            .filter(|(_, m)| **m)
            .map(|(c, _)| c)
            .collect()
    }

    /// Claims whose status is exactly `status`.
    pub fn by_status(&self, status: &str) -> Vec<&Claim> {
        self.claims.iter().filter(|c| c.status == status).collect()
    }

    /// Claims carrying `tag`.
    pub fn by_tag(&self, tag: &str) -> Vec<&Claim> {
        self.claims
            .iter()
            .filter(|c| c.tags.iter().any(|t| t == tag))
            .collect()
    }

    /// Claims recorded by `method`.
    pub fn by_method(&self, method: &str) -> Vec<&Claim> {
        self.claims.iter().filter(|c| c.method == method).collect()
    }

    /// Claims a checker checked (`exactly_verified`, `lean_checked`).
    pub fn machine_checkable(&self) -> Vec<&Claim> {
        self.claims.iter().filter(|c| c.machine_checked()).collect()
    }

    /// The direct dependencies, in the claim's own order.
    pub fn dependencies(&self, id: &str) -> Result<Vec<&Claim>, GraphError> {
        let at = self.position(id)?;
        Ok(self.deps[at]
            .iter()
            .map(|&p| &self.claims[p as usize])
            .collect())
    }

    /// The claims that cite this one directly.
    pub fn dependents(&self, id: &str) -> Result<Vec<&Claim>, GraphError> {
        let at = self.position(id)? as u32;
        Ok(self
            .claims
            .iter()
            .zip(&self.deps)
            .filter(|(_, d)| d.contains(&at))
            .map(|(c, _)| c)
            .collect())
    }

    /// Everything the claim rests on, transitively (without the claim itself).
    pub fn ancestors(&self, id: &str) -> Result<Vec<&Claim>, GraphError> {
        let at = self.position(id)?;
        let mut mask = vec![false; self.claims.len()];
        let mut stack: Vec<usize> = self.deps[at].iter().map(|&p| p as usize).collect();
        while let Some(i) = stack.pop() {
            if !std::mem::replace(&mut mask[i], true) {
                stack.extend(self.deps[i].iter().map(|&p| p as usize));
            }
        }
        Ok(self.in_order(&mask))
    }

    /// What dies if this claim is false: every claim that cites it, transitively.
    pub fn impact(&self, id: &str) -> Result<Vec<&Claim>, GraphError> {
        let at = self.position(id)?;
        let dependents = Dependents::of(&self.deps);
        let mut mask = vec![false; self.claims.len()];
        let mut stack: Vec<u32> = dependents.citing(at).to_vec();
        while let Some(i) = stack.pop() {
            if !std::mem::replace(&mut mask[i as usize], true) {
                stack.extend_from_slice(dependents.citing(i as usize));
            }
        }
        Ok(self.in_order(&mask))
    }

    /// Claims that depend on nothing.
    pub fn roots(&self) -> Vec<&Claim> {
        self.claims
            .iter()
            .zip(&self.deps)
            .filter(|(_, d)| d.is_empty())
            .map(|(c, _)| c)
            .collect()
    }

    /// Claims nothing depends on.
    pub fn leaves(&self) -> Vec<&Claim> {
        let mut cited = vec![false; self.claims.len()];
        for deps in &self.deps {
            for &d in deps {
                cited[d as usize] = true;
            }
        }
        let mask: Vec<bool> = cited.iter().map(|c| !c).collect();
        self.in_order(&mask)
    }

    /// Count per status present, sorted by status name.
    pub fn summary(&self) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for c in &self.claims {
            *out.entry(c.status.to_string()).or_insert(0) += 1;
        }
        out
    }

    /// A topological order: every claim after all of its dependencies.
    ///
    /// It is the reference loader's rule applied to insertion order: repeated passes in
    /// insertion order, each placing every claim whose dependencies are placed (earlier in the
    /// same pass included). So it equals insertion order whenever insertion order is already
    /// topological, it is what the reference produces when it loads a document we write, and a
    /// save/load round trip leaves it (and the bytes, and the digest) unchanged. Computed in
    /// linear time: a claim's pass is the largest pass of its dependencies, plus one for a
    /// dependency that comes later in insertion order.
    pub fn topological_order(&self) -> Vec<&Claim> {
        self.topological_positions()
            .into_iter()
            .map(|p| &self.claims[p])
            .collect()
    }

    /// The claim at `position` (insertion order, from 0).
    ///
    /// # Panics
    /// If `position` is not below [`ClaimGraph::len`].
    pub fn claim_at(&self, position: usize) -> &Claim {
        &self.claims[position]
    }

    /// For each claim position, the positions of the claims that cite it, in insertion order.
    pub fn dependents_by_position(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.len()];
        for (i, deps) in self.deps.iter().enumerate() {
            for &d in deps {
                out[d as usize].push(i);
            }
        }
        out
    }

    /// The positions of all claims, each after all of its dependencies (see
    /// [`ClaimGraph::topological_order`]).
    pub fn topological_positions(&self) -> Vec<usize> {
        let n = self.claims.len();
        if self
            .deps
            .iter()
            .enumerate()
            .all(|(i, d)| d.iter().all(|&p| (p as usize) < i))
        {
            return (0..n).collect();
        }
        let pass = passes(&self.deps).expect("a graph built by add() has no cycle");
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (pass[i], i));
        order
    }
}

/// For each claim, the positions of the claims that cite it directly, in order: two flat lists
/// (a list per claim took a million allocations, and their growth, at a million claims).
struct Dependents {
    /// Claim `i`'s are `citing[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    citing: Vec<u32>,
}

impl Dependents {
    /// The dependents of every claim of `deps` (`deps[i]`: the positions claim `i` cites).
    fn of<D: AsRef<[u32]>>(deps: &[D]) -> Dependents {
        let n = deps.len();
        let mut starts = vec![0u32; n + 1];
        for &d in deps.iter().flat_map(AsRef::as_ref) {
            starts[d as usize + 1] += 1;
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut next = starts.clone();
        let mut citing = vec![0u32; starts[n] as usize];
        for (i, d) in deps.iter().enumerate() {
            for &p in d.as_ref() {
                citing[next[p as usize] as usize] = i as u32;
                next[p as usize] += 1;
            }
        }
        Dependents { starts, citing }
    }

    /// The positions of the claims that cite claim `i` directly, in increasing order.
    fn citing(&self, i: usize) -> &[u32] {
        &self.citing[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// The pass number of every node under the reference loader's rule, or the nodes left over by
/// a cycle. `deps[i]` lists positions, each below `deps.len()`.
pub(super) fn passes<D: AsRef<[u32]>>(deps: &[D]) -> Result<Vec<u32>, Vec<usize>> {
    let n = deps.len();
    let mut pass = vec![0u32; n];
    // Kahn's algorithm over the dependency edges computes each pass after its dependencies'.
    let mut remaining: Vec<u32> = deps.iter().map(|d| d.as_ref().len() as u32).collect();
    let dependents = Dependents::of(deps);
    let mut ready: Vec<usize> = (0..n).filter(|&i| remaining[i] == 0).collect();
    let mut done = 0;
    while let Some(i) = ready.pop() {
        done += 1;
        let p = deps[i]
            .as_ref()
            .iter()
            .map(|&d| pass[d as usize] + u32::from(d as usize > i))
            .max()
            .unwrap_or(0)
            .max(1);
        pass[i] = p;
        for &j in dependents.citing(i) {
            remaining[j as usize] -= 1;
            if remaining[j as usize] == 0 {
                ready.push(j as usize);
            }
        }
    }
    if done < n {
        return Err((0..n).filter(|&i| remaining[i] > 0).collect());
    }
    Ok(pass)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference loader's rule, literally (quadratic), to test the linear version against.
    fn passes_literally(deps: &[Vec<u32>]) -> Vec<usize> {
        let mut placed = vec![false; deps.len()];
        let mut order = Vec::new();
        while order.len() < deps.len() {
            let before = order.len();
            for i in 0..deps.len() {
                if !placed[i] && deps[i].iter().all(|&d| placed[d as usize]) {
                    placed[i] = true;
                    order.push(i);
                }
            }
            assert!(order.len() > before);
        }
        order
    }

    proptest::proptest! {
        #[test]
        fn linear_passes_match_the_reference_rule(edges in proptest::collection::vec((0u32..12, 0u32..12), 0..30)) {
            // Random DAG over a random permutation: edges go from higher rank to lower rank.
            let n = 12usize;
            let rank: Vec<u32> = (0..n as u32).map(|i| (i * 7) % 12).collect();
            let mut deps = vec![Vec::new(); n];
            for (a, b) in edges {
                if rank[a as usize] > rank[b as usize] && !deps[a as usize].contains(&b) {
                    deps[a as usize].push(b);
                }
            }
            let pass = passes(&deps).unwrap();
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| (pass[i], i));
            proptest::prop_assert_eq!(order, passes_literally(&deps));
        }

        /// The flat lists of dependents hold what a list per claim, filled in claim order,
        /// holds.
        #[test]
        fn dependents_are_the_claims_citing_each(
            deps in proptest::collection::vec(proptest::collection::vec(0u32..10, 0..4), 10)
        ) {
            let mut naive = vec![Vec::new(); deps.len()];
            for (i, d) in deps.iter().enumerate() {
                for &p in d {
                    naive[p as usize].push(i as u32);
                }
            }
            let flat = Dependents::of(&deps);
            for (i, expected) in naive.iter().enumerate() {
                proptest::prop_assert_eq!(flat.citing(i), expected.as_slice());
            }
        }
    }

    #[test]
    fn cycle_leaves_nodes() {
        let deps = vec![vec![1], vec![0], vec![]];
        assert_eq!(passes(&deps).unwrap_err(), vec![0, 1]);
    }
}
