//! Verification: integrity of every declared file, aggregated conservatively into a [`Report`].
//!
//! Verify works relative to the manifest's folder (not the current directory) and never
//! executes anything unless a rerun is requested.

pub mod claims;
pub mod environment;
pub mod integrity;
pub mod recorded_copy;
pub mod rerun;

pub use rerun::{DEFAULT_TIMEOUT, RerunOptions};

use crate::commit::evidence::{Transaction, in_progress, settle};
use crate::commit::journal::Op;
use crate::commit::lock::Wait;
use crate::error::{Error, Result};
use crate::manifest::{Identity, Loaded, Manifest, source};
use crate::progress::Progress;
use crate::report::{Report, Status};
use std::path::PathBuf;

/// The note of a verification that did not execute the command.
pub const NOTE_INTEGRITY_ONLY: &str = "scope: artifact integrity only. The recorded command was NOT executed, so this does not show that the results can be reproduced.";

/// What to verify.
pub struct VerifyRequest<'a> {
    /// The manifest file.
    pub manifest: PathBuf,
    /// Execute the recorded command again (`--rerun`), and how.
    pub rerun: Option<RerunOptions<'a>>,
    /// The trust root for `<manifest>.sig` (`--allowed-signers`); its check comes first.
    pub allowed_signers: Option<Vec<crate::signing::AllowedSigner>>,
    /// A validated policy whose rules are checked after everything else (`--policy`).
    pub policy: Option<crate::policy::Policy>,
    /// Receives progress while large files are hashed and while the command runs.
    pub progress: &'a dyn Progress,
    /// What to do when another sciproof is changing this evidence.
    pub wait: Wait<'a>,
}

impl<'a> VerifyRequest<'a> {
    /// An integrity-only verification of `manifest` (no rerun, signature or policy), which
    /// waits for a writer of the same evidence.
    pub fn integrity(manifest: &std::path::Path, progress: &'a dyn Progress) -> Self {
        VerifyRequest {
            manifest: manifest.to_path_buf(),
            rerun: None,
            allowed_signers: None,
            policy: None,
            progress,
            wait: Wait::Yes(&|_| {}),
        }
    }
}

/// A verification, with the manifest it read (once) and what was done about operations an
/// earlier process left unfinished.
pub struct Verification {
    /// The report.
    pub report: Report,
    /// The manifest as it was read (once).
    pub loaded: Loaded,
    /// One line per interrupted operation that was completed or undone first.
    pub recovered: Vec<String>,
}

/// Warnings that follow from the recorded evidence alone.
pub fn recorded_warnings(manifest: &Manifest) -> Vec<String> {
    let mut warnings = Vec::new();
    if manifest.git.as_ref().is_some_and(|g| g.dirty) {
        warnings.push(
            "the evidence was captured from a Git working tree with uncommitted changes; the recorded commit alone does not identify the code".into(),
        );
    }
    if manifest.execution.exit_code != 0 {
        warnings.push(format!(
            "the recorded run exited with status {}",
            manifest.execution.exit_code
        ));
    }
    if manifest.environment.source.as_deref() == Some(source::SCIPROOF_PROCESS) {
        warnings.push(
            "the recorded Python version and packages describe the interpreter that ran SciProof, not necessarily the one that ran the command".into(),
        );
    }
    warnings
}

/// Verifies a manifest: integrity of inputs, outputs and snapshots, then (when asked) the rerun.
pub fn verify(request: &VerifyRequest) -> Result<Report> {
    verify_loaded(request).map(|v| v.report)
}

/// [`verify`], also returning the manifest as read and what was recovered first.
///
/// The manifest is read once and everything (the signature included) is checked on those
/// bytes. A rerun holds the evidence's lock from before the read to the end. Without a rerun
/// no lock is taken; a verification that does not pass while another sciproof is changing the
/// evidence (or that finds the manifest replaced meanwhile) waits for it and reads again, so a
/// reader never reports a half-written state.
pub fn verify_loaded(request: &VerifyRequest) -> Result<Verification> {
    if let Some(r) = &request.rerun {
        if !(r.timeout.is_finite() && r.timeout > 0.0) {
            return Err(Error::Verify(
                "timeout must be a positive number of seconds".into(),
            ));
        }
        if !r.pass_env.is_empty() && !r.clean_env {
            return Err(Error::Verify(
                "--pass-env needs --clean-env (without it nothing is filtered)".into(),
            ));
        }
        let (evidence, recovered) = Transaction::open(&request.manifest, Op::Rerun, request.wait)?;
        let loaded = crate::manifest::load(&request.manifest)?;
        let mut report = check(&loaded, request, Some(evidence))?;
        // Only the command can have touched it while the lock was held.
        if Identity::now(&request.manifest) != Some(loaded.identity) {
            report.warnings.push(format!(
                "the command changed or removed {} while it ran: this report is about the manifest as it was read before the run",
                crate::escape::terminal::safe_text(&loaded.file_name, 200)
            ));
        }
        return Ok(Verification {
            report,
            loaded,
            recovered: recovered.into_iter().collect(),
        });
    }
    let mut recovered: Vec<String> = settle(&request.manifest, request.wait)?
        .into_iter()
        .collect();
    let mut attempts = 0;
    loop {
        let loaded = crate::manifest::load(&request.manifest)?;
        let report = check(&loaded, request, None)?;
        attempts += 1;
        let disturbed = report.status() != Status::Pass
            && (in_progress(&request.manifest)
                || Identity::now(&request.manifest) != Some(loaded.identity));
        if !disturbed || attempts >= 5 {
            return Ok(Verification {
                report,
                loaded,
                recovered,
            });
        }
        recovered.extend(settle(&request.manifest, request.wait)?);
    }
}

/// Every check of one verification of `loaded`.
fn check(
    loaded: &Loaded,
    request: &VerifyRequest,
    evidence: Option<Transaction>,
) -> Result<Report> {
    let (manifest, base) = (&loaded.manifest, &loaded.base);
    let mut report = Report::new(&manifest.name, request.rerun.is_some());
    if let Some(signers) = &request.allowed_signers {
        let result = crate::signing::check_signature(
            &request.manifest,
            &loaded.bytes,
            signers,
            crate::timestamp::now_unix(),
        );
        report.signature = Some(result.to_json());
        let status = match result.status {
            "good" => Status::Pass,
            "bad" => Status::Fail,
            _ => Status::Inconclusive,
        };
        let message = result.message.clone();
        report.add(
            status,
            "manifest signature",
            message,
            Some(crate::report::Evidence::Signature(result)),
        );
    }
    let inputs_intact = integrity::check_inputs(base, manifest, &mut report, request.progress);
    let checked = integrity::check_outputs(base, manifest, &mut report, request.progress);
    let intact = claims::intact_outputs(manifest, &report);
    claims::check_claims(
        base,
        manifest,
        &mut report,
        claims::Phase::Recorded,
        &intact,
    );
    report.warnings.extend(recorded_warnings(manifest));
    match (&request.rerun, evidence) {
        (Some(options), Some(evidence)) => rerun::rerun(
            base,
            manifest,
            &checked,
            inputs_intact,
            &mut report,
            options,
            request.progress,
            evidence,
        )?,
        _ => report.notes.push(NOTE_INTEGRITY_ONLY.into()),
    }
    if let Some(policy) = &request.policy {
        crate::policy::apply_policy(
            policy,
            manifest,
            &mut report,
            crate::timestamp::now_unix() as f64,
        );
    }
    Ok(report)
}

/// Checks only the manifest's claims on the recorded outputs (`sciproof claims check`). The
/// outputs the claims are about are still hashed, because a claim about a file that no longer
/// matches its evidence is not judged; those digest checks are not part of the report.
pub fn verify_claims(request: &VerifyRequest) -> Result<Report> {
    settle(&request.manifest, request.wait)?;
    let loaded = crate::manifest::load(&request.manifest)?;
    let (manifest, base) = (&loaded.manifest, &loaded.base);
    let mut scratch = Report::new(&manifest.name, false);
    let claimed: std::collections::HashSet<&str> =
        manifest.claims.iter().map(|c| c.output.as_str()).collect();
    let mut subset = manifest.clone();
    subset.outputs.retain(|o| claimed.contains(o.path.as_str()));
    integrity::check_outputs(base, &subset, &mut scratch, request.progress);
    let intact = claims::intact_outputs(&subset, &scratch);
    let mut report = Report::new(&manifest.name, false);
    claims::check_claims(
        base,
        manifest,
        &mut report,
        claims::Phase::Recorded,
        &intact,
    );
    report.notes.push(NOTE_INTEGRITY_ONLY.into());
    Ok(report)
}
