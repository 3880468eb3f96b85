//! `capture`: validate the request, plan, run the command, hash, snapshot, commit.

use crate::capture::{
    CaptureRequest, CaptureResult, fail, interrupted_as, record_planned, stale_signature,
    validate_request,
};
use crate::commit::evidence::Transaction;
use crate::commit::journal::Op;
use crate::error::Result;
use crate::manifest::MANIFEST_SUFFIX;
use crate::paths::resolve_base;

/// Runs the command of `req` once and writes `NAME.sciproof.json` in `req.base`.
///
/// A command that exits with a nonzero status is still recorded (the caller decides the exit
/// status). Refusals (bad request, the command could not run, it timed out, it modified an
/// input, a declared output is missing after a successful run) write nothing.
pub fn capture(req: &CaptureRequest) -> Result<CaptureResult> {
    let base = resolve_base(&req.base);
    let plan = validate_request(req, &base)?;
    let manifest_path = base.join(format!("{}{MANIFEST_SUFFIX}", req.name));
    let (mut evidence, recovered) = Transaction::open(&manifest_path, Op::Capture, req.wait)?;
    if std::fs::symlink_metadata(&manifest_path).is_ok() && !req.force {
        return fail(format!(
            "{}{MANIFEST_SUFFIX} already exists (use --force to overwrite it)",
            req.name
        ));
    }
    let staged = record_planned(req, &base, plan, &mut evidence)
        .map_err(|e| interrupted_as(e, "no evidence was written"))?;
    evidence.commit(&staged.text, None, false)?;
    let mut warnings = staged.warnings;
    warnings.extend(stale_signature(&manifest_path));
    Ok(CaptureResult {
        manifest_path,
        manifest: staged.manifest,
        warnings,
        recovered,
    })
}
