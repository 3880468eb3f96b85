//! `verify`: the evidence checked (and with a rerun, reproduced), then optionally saved as a
//! JSON report and as a claim-check crate.

use crate::checkcrate::{records_of, save_crate as write_crate};
use crate::error::Result;
use crate::render::OutputFormat;
use crate::report::Report;
use crate::verify::{Verification, VerifyRequest, verify_loaded};
use std::path::{Path, PathBuf};

/// Verifies a manifest (see [`crate::verify::verify_loaded`]): the report, the manifest as it
/// was read (once), and what was recovered first.
pub fn verify(request: &VerifyRequest) -> Result<Verification> {
    verify_loaded(request)
}

/// Writes the JSON report to `path` atomically (`--save-json`).
pub fn save_report(report: &Report, path: &Path) -> Result<()> {
    let json = crate::render::to_string(report, OutputFormat::Json);
    crate::manifest::write_atomic(path, json.as_bytes())
}

/// Writes the claim-check crate of what `verification` checked to `target` (a folder, or a
/// `.json` file), stamped `checked_at`. `None` when the manifest declares no claims (there is
/// no check a crate could describe).
pub fn save_crate(
    verification: &Verification,
    target: &Path,
    checked_at: &str,
) -> Result<Option<PathBuf>> {
    let records = records_of(&verification.loaded, &verification.report, checked_at)?;
    if records.is_empty() {
        return Ok(None);
    }
    write_crate(&records, target).map(Some)
}
