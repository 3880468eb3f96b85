//! `check-policy`: a policy file validated, with its rules (nothing is verified).

use crate::error::Result;
use crate::policy::Policy;
use std::path::Path;

/// Reads and validates the policy file at `path` (see [`crate::policy::load_policy`]).
pub fn check_policy(path: &Path) -> Result<Policy> {
    crate::policy::load_policy(path)
}
