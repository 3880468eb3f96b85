//! `graph record` and `graph conjecture`: one claim recorded (never above `unverified`).

use super::{Warn, lock, open_or_new, save};
use crate::commit::lock::Wait;
use crate::error::{Error, Result};
use crate::graph::record::Record;
use crate::graph::{ClaimGraph, GraphError};
use crate::json::{Object, Value};
use crate::progress::Progress;
use std::path::PathBuf;

/// What kind of claim.
pub enum NewClaim {
    /// A claim made by a method (part of its identity).
    Claim {
        /// The method or operation that produced it.
        method: String,
    },
    /// A conjecture: always unverified.
    Conjecture {
        /// What suggested it.
        evidence: String,
    },
}

/// A claim to record.
pub struct RecordRequest<'a> {
    /// The graph file (created when missing).
    pub graph: PathBuf,
    /// The statement.
    pub statement: String,
    /// A claim or a conjecture.
    pub kind: NewClaim,
    /// Hypotheses it holds under (part of its identity).
    pub hypotheses: Vec<String>,
    /// Claims it depends on: IDs or unique prefixes.
    pub depends_on: Vec<String>,
    /// A re-verification recipe, as JSON text.
    pub check: Option<String>,
    /// A short title for the documents.
    pub label: Option<String>,
    /// Free labels.
    pub tags: Vec<String>,
    /// Free prose.
    pub notes: Option<String>,
    /// The title of a graph this creates.
    pub title: Option<String>,
    /// When (RFC 3339).
    pub recorded_at: String,
    /// What to do when another sciproof is changing the graph.
    pub wait: Wait<'a>,
    /// Progress while a large graph is read.
    pub progress: &'a dyn Progress,
    /// Receives what was dropped when reading the graph.
    pub warn: Warn<'a>,
}

/// A recipe given as JSON text: an object with a `kind` string.
fn parse_check(text: &str) -> Result<Object> {
    match crate::json::parse(text) {
        Ok(Value::Object(o)) => match o.get("kind") {
            Some(Value::String(_)) => Ok(o),
            _ => Err(GraphError::Recipe(format!(
                "--check: the recipe needs a \"kind\" string ({})",
                crate::graph::recipe::runnable_kinds().join(", ")
            ))
            .into()),
        },
        Ok(_) => Err(GraphError::Recipe("--check: expected a JSON object".into()).into()),
        Err(e) => Err(GraphError::Recipe(format!("--check: not valid JSON: {e}")).into()),
    }
}

fn resolve(graph: &ClaimGraph, id: &str) -> Result<String> {
    graph.resolve(id).map(str::to_string).map_err(Error::Graph)
}

/// Records the claim and writes the graph; returns the claim's ID.
pub fn record(request: &RecordRequest) -> Result<String> {
    let path = &request.graph;
    let what = match request.kind {
        NewClaim::Claim { .. } => "graph record",
        NewClaim::Conjecture { .. } => "graph conjecture",
    };
    let _lock = lock(path, what, request.wait)?;
    let mut graph = open_or_new(path, request.title.clone(), request.progress, request.warn)?;
    let depends_on = request
        .depends_on
        .iter()
        .map(|d| resolve(&graph, d))
        .collect::<Result<Vec<_>>>()?;
    let mut record = Record {
        statement: request.statement.clone(),
        hypotheses: request.hypotheses.clone(),
        depends_on,
        check: request.check.as_deref().map(parse_check).transpose()?,
        label: request.label.clone(),
        tags: request.tags.clone(),
        notes: request.notes.clone(),
        recorded_at: Some(request.recorded_at.clone()),
        ..Record::default()
    };
    let recorded = match &request.kind {
        NewClaim::Claim { method } => {
            record.method = Some(method.clone());
            graph.record(record)
        }
        NewClaim::Conjecture { evidence } => graph.conjecture(record, evidence),
    };
    let id = recorded.map_err(Error::Graph)?.id.to_string();
    save(&graph, path)?;
    Ok(id)
}
