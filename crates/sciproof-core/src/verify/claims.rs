//! Claim checks: each claim on the recorded output (phase `recorded`) and, after a rerun, on
//! the rerun's output (phase `rerun`).

use crate::claims::evaluate::{evaluate, json_safe};
use crate::manifest::Manifest;
use crate::numeric::Documents;
use crate::paths::resolve_inside;
use crate::report::{Evidence, Report, Status};
use std::collections::HashSet;
use std::path::Path;

/// Which output a claim is checked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The output as recorded (only judged while it still has its recorded digest).
    Recorded,
    /// The output the rerun produced.
    Rerun,
}

/// The outputs whose integrity check passed (subject `output <path>` is PASS).
pub fn intact_outputs(manifest: &Manifest, report: &Report) -> HashSet<String> {
    if manifest.claims.is_empty() {
        return HashSet::new();
    }
    let passed: HashSet<&str> = report
        .checks
        .iter()
        .filter(|c| c.status == Status::Pass)
        .filter_map(|c| c.subject.strip_prefix("output "))
        .collect();
    manifest
        .outputs
        .iter()
        .filter(|o| passed.contains(o.path.as_str()))
        .map(|o| o.path.clone())
        .collect()
}

/// Adds one check per claim of the manifest. `intact` (recorded phase) names the outputs that
/// still match their evidence: a claim about any other output is INCONCLUSIVE, since a claim
/// about a modified file says nothing about the evidence.
pub fn check_claims(
    base: &Path,
    manifest: &Manifest,
    report: &mut Report,
    phase: Phase,
    intact: &HashSet<String>,
) {
    if manifest.claims.is_empty() {
        return;
    }
    report.claims_checked = true;
    let mut documents = Documents::default();
    let phase_name = match phase {
        Phase::Recorded => "recorded",
        Phase::Rerun => "rerun",
    };
    for claim in &manifest.claims {
        let subject = format!(
            "{}{}",
            if phase == Phase::Rerun {
                "rerun claim "
            } else {
                "claim "
            },
            claim.text()
        );
        let evidence = |found, printed| {
            Some(Evidence::Claim {
                phase: phase_name,
                claim: claim.clone(),
                found,
                printed,
            })
        };
        if phase == Phase::Recorded && !intact.contains(&claim.output) {
            report.add(
                Status::Inconclusive,
                subject,
                format!("not judged: {} no longer matches the recorded evidence, so the claim says nothing about it", claim.output),
                evidence(None, None),
            );
            continue;
        }
        let path = match resolve_inside(base, &claim.output) {
            Ok(p) => p,
            Err(e) => {
                report.add(
                    Status::Fail,
                    subject,
                    format!("not judged: {} cannot be read: {e}", claim.output),
                    evidence(None, None),
                );
                continue;
            }
        };
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            report.add(
                Status::Inconclusive,
                subject,
                format!(
                    "not judged: {} the rerun did not produce this file",
                    claim.output
                ),
                evidence(None, None),
            );
            continue;
        }
        match documents.find(&path, &claim.output, &claim.location) {
            Err(e) => {
                report.add(
                    Status::Fail,
                    subject,
                    format!("not judged: {} cannot be read: {e}", claim.output),
                    evidence(None, None),
                );
            }
            Ok(found) => {
                let result = evaluate(claim, found);
                let status = if result.holds {
                    Status::Pass
                } else {
                    Status::Fail
                };
                let shown = result.found.as_ref().map(json_safe);
                report.add(
                    status,
                    subject,
                    result.message,
                    evidence(Some(shown), result.printed),
                );
            }
        }
    }
}
