//! `sciproof update`: capture the recorded experiment again with exactly the declarations of its
//! manifest (re-baseline), replace the evidence, and show what changed.
//!
//! The user's current outputs are moved aside first (so the new evidence is made by this run)
//! and put back if the capture fails or is interrupted; the old manifest and snapshots stay
//! untouched unless the capture succeeds (see the [commit protocol](crate::commit)).

use crate::capture::{CaptureRequest, CaptureResult, ToleranceSetting};
use crate::claims::{Claim, Op as ClaimOp};
use crate::commit::evidence::{Transaction, describe_undo};
use crate::commit::journal::Op;
use crate::commit::lock::Wait;
use crate::diff::{Diff, Side};
use crate::error::{Error, Result};
use crate::json;
use crate::manifest::{Compare, Loaded, MANIFEST_SUFFIX, Manifest, snapshot_dir_name};
use crate::progress::Progress;
use crate::pyfmt::float_repr;
use crate::verify::rerun::Confirm;
use std::path::{Path, PathBuf};

/// The `--claim` expression that re-creates `claim` (round-trips through the parser).
pub fn claim_expression(claim: &Claim) -> String {
    match claim.op {
        ClaimOp::Printed => {
            let mut text = format!(
                "{} ~= {} printed",
                claim.location,
                claim.value.as_str().unwrap_or_default()
            );
            if let Some(scale) = &claim.scale {
                text.push_str(&format!(" scale={scale}"));
            }
            text
        }
        op => {
            let mut text = format!(
                "{} {} {}",
                claim.location,
                op.as_str(),
                json::to_string_compact(&claim.value)
            );
            if let Some((rtol, atol)) = claim.tolerance {
                text.push_str(&format!(
                    " rtol={} atol={}",
                    float_repr(rtol),
                    float_repr(atol)
                ));
            }
            text
        }
    }
}

/// The capture request that repeats `manifest`'s declarations in `base`.
pub fn declarations_of<'a>(
    manifest: &Manifest,
    base: &Path,
    note: Option<String>,
    timeout: Option<f64>,
    progress: &'a dyn Progress,
) -> CaptureRequest<'a> {
    let mut exact = Vec::new();
    let mut numeric = Vec::new();
    let mut pairs: Vec<((f64, f64), usize)> = Vec::new();
    for o in &manifest.outputs {
        match &o.compare {
            Compare::Exact => exact.push(o.path.clone()),
            Compare::Numeric { rtol, atol, .. } => {
                numeric.push((o.path.clone(), (*rtol, *atol)));
                match pairs.iter_mut().find(|(p, _)| *p == (*rtol, *atol)) {
                    Some((_, n)) => *n += 1,
                    None => pairs.push(((*rtol, *atol), 1)),
                }
            }
        }
    }
    // the most common pair (first in order on ties) is the default; the others are per-file
    let default = pairs
        .iter()
        .fold(None, |best: Option<((f64, f64), usize)>, p| match best {
            Some(b) if b.1 >= p.1 => Some(b),
            _ => Some(*p),
        });
    let (rtol, atol) = default.map_or(
        (crate::capture::DEFAULT_RTOL, crate::capture::DEFAULT_ATOL),
        |d| d.0,
    );
    let tolerances = numeric
        .iter()
        .filter(|(_, t)| *t != (rtol, atol))
        .map(|(p, (r, a))| {
            (
                p.clone(),
                ToleranceSetting {
                    rtol: Some(*r),
                    atol: Some(*a),
                },
            )
        })
        .collect();
    let streams = [&manifest.execution.stdout, &manifest.execution.stderr];
    let max_log_bytes = if streams.iter().any(|s| s.truncated) {
        streams
            .iter()
            .filter(|s| s.truncated)
            .map(|s| s.text.len() as u64)
            .max()
            .unwrap_or(0)
    } else {
        streams
            .iter()
            .map(|s| s.size)
            .max()
            .unwrap_or(0)
            .max(crate::capture::DEFAULT_MAX_LOG_BYTES)
    };
    CaptureRequest {
        name: manifest.name.clone(),
        argv: manifest.command.argv.clone(),
        base: base.to_path_buf(),
        inputs: manifest.inputs.iter().map(|i| i.path.clone()).collect(),
        outputs: exact,
        numeric_outputs: numeric.into_iter().map(|(p, _)| p).collect(),
        rtol,
        atol,
        tolerances,
        timeout,
        max_log_bytes,
        force: true,
        claims: manifest
            .claims
            .iter()
            .map(|c| (c.output.clone(), claim_expression(c)))
            .collect(),
        note: note.or_else(|| manifest.note.clone()),
        record_hardware: manifest.environment.hardware.is_some(),
        progress,
        // The caller holds the evidence's lock already.
        wait: Wait::No,
        trace: None,
    }
}

/// The confirmation text (also what `--dry-run` prints).
pub fn prompt(manifest: &Manifest, base: &Path) -> String {
    crate::consent::prompt(
        manifest,
        base,
        &crate::consent::Consequences {
            purpose: " and replace the evidence with the result",
            details: vec![
                format!(
                    "replaces: {}{MANIFEST_SUFFIX} and {}/",
                    manifest.name,
                    snapshot_dir_name(&manifest.name)
                ),
                format!(
                    "outputs removed first (restored if the capture fails): {}",
                    crate::consent::outputs_listed(manifest)
                ),
            ],
            environment: ", with all of your environment variables. ".into(),
        },
    )
}

/// A finished update.
pub struct Updated {
    /// The new capture.
    pub capture: CaptureResult,
    /// What changed from the old evidence.
    pub diff: Diff,
    /// Warnings beyond the capture's (a stale signature, the previous evidence kept).
    pub warnings: Vec<String>,
}

/// Loads the manifest at `path` and checks that it is named after its experiment.
pub fn load_for_update(path: &Path) -> Result<Loaded> {
    let loaded = crate::manifest::load(path)?;
    let expected = format!("{}{MANIFEST_SUFFIX}", loaded.manifest.name);
    if loaded.file_name != expected {
        return Err(Error::Manifest(format!(
            "{} is not named after its experiment ({expected}); rename it back before updating",
            loaded.file_name
        )));
    }
    Ok(loaded)
}

/// What to update, and how.
pub struct UpdateRequest<'a> {
    /// The manifest file.
    pub manifest: PathBuf,
    /// Replaces the recorded note.
    pub note: Option<String>,
    /// Seconds before the command is stopped.
    pub timeout: Option<f64>,
    /// Asks the user, given the prompt, whether to go on (`None`: already confirmed).
    pub confirm: Option<Confirm<'a>>,
    /// What to do when another sciproof is changing this evidence.
    pub wait: Wait<'a>,
    /// Receives progress.
    pub progress: &'a dyn Progress,
}

/// Re-captures the experiment of the manifest: under the evidence's lock, reads the manifest
/// (once), asks for confirmation with exactly the command that will run, moves the declared
/// outputs aside, captures again with the same declarations (staged), computes the difference
/// from the old evidence and commits. Any failure or interruption before the commit puts the
/// outputs back as they were. `Ok(None)` when the user declined.
pub fn update(req: &UpdateRequest) -> Result<Option<Updated>> {
    let (mut evidence, recovered) = Transaction::open(&req.manifest, Op::Update, req.wait)?;
    let loaded = load_for_update(&req.manifest)?;
    let manifest = &loaded.manifest;
    let base = loaded.base.clone();
    if let Some(confirm) = req.confirm
        && !confirm(&prompt(manifest, &base))?
    {
        return Ok(None);
    }
    let mut outputs = Vec::new();
    for o in &manifest.outputs {
        if crate::store::object_url::is_object_url(&o.path) {
            // Not moved aside: the command overwrites it in place, so only an output whose
            // recorded object stays in the store as a pinned version may be updated.
            if o.remote_without_version() {
                return Err(Error::Capture(format!(
                    "the output {} is in object storage without a pinned version, so running the command again would overwrite the recorded object with no way back; enable versioning on its bucket and capture again",
                    o.path
                )));
            }
            continue;
        }
        crate::paths::resolve_inside(&base, &o.path).map_err(|e| Error::Manifest(e.0))?;
        outputs.push(o.path.clone());
    }
    evidence.move_aside(&outputs)?;
    let request = declarations_of(manifest, &base, req.note.clone(), req.timeout, req.progress);
    let staged = match crate::capture::record(&request, &mut evidence) {
        Ok(staged) => staged,
        Err(e) => {
            let restored = evidence.undo();
            return Err(match crate::capture::interrupted_as(e, "") {
                Error::Interrupted { signal, .. } => Error::Interrupted {
                    signal,
                    detail: describe_undo(&restored),
                },
                Error::Capture(m) => Error::Capture(format!("{m} ({})", describe_undo(&restored))),
                other => other,
            });
        }
    };
    let staging = evidence.staging_base()?;
    let diff = crate::diff::between(
        Side {
            manifest,
            base: &base,
            file: &loaded.file_name,
        },
        Side {
            manifest: &staged.manifest,
            base: &staging,
            file: &loaded.file_name,
        },
        false,
    );
    let failed = staged.manifest.execution.exit_code != 0;
    let gone = evidence.gone();
    let kept = evidence.commit(&staged.text, Some(&loaded.bytes), failed)?;
    let mut warnings = Vec::new();
    if let Some(kept) = kept {
        warnings.push(format!(
            "the command failed; the previous evidence and outputs are kept in {kept}/ (at their own paths); move them back to restore the old baseline"
        ));
        // The previous outputs the command removed are not among them.
        warnings.extend(
            gone.into_iter()
                .map(|g| format!("{g}, so {kept}/ does not hold it")),
        );
    }
    warnings.extend(crate::capture::stale_signature(&req.manifest));
    Ok(Some(Updated {
        capture: CaptureResult {
            manifest_path: req.manifest.clone(),
            manifest: staged.manifest,
            warnings: staged.warnings,
            recovered,
        },
        diff,
        warnings,
    }))
}
