//! Evidence: the structured facts a check used, so a result can be audited without re-running.

use crate::json::{Object, Value};
use crate::numeric::{Comparison, Difference, RULE_TEXT};
use crate::tree::TreeDiff;

/// Which digest comparison produced a [`Evidence::Digest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DigestKind {
    /// A declared input.
    InputIntegrity,
    /// A declared output.
    OutputIntegrity,
    /// A numeric output's recorded copy.
    SnapshotIntegrity,
    /// A rerun's output, compared exactly.
    RerunOutputExact,
}

impl DigestKind {
    /// The `kind` value in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            DigestKind::InputIntegrity => "input_integrity",
            DigestKind::OutputIntegrity => "output_integrity",
            DigestKind::SnapshotIntegrity => "snapshot_integrity",
            DigestKind::RerunOutputExact => "rerun_output_exact",
        }
    }
}

/// Extra facts for a directory artifact.
#[derive(Debug, Clone, PartialEq)]
pub struct DirectoryEvidence {
    /// Files recorded in the manifest.
    pub files_expected: usize,
    /// Files found now (`None` when the directory is absent or could not be scanned).
    pub files_actual: Option<usize>,
    /// What differs (`None` when the digests match or no scan was possible).
    pub tree: Option<TreeDiff>,
    /// Why the directory could not be read as evidence.
    pub problem: Option<String>,
}

/// The facts behind a check, by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// `input_integrity`, `output_integrity`, `snapshot_integrity`, `rerun_output_exact`.
    Digest {
        /// What the digest is of.
        kind: DigestKind,
        /// The path.
        path: String,
        /// The digest recorded.
        expected_sha256: Option<String>,
        /// `None` when the file is absent.
        actual_sha256: Option<String>,
        /// How a directory differs.
        directory: Option<DirectoryEvidence>,
    },
    /// `exit_code`: the recorded and the rerun exit codes.
    ExitCode {
        /// The recorded run's exit code.
        recorded: i64,
        /// The rerun's.
        rerun: i64,
    },
    /// `claim`: a claim checked on the recorded (`phase` "recorded") or the rerun's output.
    Claim {
        /// `recorded` or `rerun`.
        phase: &'static str,
        /// The claim.
        claim: crate::claims::Claim,
        /// `None` when the claim was not judged; `Some(None)` when the location is absent.
        found: Option<Option<Value>>,
        /// For a printed claim that was judged: precision, rounded value, tie.
        printed: Option<crate::claims::printed::PrintedOutcome>,
    },
    /// `manifest_signature`: the outcome of checking `<manifest>.sig`.
    Signature(crate::signing::SignatureResult),
    /// `policy`: a rule of `--policy`, with its limit, what was found, or the path it is about.
    Policy {
        /// The rule (`section.key`).
        rule: String,
        /// The rule's limit.
        limit: Option<Value>,
        /// What was found.
        found: Option<Value>,
        /// The path the check is about.
        path: Option<String>,
    },
    /// `rerun_output_numeric`: the recorded copy against the rerun's output.
    RerunNumeric {
        /// The output.
        path: String,
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
        /// The differences (empty when equivalent) and statistics, or why the files could not
        /// be compared.
        outcome: Result<Comparison, String>,
    },
}

impl Evidence {
    /// The JSON object of the report schema, keys in the reference's order.
    pub fn to_json(&self) -> Value {
        match self {
            Evidence::Digest {
                kind,
                path,
                expected_sha256,
                actual_sha256,
                directory,
            } => {
                let mut o = Object::new()
                    .with("kind", kind.as_str())
                    .with("path", path)
                    .with("expected_sha256", expected_sha256.clone())
                    .with("actual_sha256", actual_sha256.clone());
                if let Some(d) = directory {
                    o.insert("artifact", "directory");
                    o.insert("files_expected", d.files_expected);
                    o.insert("files_actual", d.files_actual);
                    o.insert(
                        "tree",
                        d.tree
                            .as_ref()
                            .map(TreeDiff::to_json)
                            .unwrap_or(Value::Null),
                    );
                    if let Some(problem) = &d.problem {
                        o.insert("problem", problem);
                    }
                }
                o.into()
            }
            Evidence::ExitCode { recorded, rerun } => Object::new()
                .with("kind", "exit_code")
                .with("recorded", *recorded)
                .with("rerun", *rerun)
                .into(),
            Evidence::Signature(result) => result.evidence().into(),
            Evidence::Policy {
                rule,
                limit,
                found,
                path,
            } => {
                let mut o = Object::new()
                    .with("kind", "policy")
                    .with("rule", rule.as_str());
                if let Some(l) = limit {
                    o.insert("limit", l.clone());
                }
                if let Some(f) = found {
                    o.insert("found", f.clone());
                }
                if let Some(p) = path {
                    o.insert("path", p.as_str());
                }
                o.into()
            }
            Evidence::Claim {
                phase,
                claim,
                found,
                printed,
            } => {
                let mut o = Object::new()
                    .with("kind", "claim")
                    .with("phase", *phase)
                    .with("output", &claim.output)
                    .with("location", &claim.location)
                    .with("op", claim.op.as_str())
                    .with("value", claim.value.clone());
                if let Some((rtol, atol)) = claim.tolerance {
                    o.insert("rtol", rtol);
                    o.insert("atol", atol);
                }
                if let Some(scale) = &claim.scale {
                    o.insert("scale", scale.as_str());
                }
                if let Some(found) = found {
                    o.insert("found", found.clone().unwrap_or(Value::Null));
                    o.insert("present", found.is_some());
                }
                if let Some(p) = printed {
                    let tie = p.tie.as_ref().map(|(lower, upper)| {
                        Value::from(
                            Object::new()
                                .with("lower", lower.as_str())
                                .with("upper", upper.as_str()),
                        )
                    });
                    o.insert("precision", p.precision.as_str());
                    o.insert("rounded", p.rounded.as_str());
                    o.insert("tie", tie.unwrap_or(Value::Null));
                }
                o.into()
            }
            Evidence::RerunNumeric {
                path,
                rtol,
                atol,
                outcome,
            } => {
                let (differences, details, error, statistics) = match outcome {
                    Ok(c) => (
                        Value::Array(
                            c.differences
                                .iter()
                                .map(|d| Value::from(d.message.as_str()))
                                .collect(),
                        ),
                        Value::Array(c.differences.iter().map(Difference::to_json).collect()),
                        Value::Null,
                        c.statistics_json(),
                    ),
                    Err(e) => (
                        Value::Null,
                        Value::Null,
                        Value::from(e.as_str()),
                        Value::Null,
                    ),
                };
                Object::new()
                    .with("kind", "rerun_output_numeric")
                    .with("path", path)
                    .with("rtol", *rtol)
                    .with("atol", *atol)
                    .with("rule", RULE_TEXT)
                    .with("differences", differences)
                    .with("difference_details", details)
                    .with("error", error)
                    .with("statistics", statistics)
                    .into()
            }
        }
    }
}
