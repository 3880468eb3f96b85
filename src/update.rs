//! `sciproof update`: capture the recorded experiment again with exactly the declarations of its
//! manifest (re-baseline), replace the evidence, and show what changed.
//!
//! The user's current outputs are moved aside first (so the new evidence is made by this run)
//! and put back if the capture fails; the old manifest and snapshots stay untouched unless the
//! capture succeeds (capture replaces them atomically).

use crate::capture::{CaptureRequest, CaptureResult, ToleranceSetting, capture};
use crate::claims::{Claim, Op};
use crate::diff::{Diff, diff_manifests};
use crate::error::{Error, Result, strerror};
use crate::json;
use crate::manifest::{Compare, MANIFEST_SUFFIX, Manifest, load_manifest, snapshot_dir_name};
use crate::progress::Progress;
use crate::pyfmt::float_repr;
use crate::text::safe_text;
use std::path::{Path, PathBuf};

/// The `--claim` expression that re-creates `claim` (round-trips through the parser).
pub fn claim_expression(claim: &Claim) -> String {
    match claim.op {
        Op::Printed => {
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
    }
}

/// The confirmation text (also what `--dry-run` prints).
pub fn prompt(manifest: &Manifest, base: &Path) -> String {
    let command: Vec<String> = manifest
        .command
        .argv
        .iter()
        .map(|a| safe_text(a, 200))
        .collect();
    let outputs: Vec<String> = manifest
        .outputs
        .iter()
        .map(|o| safe_text(&o.path, 200))
        .collect();
    format!(
        "SciProof is about to EXECUTE the command recorded in this manifest and replace the evidence with the result:\n\n    {}\n\n    working directory: {}\n    replaces: {}{MANIFEST_SUFFIX} and {}/\n    outputs removed first (restored if the capture fails): {}\n\nIt will run with your current user's permissions and can read, change or delete anything you can, with all of your environment variables. A manifest is untrusted input: only continue if you trust its source and have read the command above.",
        command.join(" "),
        base.display(),
        manifest.name,
        snapshot_dir_name(&manifest.name),
        if outputs.is_empty() {
            "(none)".to_string()
        } else {
            outputs.join(", ")
        }
    )
}

/// A finished update.
pub struct Updated {
    pub capture: CaptureResult,
    pub diff: Diff,
    /// Warnings beyond the capture's (a stale signature).
    pub warnings: Vec<String>,
}

/// Loads the manifest at `path` and checks that it is named after its experiment.
pub fn load_for_update(path: &Path) -> Result<(Manifest, PathBuf)> {
    let manifest = load_manifest(path)?;
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let expected = format!("{}{MANIFEST_SUFFIX}", manifest.name);
    if file != expected {
        return Err(Error::Usage(format!(
            "{file} is not named after its experiment ({expected}); rename it back before updating"
        )));
    }
    let base = crate::paths::resolve_base(path)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    Ok((manifest, base))
}

/// Re-captures the experiment of the manifest at `path` (after confirmation by the caller) and
/// returns the new evidence and its difference from the old.
pub fn update(
    path: &Path,
    note: Option<String>,
    timeout: Option<f64>,
    progress: &dyn Progress,
) -> Result<Updated> {
    let (manifest, base) = load_for_update(path)?;
    let io = |p: &Path, e: std::io::Error| Error::Write {
        path: p.display().to_string(),
        reason: strerror(&e),
    };
    // keep a copy of the old evidence to compare with
    let old = tempfile::tempdir().map_err(|e| io(Path::new("temp"), e))?;
    let old_manifest = old
        .path()
        .join(format!("{}{MANIFEST_SUFFIX}", manifest.name));
    std::fs::copy(path, &old_manifest).map_err(|e| io(path, e))?;
    let snapshots = base.join(snapshot_dir_name(&manifest.name));
    if snapshots.is_dir() {
        let target = old.path().join(snapshot_dir_name(&manifest.name));
        std::fs::create_dir_all(&target).map_err(|e| io(&target, e))?;
        for entry in std::fs::read_dir(&snapshots)
            .map_err(|e| io(&snapshots, e))?
            .flatten()
        {
            std::fs::copy(entry.path(), target.join(entry.file_name()))
                .map_err(|e| io(&entry.path(), e))?;
        }
    }
    // move the current outputs aside; put them back if the capture fails
    let _defer = crate::runner::DeferInterrupts::new();
    let aside = tempfile::Builder::new()
        .prefix(".sciproof-rerun-update-")
        .tempdir_in(&base)
        .map_err(|e| io(&base, e))?;
    let mut moved = Vec::new();
    for (i, o) in manifest.outputs.iter().enumerate() {
        let target =
            crate::paths::resolve_inside(&base, &o.path).map_err(|e| Error::Manifest(e.0))?;
        if std::fs::symlink_metadata(&target).is_ok() {
            let to = aside.path().join(i.to_string());
            std::fs::rename(&target, &to).map_err(|e| io(&target, e))?;
            moved.push((to, target));
        }
    }
    let request = declarations_of(&manifest, &base, note, timeout, progress);
    let captured = match capture(&request) {
        Ok(c) => c,
        Err(e) => {
            for (from, to) in &moved {
                let _ = std::fs::remove_dir_all(to).or_else(|_| std::fs::remove_file(to));
                let _ = std::fs::rename(from, to);
            }
            return Err(e);
        }
    };
    let diff = diff_manifests(&old_manifest, path, false)?;
    let mut warnings = Vec::new();
    if captured.manifest.execution.exit_code != 0 {
        // The command now fails: keep the previous evidence and outputs where the user can
        // restore them from.
        let keep = aside.keep();
        let _ = std::fs::copy(
            &old_manifest,
            keep.join(format!("{}{MANIFEST_SUFFIX}", manifest.name)),
        );
        let old_snapshots = old.path().join(snapshot_dir_name(&manifest.name));
        if old_snapshots.is_dir() {
            let target = keep.join(snapshot_dir_name(&manifest.name));
            let _ = std::fs::create_dir_all(&target);
            for entry in std::fs::read_dir(&old_snapshots)
                .into_iter()
                .flatten()
                .flatten()
            {
                let _ = std::fs::copy(entry.path(), target.join(entry.file_name()));
            }
        }
        warnings.push(format!(
            "the command failed; the previous evidence and outputs are kept in {}/ (outputs by their position in the old manifest); move them back to restore the old baseline",
            keep.strip_prefix(&base).unwrap_or(&keep).display()
        ));
    }
    let sig = crate::signing::signature_path(path);
    if sig.is_file() {
        warnings.push(format!(
            "{} signs the OLD manifest and no longer matches; sign the new one with `sciproof sign`",
            sig.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
        ));
    }
    Ok(Updated {
        capture: captured,
        diff,
        warnings,
    })
}
