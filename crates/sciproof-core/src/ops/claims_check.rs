//! `claims check`: only the claims, on the recorded outputs.

use crate::error::Result;
use crate::report::ClaimsCheck;
use crate::verify::{VerifyRequest, verify_claims};

/// Evaluates the manifest's claims on its recorded outputs (see
/// [`crate::verify::verify_claims`]).
pub fn check_claims(request: &VerifyRequest) -> Result<ClaimsCheck> {
    verify_claims(request).map(|report| ClaimsCheck { report })
}
