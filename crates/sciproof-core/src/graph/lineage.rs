//! Lineage across runs: a sciproof run as claims in the graph, linked to earlier runs by the
//! files they share.
//!
//! `add_run` records one claim for the run's evidence (recipe `sciproof_manifest`) and one per
//! sciproof claim in the manifest (recipe `sciproof_claim`, depending on the run's claim), with
//! statuses from the integrity verification performed right then:
//!
//! | verification | status | why |
//! | --- | --- | --- |
//! | PASS | `numerically_checked` | a machine compared digests and recorded values: evidence about pinned files, not a proof, and nothing about the science |
//! | INCONCLUSIVE | `unverified` | nothing was established |
//! | FAIL | `refuted` | the evidence contradicts the claim |
//!
//! None of them is machine-checked. Re-adding a run merges into the stored claims and can only
//! lower them (a FAIL now refutes; an INCONCLUSIVE now makes a passing claim `unverified`).
//!
//! Edges come from file lineage: when a declared input of this run has the SHA-256 (or tree
//! digest) of a declared output of a run already in the graph, this run's evidence claim
//! depends on that run's evidence claim and on its claims about that output. So the `impact`
//! of a preprocessing run's claim reaches every result of every later run that consumed it.

use super::claim::{self, Claim};
use super::error::GraphError;
use super::recipe::sciproof::{self, VerifiedRun};
use super::record::{Record, ResultEvidence};
use super::store::ClaimGraph;
use crate::json::{Object, Value};
use crate::report::Status;
use std::path::Path;

/// The file lineage recorded in a graph (see `ClaimGraph::recorded_lineage`).
#[derive(Default)]
struct Lineage {
    /// Output digest -> (run claim, output path).
    outputs: std::collections::HashMap<String, Vec<(String, String)>>,
    /// (run claim, output path) -> value claims about that output.
    claims: std::collections::HashMap<(String, String), Vec<String>>,
}

/// What `add_run` did.
#[derive(Debug, Clone, PartialEq)]
pub struct AddedRun {
    /// The run's evidence claim, its status, and the verdict behind it.
    pub run_claim: String,
    /// The integrity verdict of the run.
    pub verdict: Status,
    /// Each value claim: ID, status, the claim's text.
    pub claims: Vec<(String, String, String)>,
    /// Evidence claims of earlier runs this run consumed outputs of: (claim ID, shared path).
    pub upstream: Vec<(String, String)>,
}

fn status_for(verdict: Status) -> &'static str {
    match verdict {
        Status::Pass => claim::NUMERICALLY_CHECKED,
        Status::Inconclusive => claim::UNVERIFIED,
        Status::Fail => claim::REFUTED,
    }
}

/// A path for the recipe: relative to the graph's folder when the manifest is inside it.
fn recipe_path(manifest: &Path, graph_dir: &Path) -> String {
    let absolute = crate::paths::resolve_lenient(manifest);
    let base = crate::paths::resolve_lenient(graph_dir);
    match absolute.strip_prefix(&base) {
        Ok(relative) => relative.to_string_lossy().into_owned(),
        Err(_) => absolute.to_string_lossy().into_owned(),
    }
}

fn files(entries: impl Iterator<Item = (String, Option<String>)>) -> Value {
    Value::Array(
        entries
            .map(|(path, sha)| {
                Value::Object(
                    Object::new()
                        .with("path", path)
                        .with("sha256", Value::from(sha)),
                )
            })
            .collect(),
    )
}

/// The outputs a run claim recorded in its provenance: (path, digest).
fn recorded_outputs(c: &Claim) -> Vec<(String, String)> {
    let Some(Value::Array(outputs)) = c.provenance.get("outputs") else {
        return Vec::new();
    };
    outputs
        .iter()
        .filter_map(|o| {
            let o = o.as_object()?;
            Some((
                o.get("path")?.as_str()?.to_string(),
                o.get("sha256")?.as_str()?.to_string(),
            ))
        })
        .collect()
}

impl ClaimGraph {
    /// Verifies the manifest's integrity (nothing is executed) and adds the run to the graph.
    /// `graph_dir` is the folder of the graph file (recipes store paths relative to it);
    /// `recorded_at` is the time written into the new claims and audit entries.
    pub fn add_run(
        &mut self,
        manifest_path: &Path,
        graph_dir: &Path,
        recorded_at: &str,
    ) -> Result<AddedRun, crate::Error> {
        let run = sciproof::verify_run(manifest_path).map_err(crate::Error::Manifest)?;
        self.add_verified_run(&run, &recipe_path(manifest_path, graph_dir), recorded_at)
            .map_err(crate::Error::Graph)
    }

    /// [`ClaimGraph::add_run`] for a run already verified; `path` is what the recipes store.
    pub fn add_verified_run(
        &mut self,
        run: &VerifiedRun,
        path: &str,
        recorded_at: &str,
    ) -> Result<AddedRun, GraphError> {
        let m = &run.manifest;
        let integrity: Vec<crate::report::Check> = run
            .report
            .checks
            .iter()
            .filter(|c| !c.subject.starts_with("claim "))
            .cloned()
            .collect();
        let verdict = crate::report::verdict(&integrity);
        // Upstream: earlier runs whose outputs this run read (one pass over the graph).
        let lineage = self.recorded_lineage();
        let mut upstream: Vec<(String, String)> = Vec::new();
        let mut depends_on: Vec<String> = Vec::new();
        for input in &m.inputs {
            for (run_claim, out_path) in lineage.outputs.get(&input.sha256).into_iter().flatten() {
                upstream.push((run_claim.clone(), input.path.clone()));
                depends_on.push(run_claim.clone());
                if let Some(claims) = lineage.claims.get(&(run_claim.clone(), out_path.clone())) {
                    depends_on.extend(claims.iter().cloned());
                }
            }
        }
        let command = m.command.argv.join(" ");
        let evidence = format!("sciproof integrity verification: {}", verdict.as_str());
        let provenance = Object::new()
            .with("manifest", path)
            .with("run", m.name.as_str())
            .with("created_at", m.created_at.as_str())
            .with(
                "inputs",
                files(
                    m.inputs
                        .iter()
                        .map(|i| (i.path.clone(), Some(i.sha256.clone()))),
                ),
            )
            .with(
                "outputs",
                files(m.outputs.iter().map(|o| (o.path.clone(), o.sha256.clone()))),
            );
        let run_statement = format!(
            "run \"{}\" ({}): every declared input and output has its recorded SHA-256",
            m.name, command
        );
        let result = |status: &str, statement_is_result| ResultEvidence {
            status: status.into(),
            evidence: evidence.clone(),
            verification: Object::new()
                .with("status", status)
                .with("evidence", evidence.as_str())
                .with("method", "sciproof verify (integrity, nothing executed)"),
            statement_is_result,
        };
        let audit = |outcome: &str, kind: &str, detail: String| {
            Object::new()
                .with("at", recorded_at)
                .with("checker", "sciproof")
                .with("outcome", outcome)
                .with("kind", kind)
                .with("detail", detail)
        };
        let run_status = status_for(verdict);
        let run_id = self
            .record(Record {
                statement: run_statement,
                method: Some(sciproof::MANIFEST.into()),
                hypotheses: vec![format!(
                    "manifest {} has sha256 {}",
                    Path::new(path)
                        .file_name()
                        .map_or(path.into(), |n| n.to_string_lossy()),
                    run.sha256
                )],
                depends_on,
                check: Some(
                    Object::new()
                        .with("kind", sciproof::MANIFEST)
                        .with("manifest", path)
                        .with("sha256", run.sha256.as_str()),
                ),
                label: Some(format!("run {}", m.name)),
                tags: vec!["sciproof-run".into()],
                result: Some(result(run_status, true)),
                recorded_at: Some(recorded_at.into()),
                provenance,
                ..Record::default()
            })?
            .id
            .to_string();
        let run_recheck = super::recipe::sciproof::recheck_outcome(verdict);
        self.push_audit(
            &run_id,
            audit(
                run_recheck,
                sciproof::MANIFEST,
                format!("add-run: {evidence}"),
            ),
        )?;
        self.lower(&run_id, run_status)?;
        let claim_checks: Vec<&crate::report::Check> = run
            .report
            .checks
            .iter()
            .filter(|c| c.subject.starts_with("claim "))
            .collect();
        let mut claims = Vec::new();
        for (index, (sc, check)) in m.claims.iter().zip(claim_checks).enumerate() {
            let status = status_for(check.status);
            let pinned = m
                .outputs
                .iter()
                .find(|o| o.path == sc.output)
                .and_then(|o| o.sha256.clone());
            let hypothesis = match &pinned {
                Some(sha) => format!("{} has sha256 {sha}", sc.output),
                None => format!("{} was not produced", sc.output),
            };
            let id = self
                .record(Record {
                    statement: sc.text(),
                    method: Some(sciproof::CLAIM.into()),
                    hypotheses: vec![hypothesis],
                    depends_on: vec![run_id.clone()],
                    check: Some(
                        Object::new()
                            .with("kind", sciproof::CLAIM)
                            .with("manifest", path)
                            .with("index", index)
                            .with("claim", sc.to_json())
                            .with("output_sha256", Value::from(pinned)),
                    ),
                    label: Some(format!("{}: {}", m.name, sc.text())),
                    tags: vec!["sciproof-claim".into()],
                    result: Some(ResultEvidence {
                        evidence: format!(
                            "sciproof claim check on the recorded output: {}",
                            check.status.as_str()
                        ),
                        ..result(status, true)
                    }),
                    recorded_at: Some(recorded_at.into()),
                    provenance: Object::new()
                        .with("manifest", path)
                        .with("run", m.name.as_str())
                        .with("output", sc.output.as_str()),
                    ..Record::default()
                })?
                .id
                .to_string();
            self.push_audit(
                &id,
                audit(
                    super::recipe::sciproof::recheck_outcome(check.status),
                    sciproof::CLAIM,
                    format!("add-run: {}: {}", check.status.as_str(), check.message),
                ),
            )?;
            self.lower(&id, status)?;
            let now = self
                .get(&id)
                .map(|c| c.status.to_string())
                .unwrap_or_default();
            claims.push((id, now, sc.text()));
        }
        Ok(AddedRun {
            run_claim: run_id,
            verdict,
            claims,
            upstream,
        })
    }

    /// What the runs already in the graph recorded, read once: each output digest with the run
    /// claims and paths that produced it, and the value claims of each (run claim, output).
    fn recorded_lineage(&self) -> Lineage {
        let mut lineage = Lineage::default();
        for c in &self.claims {
            match c.check_kind().as_deref() {
                Some(sciproof::MANIFEST) => {
                    for (path, sha) in recorded_outputs(c) {
                        lineage
                            .outputs
                            .entry(sha)
                            .or_default()
                            .push((c.id.to_string(), path));
                    }
                }
                Some(sciproof::CLAIM) => {
                    let output = c.provenance.get("output");
                    if let Some(path) = output.as_ref().and_then(Value::as_str) {
                        for run in &c.depends_on {
                            lineage
                                .claims
                                .entry((run.to_string(), path.to_string()))
                                .or_default()
                                .push(c.id.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        lineage
    }

    /// Lowers a claim to `to` if that is lower confidence than its status (`refuted` below
    /// `unverified` below anything that says a check happened). Never raises.
    pub fn lower(&mut self, id: &str, to: &str) -> Result<(), GraphError> {
        let at = self.position(id)?;
        let rank = |s: &str| match s {
            claim::REFUTED => 0,
            claim::UNVERIFIED => 1,
            s if claim::claims_a_check(s) => 3,
            _ => 2,
        };
        let c = &mut self.claims[at];
        if rank(to) < rank(&c.status) {
            c.status = to.into();
        }
        Ok(())
    }
}
