//! The claim-check record and crate (`reproducible.science/claim-check/0.1-experimental`):
//! what a verification checked, in the format of `repro` (reproducible-science 0.6.1).
//!
//! [`record`] is the record model and its JSON Lines form, [`native`] sciproof's own closed list
//! of outcome words, [`produce`] turns a verification of a manifest into records (one per claim
//! per phase), [`mod@write`] records into a crate, [`mod@read`] a crate back into records with every
//! problem listed.
//!
//! ## sciproof's terms
//!
//! A `ClaimCheck` written by sciproof carries the predicate the profile has no word for, under
//! `https://docs.rs/sciproof/latest/sciproof/checkcrate/index.html#<term>`:
//!
//! | term | value |
//! | --- | --- |
//! | `sciproofPhase` | `recorded` (the pinned output) or `rerun` (the re-run's output) |
//! | `sciproofLocation` | the claim's location as written (`$.a[0].b`, `r2c1`, `data[1, 2]`) |
//! | `sciproofOp` | `==`, `!=`, `<`, `<=`, `>`, `>=`, `~=`, or `printed` |
//! | `sciproofValue` | the claim's value as JSON text (`0.9`, `"ok"`, `true`, `null`) |
//! | `sciproofRtol`, `sciproofAtol` | the tolerances of `~=` |
//! | `sciproofScale` | the factor of a printed claim |
//! | `sciproofSignature` | on the manifest's `File`: its signature file (`NAME.sciproof.json.sig`) |

pub mod native;
pub mod produce;
pub mod read;
pub mod record;
pub mod vocab;
pub mod write;

pub use record::{CheckRecord, FileRead};

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Why a claim-check crate cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CrateError {
    /// The crate's file cannot be read (missing, too large, not a regular file).
    #[error("{0}")]
    Unreadable(String),
    /// The file is not a claim-check crate.
    #[error("{}: {source}", .file.display())]
    NotACrate {
        /// The crate's metadata file.
        file: PathBuf,
        /// Why it is not one.
        #[source]
        source: read::NotACrate,
    },
    /// The records cannot become a crate.
    #[error(transparent)]
    Records(#[from] write::WriteError),
    /// Something that is not a claim-check crate is where the crate would go.
    #[error("{} exists and is not a claim-check crate; it was left as it is (move it away, or write the crate elsewhere with -o)", .0.display())]
    Occupied(PathBuf),
}

/// The records of a verification of the manifest `loaded` (as it was read, once) that
/// produced `report`: `checked_at` (RFC 3339) is written into every record; the manifest's
/// folder is the root that paths are relative to.
pub fn records_of(
    loaded: &crate::manifest::Loaded,
    report: &crate::report::Report,
    checked_at: &str,
) -> Result<Vec<CheckRecord>> {
    let name = loaded.file_name.clone();
    let signature_path = loaded.base.join(format!("{name}.sig"));
    let manifest_signature =
        crate::untrusted::read(&signature_path, crate::untrusted::Kind::Signature)
            .ok()
            .map(|sig| (format!("{name}.sig"), crate::hash::sha256_bytes(&sig)));
    let ctx = produce::Context {
        base: &loaded.base,
        manifest: &loaded.manifest,
        manifest_path: name,
        manifest_digest: loaded.sha256(),
        manifest_signature,
        checked_at: checked_at.to_string(),
        rerun_outputs_dir: report.rerun_outputs_dir.clone(),
        rerun_identical: report.rerun_identical.clone(),
        digests: Default::default(),
    };
    Ok(produce::records(&ctx, report))
}

/// Records as JSON Lines (one compact object per line, each ending with a newline).
pub fn to_json_lines(records: &[CheckRecord]) -> String {
    let mut out = String::new();
    for r in records {
        out.push_str(&r.to_line());
        out.push('\n');
    }
    out
}

/// Writes the crate of `records` to `target`: a folder gets `ro-crate-metadata.json`, a path
/// ending in `.json` is the file itself. An existing file there is replaced only if it is a
/// claim-check crate (anything else is refused, so nothing of the user's is overwritten).
/// Returns the path written.
pub fn save_crate(records: &[CheckRecord], target: &Path) -> Result<PathBuf> {
    let text = write::to_crate(records).map_err(CrateError::from)?;
    let file = if target.extension().is_some_and(|e| e == "json") {
        target.to_path_buf()
    } else {
        std::fs::create_dir_all(target).map_err(|e| Error::write(target.display(), e))?;
        target.join("ro-crate-metadata.json")
    };
    if file.exists() && !is_claim_check_crate(&file) {
        return Err(CrateError::Occupied(file).into());
    }
    crate::manifest::write_atomic(&file, text.as_bytes())?;
    Ok(file)
}

/// Whether the file is a crate whose root conforms to the claim-check profile.
fn is_claim_check_crate(path: &Path) -> bool {
    let Ok(text) = crate::untrusted::read_text(path, crate::untrusted::Kind::Crate) else {
        return false;
    };
    let Ok(crate::json::Value::Object(doc)) = crate::json::parse(&text) else {
        return false;
    };
    let Some(graph) = doc.get("@graph").and_then(crate::json::Value::as_array) else {
        return false;
    };
    graph
        .iter()
        .filter_map(crate::json::Value::as_object)
        .any(|e| {
            e.get("@id").and_then(crate::json::Value::as_str) == Some("./")
                && crate::json::to_string_compact(
                    e.get("conformsTo").unwrap_or(&crate::json::Value::Null),
                )
                .contains(write::PROFILE)
        })
}
