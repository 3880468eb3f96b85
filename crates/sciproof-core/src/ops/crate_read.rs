//! `crate read`: a claim-check crate read back into its records, with every way it departs
//! from the profile.

use crate::checkcrate::CrateError;
use crate::checkcrate::read::{ReadCrate, from_crate};
use crate::error::Result;
use crate::untrusted::{Kind, read_text};
use std::path::Path;

/// Reads the crate at `path`: a folder (its `ro-crate-metadata.json`) or the metadata file.
pub fn read_crate(path: &Path) -> Result<ReadCrate> {
    let file = if path.is_dir() {
        path.join("ro-crate-metadata.json")
    } else {
        path.to_path_buf()
    };
    let text = read_text(&file, Kind::Crate).map_err(|e| CrateError::Unreadable(e.to_string()))?;
    Ok(from_crate(&text).map_err(|source| CrateError::NotACrate { file, source })?)
}
