//! Recording claims (spec §3.3, §3.4) under the honesty invariant: nothing recorded here can
//! carry a higher status than the evidence it was recorded from.

use super::claim::{self, Claim};
use super::error::GraphError;
use super::id::{canon, canon_hypotheses, claim_id};
use super::store::ClaimGraph;
use crate::json::{Compact, Object, Value};

/// What a checked result said about itself, when a statement is recorded from one.
#[derive(Debug, Clone, Default)]
pub struct ResultEvidence {
    /// The result's own status (`exactly_verified`, …).
    pub status: String,
    /// Its evidence word, or `none`.
    pub evidence: String,
    /// Its verification mapping, copied as given.
    pub verification: Object,
    /// True when the statement is the result's own rendering; false when the caller wrote it.
    pub statement_is_result: bool,
}

/// A claim to record.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// The claim's statement.
    pub statement: String,
    /// `text` unless given.
    pub kind: Option<String>,
    /// `record` unless given.
    pub method: Option<String>,
    /// Hypotheses it holds under (part of its identity).
    pub hypotheses: Vec<String>,
    /// IDs of the claims it depends on.
    pub depends_on: Vec<String>,
    /// A re-verification recipe.
    pub check: Option<Object>,
    /// A short title for documents.
    pub label: Option<String>,
    /// Free labels.
    pub tags: Vec<String>,
    /// Free prose.
    pub notes: Option<String>,
    /// The checked result the statement comes from; `None` records an `unverified` claim.
    pub result: Option<ResultEvidence>,
    /// When (volatile).
    pub recorded_at: Option<String>,
    /// Extra provenance (`operation` is always the method).
    pub provenance: Object,
}

fn dedup(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

impl ClaimGraph {
    /// Records a claim and returns the stored one (an existing claim with the same ID is
    /// merged: it keeps its status).
    ///
    /// The status is the result's status, or `unverified` without a result. A statement the
    /// caller wrote cannot keep a status that says something was checked (anything above
    /// `asserted`) unless the claim carries a recipe this build can run (see
    /// [`super::recipe::is_recognised`]): it becomes `asserted`, with the result's status kept
    /// under `verification.result_status`. Unlike the reference, any such status is downgraded
    /// (not only the machine-checked ones) and an unrecognised recipe does not count.
    pub fn record(&mut self, r: Record) -> Result<&Claim, GraphError> {
        // As alkahest's `record`: an empty method is the default, and the method is stored as
        // typed (the ID canonicalises it).
        let method = r
            .method
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "record".into());
        let statement = canon(&r.statement);
        let hypotheses = canon_hypotheses(&r.hypotheses);
        let id = claim_id(&statement, &hypotheses, &method);
        let mut c = Claim::new(id, statement);
        c.kind = r.kind.map_or_else(|| "text".into(), Into::into);
        c.hypotheses = hypotheses.into();
        c.method = method.as_str().into();
        c.depends_on = r.depends_on.into_iter().map(Into::into).collect();
        c.check = r.check.filter(|k| !k.is_empty()).map(Compact::from);
        c.label = r.label.map(Into::into);
        c.tags = dedup(r.tags).into();
        c.notes = r.notes.map(Into::into);
        c.recorded_at = r.recorded_at.map(Into::into);
        let mut provenance = r.provenance;
        provenance.insert("operation", method.as_str());
        c.provenance = provenance.into();
        if let Some(result) = r.result {
            c.status = if result.status.is_empty() {
                claim::UNVERIFIED.into()
            } else {
                result.status.as_str().into()
            };
            c.evidence = if result.evidence.is_empty() {
                "none".into()
            } else {
                result.evidence.into()
            };
            let mut verification = result.verification;
            let recipe_links = c
                .check_kind()
                .is_some_and(|k| super::recipe::is_recognised(&k));
            if !result.statement_is_result && claim::claims_a_check(&c.status) && !recipe_links {
                verification.insert("result_status", c.status.as_str());
                verification.insert("statement_source", "caller");
                c.status = claim::ASSERTED.into();
            }
            c.verification = verification.into();
        }
        self.add(c)
    }

    /// Records a conjecture: always `unverified`, whatever else is given. `evidence` says
    /// what suggested it.
    pub fn conjecture(&mut self, mut r: Record, evidence: &str) -> Result<&Claim, GraphError> {
        let evidence = canon(evidence);
        let tags = std::mem::take(&mut r.tags);
        r.result = None;
        // Stored as typed, like alkahest's `conjecture` (an empty method stays empty there).
        let method = r.method.take().unwrap_or_else(|| "conjecture".into());
        let statement = canon(&r.statement);
        let hypotheses = canon_hypotheses(&r.hypotheses);
        let mut c = Claim::new(claim_id(&statement, &hypotheses, &method), statement);
        c.kind = r.kind.map_or_else(|| "text".into(), Into::into);
        c.hypotheses = hypotheses.into();
        c.method = method.as_str().into();
        c.evidence = evidence.as_str().into();
        c.verification = Object::new()
            .with("status", claim::UNVERIFIED)
            .with("evidence", Value::from(evidence))
            .into();
        c.depends_on = r.depends_on.into_iter().map(Into::into).collect();
        c.check = r.check.filter(|k| !k.is_empty()).map(Compact::from);
        c.label = r.label.map(Into::into);
        c.tags = tags.into();
        c.notes = r.notes.map(Into::into);
        c.recorded_at = r.recorded_at.map(Into::into);
        let mut provenance = r.provenance;
        provenance.insert("operation", method.as_str());
        c.provenance = provenance.into();
        self.add(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proved() -> ResultEvidence {
        ResultEvidence {
            status: claim::EXACTLY_VERIFIED.into(),
            evidence: "kernel".into(),
            verification: Object::new().with("status", claim::EXACTLY_VERIFIED),
            statement_is_result: false,
        }
    }

    #[test]
    fn reworded_statement_is_asserted_even_with_an_unknown_recipe() {
        let mut g = ClaimGraph::new(None);
        let c = g
            .record(Record {
                statement: "the integral is log 2".into(),
                result: Some(proved()),
                check: Some(Object::new().with("kind", "no_such_recipe")),
                ..Record::default()
            })
            .unwrap();
        assert_eq!(c.status, claim::ASSERTED);
        assert_eq!(
            c.verification.get("result_status"),
            Some(Value::from(claim::EXACTLY_VERIFIED))
        );
        let c = g
            .record(Record {
                statement: "still prose".into(),
                result: Some(ResultEvidence {
                    status: claim::CERTIFICATE_AVAILABLE.into(),
                    ..proved()
                }),
                ..Record::default()
            })
            .unwrap();
        assert_eq!(
            c.status,
            claim::ASSERTED,
            "every checked status, not only machine-checked ones"
        );
    }

    #[test]
    fn recognised_recipe_or_own_rendering_keeps_the_status() {
        let mut g = ClaimGraph::new(None);
        let check = Object::new()
            .with("kind", "numeric_relation")
            .with("constants", Value::Array(vec!["1".into()]))
            .with("coefficients", Value::Array(vec![0i64.into()]));
        let c = g
            .record(Record {
                statement: "r".into(),
                result: Some(proved()),
                check: Some(check),
                ..Record::default()
            })
            .unwrap();
        assert_eq!(c.status, claim::EXACTLY_VERIFIED);
        let c = g
            .record(Record {
                statement: "own".into(),
                result: Some(ResultEvidence {
                    statement_is_result: true,
                    ..proved()
                }),
                ..Record::default()
            })
            .unwrap();
        assert_eq!(c.status, claim::EXACTLY_VERIFIED);
        let c = g
            .record(Record {
                statement: "bare".into(),
                ..Record::default()
            })
            .unwrap();
        assert_eq!(c.status, claim::UNVERIFIED);
    }

    #[test]
    fn conjecture_is_unverified_and_merge_keeps_status() {
        let mut g = ClaimGraph::new(None);
        let id = g
            .conjecture(
                Record {
                    statement: "A".into(),
                    result: Some(proved()),
                    ..Record::default()
                },
                "seen",
            )
            .unwrap()
            .id
            .clone();
        assert_eq!(id, "clm_33f5df3fc90490cc");
        assert_eq!(g.get(&id).unwrap().status, claim::UNVERIFIED);
        g.record(Record {
            statement: "B".into(),
            ..Record::default()
        })
        .unwrap();
        let b = g.claims()[1].id.clone();
        // Re-recording A gains an edge, a tag and a recipe, never a status.
        g.conjecture(
            Record {
                statement: "A".into(),
                depends_on: vec![b.to_string()],
                tags: vec!["t".into()],
                check: Some(Object::new().with("kind", "numeric_relation")),
                ..Record::default()
            },
            "again",
        )
        .unwrap();
        let a = g.get(&id).unwrap();
        assert_eq!(
            (a.status.as_str(), a.evidence.as_str()),
            (claim::UNVERIFIED, "seen")
        );
        assert_eq!(a.depends_on, vec![b.clone()]);
        assert_eq!(*a.tags, ["t".to_string()]);
        assert!(a.check.is_some());
        // A is before B in insertion order but after it in topological order.
        let order: Vec<&str> = g
            .topological_order()
            .iter()
            .map(|c| c.id.as_str())
            .collect();
        assert_eq!(order, vec![b.as_str(), id.as_str()]);
        // The edge back would close a cycle.
        let err = g
            .record(Record {
                statement: "B".into(),
                depends_on: vec![id.to_string()],
                ..Record::default()
            })
            .unwrap_err();
        assert!(matches!(err, GraphError::CycleEdge { .. }), "{err}");
        // Round trip: same order, same digest.
        let text = g.to_json(super::super::Form {
            pretty: true,
            stable: false,
        });
        let (again, _) = ClaimGraph::from_json(&text).unwrap();
        assert_eq!(again.digest(), g.digest());
        assert_eq!(
            again.to_json(super::super::Form {
                pretty: true,
                stable: false
            }),
            text
        );
    }
}
