//! `update`: capture the recorded experiment again with the manifest's own declarations, and
//! say what changed.

use crate::error::Result;
use std::path::Path;

pub use crate::update::update;

/// What `update` would run and replace (`--dry-run`): the confirmation text it would show.
pub fn update_plan(manifest: &Path) -> Result<String> {
    let loaded = crate::update::load_for_update(manifest)?;
    Ok(crate::update::prompt(&loaded.manifest, &loaded.base))
}
