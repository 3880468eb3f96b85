//! `badge`: a verification, and an SVG badge of its verdict.

use crate::error::Result;
use crate::interrupt::Interrupted;
use crate::report::Status;
use crate::verify::VerifyRequest;
use std::path::PathBuf;

/// What to verify, and where the badge goes.
pub struct BadgeRequest<'a> {
    /// The verification (integrity, or with a rerun).
    pub verify: VerifyRequest<'a>,
    /// Where to write the badge.
    pub output: PathBuf,
    /// The day the badge shows (`YYYY-MM-DD`).
    pub day: String,
}

/// A badge written, or the signal that stopped the rerun before it was.
pub struct Badge {
    /// The verdict it shows.
    pub status: Status,
    /// Where it was written (`None`: interrupted, nothing was written).
    pub written: Option<PathBuf>,
    /// A termination signal that stopped the rerun; then no badge was written.
    pub interrupted: Option<Interrupted>,
    /// One line per interrupted operation that was completed or undone first.
    pub recovered: Vec<String>,
}

/// Verifies, then writes the badge atomically. An interrupted rerun writes no badge.
pub fn badge(request: &BadgeRequest) -> Result<Badge> {
    let verified = super::verify(&request.verify)?;
    let report = verified.report;
    let mut badge = Badge {
        status: report.status(),
        written: None,
        interrupted: report.interrupted,
        recovered: verified.recovered,
    };
    if badge.interrupted.is_none() {
        let svg = crate::badge::render(report.status(), report.rerun_executed, &request.day);
        crate::manifest::write_atomic(&request.output, svg.as_bytes())?;
        badge.written = Some(request.output.clone());
    }
    Ok(badge)
}
