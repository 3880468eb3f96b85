//! The sciproof recipes: a claim that is a sciproof claim in a manifest (`sciproof_claim`), and
//! a claim that a run's recorded evidence is intact (`sciproof_manifest`).
//!
//! Re-checking never executes anything: it is the integrity verification of the manifest
//! (`sciproof verify` without `--rerun`), and for a value claim the check of that claim on the
//! recorded output with its pinned digest. PASS is `ok`, FAIL `failed`, INCONCLUSIVE
//! `inconclusive`. A recipe whose manifest no longer holds what was recorded (another claim at
//! that index, another pinned digest, an edited manifest) cannot vouch for the claim: a changed
//! claim or digest is `inconclusive`, an edited manifest behind a run claim is `failed`.

use super::{Outcome, Recheck};
use crate::json::{Number, Object, Value};
use crate::manifest::Manifest;
use crate::report::{Report, Status};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Recipe kind of a value claim.
pub const CLAIM: &str = "sciproof_claim";
/// Recipe kind of a run's evidence.
pub const MANIFEST: &str = "sciproof_manifest";

/// A manifest read and verified once per pass.
pub struct VerifiedRun {
    /// SHA-256 of the manifest file's bytes.
    pub sha256: String,
    /// The manifest.
    pub manifest: Manifest,
    /// The integrity verification (no rerun).
    pub report: Report,
}

/// `sciproof_claim`: a claim of a manifest, checked on its recorded output.
pub struct ClaimRecipe;

impl super::Recipe for ClaimRecipe {
    fn kind(&self) -> &'static str {
        CLAIM
    }
    fn shares_context(&self) -> bool {
        true
    }
    fn recheck(&self, check: &Object, context: &mut super::Context) -> Recheck {
        recheck_claim(check, &context.options.base, &mut context.runs)
    }
}

/// `sciproof_manifest`: a run's recorded evidence, verified for integrity.
pub struct ManifestRecipe;

impl super::Recipe for ManifestRecipe {
    fn kind(&self) -> &'static str {
        MANIFEST
    }
    fn shares_context(&self) -> bool {
        true
    }
    fn recheck(&self, check: &Object, context: &mut super::Context) -> Recheck {
        recheck_manifest(check, &context.options.base, &mut context.runs)
    }
}

/// Verified manifests of one pass, by path.
#[derive(Default)]
pub struct Runs {
    cache: HashMap<PathBuf, Result<std::sync::Arc<VerifiedRun>, String>>,
}

/// Reads a manifest once, hashes those bytes and verifies its integrity on them (nothing is
/// executed).
pub fn verify_run(path: &Path) -> Result<VerifiedRun, String> {
    let request = crate::verify::VerifyRequest::integrity(path, &crate::progress::NoProgress);
    let verified = crate::verify::verify_loaded(&request).map_err(|e| e.to_string())?;
    Ok(VerifiedRun {
        sha256: verified.loaded.sha256(),
        manifest: verified.loaded.manifest,
        report: verified.report,
    })
}

impl Runs {
    fn get(&mut self, path: PathBuf) -> Result<std::sync::Arc<VerifiedRun>, String> {
        self.cache
            .entry(path.clone())
            .or_insert_with(|| verify_run(&path).map(std::sync::Arc::new))
            .clone()
    }
}

fn string<'a>(check: &'a Object, key: &str) -> Result<&'a str, String> {
    match check.get(key) {
        Some(Value::String(s)) => Ok(s),
        None => Err(format!("KeyError: {}", crate::pyfmt::str_repr(key))),
        Some(v) => Err(format!(
            "TypeError: recipe key '{key}' must be a string, not '{}'",
            v.py_type_name()
        )),
    }
}

fn manifest_path(check: &Object, base: &Path) -> Result<PathBuf, String> {
    let path = string(check, "manifest")?;
    Ok(if base == Path::new(".") {
        PathBuf::from(path)
    } else {
        base.join(path)
    })
}

/// The verdict word and the first check that is not PASS, for details.
fn describe(checks: &[&crate::report::Check]) -> (Status, String) {
    let status = crate::report::verdict(&checks.iter().map(|c| (*c).clone()).collect::<Vec<_>>());
    let worst = checks
        .iter()
        .find(|c| c.status == Status::Fail)
        .or_else(|| checks.iter().find(|c| c.status == Status::Inconclusive));
    let detail = match worst {
        Some(c) => format!("{}: {}: {}", status.as_str(), c.subject, c.message),
        None => format!("{}: {} check(s) passed", status.as_str(), checks.len()),
    };
    (status, detail)
}

fn outcome_of(status: Status) -> Outcome {
    match status {
        Status::Pass => Outcome::Ok,
        Status::Fail => Outcome::Failed,
        Status::Inconclusive => Outcome::Inconclusive,
    }
}

/// `sciproof_manifest`: `{"kind", "manifest": path, "sha256": digest of the manifest file}`.
pub fn recheck_manifest(check: &Object, base: &Path, runs: &mut Runs) -> Recheck {
    let result = (|| -> Result<Recheck, String> {
        let path = manifest_path(check, base)?;
        let pinned = string(check, "sha256")?;
        let run = runs.get(path.clone())?;
        if run.sha256 != pinned {
            return Ok(Recheck::new(
                Outcome::Failed,
                MANIFEST,
                format!(
                    "the manifest {} was changed after this claim was recorded (sha256 {} now, {} recorded): the recorded evidence is gone",
                    path.display(),
                    run.sha256,
                    pinned
                ),
            ));
        }
        let checks: Vec<&crate::report::Check> = run
            .report
            .checks
            .iter()
            .filter(|c| !is_claim_check(c))
            .collect();
        let (status, detail) = describe(&checks);
        Ok(Recheck::new(
            outcome_of(status),
            MANIFEST,
            format!("integrity {detail}"),
        ))
    })();
    result.unwrap_or_else(|e| Recheck::new(Outcome::Inconclusive, MANIFEST, e))
}

fn is_claim_check(c: &crate::report::Check) -> bool {
    c.subject.starts_with("claim ")
}

/// `sciproof_claim`: `{"kind", "manifest": path, "index": n, "claim": the manifest's claim
/// object, "output_sha256": the pinned digest of its output or null}`.
pub fn recheck_claim(check: &Object, base: &Path, runs: &mut Runs) -> Recheck {
    let result = (|| -> Result<Recheck, String> {
        let path = manifest_path(check, base)?;
        let index = match check.get("index") {
            Some(Value::Number(Number::Int(i))) => usize::try_from(i)
                .map_err(|_| format!("ValueError: recipe index {i} is not a claim position"))?,
            None => return Err("KeyError: 'index'".into()),
            Some(v) => {
                return Err(format!(
                    "TypeError: recipe key 'index' must be an integer, not '{}'",
                    v.py_type_name()
                ));
            }
        };
        let recorded = check.get("claim").ok_or("KeyError: 'claim'")?;
        let run = runs.get(path.clone())?;
        let Some(claim) = run.manifest.claims.get(index) else {
            return Ok(Recheck::new(
                Outcome::Inconclusive,
                CLAIM,
                format!(
                    "the manifest {} has {} claim(s) now, none at index {index}: the claim cannot be checked",
                    path.display(),
                    run.manifest.claims.len()
                ),
            ));
        };
        if !crate::json::same_content(&claim.to_json(), recorded) {
            return Ok(Recheck::new(
                Outcome::Inconclusive,
                CLAIM,
                format!(
                    "claim {index} of {} is now `{}`, not the claim recorded: it cannot be checked",
                    path.display(),
                    claim.text()
                ),
            ));
        }
        let pinned = check.get("output_sha256").and_then(Value::as_str);
        let now = run
            .manifest
            .outputs
            .iter()
            .find(|o| o.path == claim.output)
            .and_then(|o| o.sha256.as_deref());
        if pinned != now {
            return Ok(Recheck::new(
                Outcome::Inconclusive,
                CLAIM,
                format!(
                    "the manifest now pins {} to {}, not the digest {} recorded with the claim",
                    claim.output,
                    now.unwrap_or("nothing"),
                    pinned.unwrap_or("nothing")
                ),
            ));
        }
        let Some(c) = run
            .report
            .checks
            .iter()
            .filter(|c| is_claim_check(c))
            .nth(index)
        else {
            return Ok(Recheck::new(
                Outcome::Inconclusive,
                CLAIM,
                "the verification did not check this claim".into(),
            ));
        };
        Ok(Recheck::new(
            outcome_of(c.status),
            CLAIM,
            format!("{}: {}", c.status.as_str(), c.message),
        ))
    })();
    result.unwrap_or_else(|e| Recheck::new(Outcome::Inconclusive, CLAIM, e))
}

/// The recipe outcome word for a sciproof verdict.
pub fn recheck_outcome(status: Status) -> &'static str {
    outcome_of(status).as_str()
}
