//! Verification: integrity of every declared file, aggregated conservatively into a [`Report`].
//!
//! Verify works relative to the manifest's folder (not the current directory) and never
//! executes anything unless a rerun is requested.

pub mod claims;
pub mod environment;
pub mod integrity;
pub mod rerun;

pub use rerun::{DEFAULT_TIMEOUT, RerunOptions};

use crate::error::{Error, Result};
use crate::manifest::{Manifest, load_manifest, source};
use crate::paths::resolve_base;
use crate::progress::Progress;
use crate::report::Report;
use std::path::{Path, PathBuf};

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

/// Loads the manifest and returns it with its base folder (the manifest's resolved parent).
pub fn load(manifest_path: &Path) -> Result<(Manifest, PathBuf)> {
    let resolved = resolve_base(manifest_path);
    let manifest = load_manifest(manifest_path)?;
    let base = resolved
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("/"));
    Ok((manifest, base))
}

/// Verifies a manifest: integrity of inputs, outputs and snapshots, then (when asked) the rerun.
pub fn verify(request: &VerifyRequest) -> Result<Report> {
    if let Some(r) = &request.rerun {
        if !(r.timeout.is_finite() && r.timeout > 0.0) {
            return Err(Error::Usage(
                "timeout must be a positive number of seconds".into(),
            ));
        }
        if !r.pass_env.is_empty() && !r.clean_env {
            return Err(Error::Usage(
                "--pass-env needs --clean-env (without it nothing is filtered)".into(),
            ));
        }
    }
    let (manifest, base) = load(&request.manifest)?;
    let mut report = Report::new(&manifest.name, request.rerun.is_some());
    if let Some(signers) = &request.allowed_signers {
        let result = crate::signing::check_signature(
            &request.manifest,
            signers,
            crate::timestamp::now_unix(),
        );
        report.signature = Some(result.to_json());
        let status = match result.status {
            "good" => crate::report::Status::Pass,
            "bad" => crate::report::Status::Fail,
            _ => crate::report::Status::Inconclusive,
        };
        let message = result.message.clone();
        report.add(
            status,
            "manifest signature",
            message,
            Some(crate::report::Evidence::Signature(result)),
        );
    }
    let inputs_intact = integrity::check_inputs(&base, &manifest, &mut report, request.progress);
    let checked = integrity::check_outputs(&base, &manifest, &mut report, request.progress);
    let intact = claims::intact_outputs(&manifest, &report);
    claims::check_claims(
        &base,
        &manifest,
        &mut report,
        claims::Phase::Recorded,
        &intact,
    );
    report.warnings.extend(recorded_warnings(&manifest));
    match &request.rerun {
        None => report.notes.push(NOTE_INTEGRITY_ONLY.into()),
        Some(options) => rerun::rerun(
            &base,
            &manifest,
            &checked,
            inputs_intact,
            &mut report,
            options,
            request.progress,
        )?,
    }
    if let Some(policy) = &request.policy {
        crate::policy::apply_policy(
            policy,
            &manifest,
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
    let (manifest, base) = load(&request.manifest)?;
    let mut scratch = Report::new(&manifest.name, false);
    let claimed: std::collections::HashSet<&str> =
        manifest.claims.iter().map(|c| c.output.as_str()).collect();
    let mut subset = manifest.clone();
    subset.outputs.retain(|o| claimed.contains(o.path.as_str()));
    integrity::check_outputs(&base, &subset, &mut scratch, request.progress);
    let intact = claims::intact_outputs(&subset, &scratch);
    let mut report = Report::new(&manifest.name, false);
    claims::check_claims(
        &base,
        &manifest,
        &mut report,
        claims::Phase::Recorded,
        &intact,
    );
    report.notes.push(NOTE_INTEGRITY_ONLY.into());
    Ok(report)
}
