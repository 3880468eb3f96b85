//! `sciproof list`: the manifests in a folder (recursively with `-r`), newest first, with what
//! they record, and with `--check` the integrity verdict of each (computed in parallel).

use crate::error::{Error, Result};
use crate::escape::terminal::safe_text;

use crate::manifest::MANIFEST_SUFFIX;
use crate::progress::NoProgress;
use crate::report::Status;
use crate::verify::{VerifyRequest, verify_loaded};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// At most this many manifests are listed.
pub const MAX_MANIFESTS: usize = 1000;

/// One manifest of the listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Path relative to the listed folder, `/`-separated.
    pub file: String,
    /// The experiment's name.
    pub name: Option<String>,
    /// When it was captured.
    pub created_at: Option<String>,
    /// The command's exit code.
    pub exit_code: Option<i64>,
    /// The Git commit (12 characters).
    pub commit: Option<String>,
    /// Whether the working tree had changes.
    pub dirty: Option<bool>,
    /// Inputs recorded.
    pub inputs: Option<usize>,
    /// Outputs recorded.
    pub outputs: Option<usize>,
    /// Claims recorded.
    pub claims: Option<usize>,
    /// The note.
    pub note: Option<String>,
    /// Whether a signature file is beside it.
    pub signed: bool,
    /// With `--check`: the integrity verdict.
    pub verdict: Option<Status>,
    /// Why the manifest is invalid.
    pub error: Option<String>,
}

fn skipped(name: &str) -> bool {
    name.starts_with('.') || matches!(name, "node_modules" | "target" | "__pycache__")
}

fn find(dir: &Path, recursive: bool) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            if kind.is_dir() {
                if recursive && !skipped(&name) {
                    stack.push(entry.path());
                }
            } else if kind.is_file() && name.ends_with(MANIFEST_SUFFIX) {
                found.push(entry.path());
                if found.len() > MAX_MANIFESTS {
                    return Err(Error::Folder(format!(
                        "more than {MAX_MANIFESTS} manifests; list a smaller directory"
                    )));
                }
            }
        }
    }
    found.sort();
    Ok(found)
}

/// What `sciproof list` lists.
#[derive(Debug, Clone)]
pub struct ListRequest {
    /// The folder.
    pub dir: PathBuf,
    /// Also subfolders (hidden ones, `node_modules`, `target` and `__pycache__` are skipped).
    pub recursive: bool,
    /// Verify the integrity of each manifest.
    pub check: bool,
}

/// The manifests of a folder, newest first (invalid ones last), with their verdicts when
/// they were checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Ledger {
    /// One entry per manifest.
    pub entries: Vec<Entry>,
    /// Whether the integrity of each was verified.
    pub checked: bool,
}

impl Ledger {
    /// The worst verdict: FAIL if any invalid or FAIL, else INCONCLUSIVE if any, else PASS if any
    /// verdict; `None` without `--check`.
    pub fn result(&self) -> Option<Status> {
        let entries = &self.entries;
        if !self.checked {
            return None;
        }
        if entries
            .iter()
            .any(|e| e.error.is_some() || e.verdict == Some(Status::Fail))
        {
            Some(Status::Fail)
        } else if entries
            .iter()
            .any(|e| e.verdict == Some(Status::Inconclusive))
        {
            Some(Status::Inconclusive)
        } else if entries.iter().any(|e| e.verdict.is_some()) {
            Some(Status::Pass)
        } else {
            None
        }
    }

    /// `N manifest(s): a PASS, b FAIL, c invalid`.
    pub fn summary(&self) -> String {
        let entries = &self.entries;
        let mut parts = Vec::new();
        for s in [Status::Pass, Status::Fail, Status::Inconclusive] {
            let n = entries.iter().filter(|e| e.verdict == Some(s)).count();
            if n > 0 {
                parts.push(format!("{n} {}", s.as_str()));
            }
        }
        let invalid = entries.iter().filter(|e| e.error.is_some()).count();
        if invalid > 0 {
            parts.push(format!("{invalid} invalid"));
        }
        let tail = if parts.is_empty() {
            String::new()
        } else {
            format!(": {}", parts.join(", "))
        };
        format!("{} manifest(s){tail}", entries.len())
    }

    /// Manifests that are invalid or whose verification failed.
    pub fn failures(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.error.is_some() || e.verdict == Some(Status::Fail))
            .count()
    }

    /// Manifests whose verification was inconclusive.
    pub fn inconclusive(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.verdict == Some(Status::Inconclusive))
            .count()
    }
}

/// Lists the manifests below the request's folder; with `check`, verifies the integrity of each.
pub fn list(request: &ListRequest) -> Result<Ledger> {
    let ListRequest {
        dir,
        recursive,
        check,
    } = request;
    let (dir, recursive, check) = (dir.as_path(), *recursive, *check);
    if !dir.is_dir() {
        return Err(Error::Folder(format!(
            "not a directory: {}",
            crate::paths::resolve_base(dir).display()
        )));
    }
    let files = find(dir, recursive)?;
    let mut entries: Vec<Entry> = files
        .par_iter()
        .map(|path| {
            let file = path
                .strip_prefix(dir)
                .unwrap_or(path)
                .to_string_lossy()
                .replace('\\', "/");
            let signed = crate::signing::signature_path(path).is_file();
            // Read once: with --check the verification's own read is the one listed.
            let read = if check {
                verify_loaded(&VerifyRequest::integrity(path, &NoProgress))
                    .map(|v| (v.loaded.manifest, Some(v.report.status())))
            } else {
                crate::manifest::load(path).map(|l| (l.manifest, None))
            };
            match read {
                Err(e) => Entry {
                    file,
                    name: None,
                    created_at: None,
                    exit_code: None,
                    commit: None,
                    dirty: None,
                    inputs: None,
                    outputs: None,
                    claims: None,
                    note: None,
                    signed,
                    verdict: None,
                    error: Some(safe_text(&e.to_string(), 300)),
                },
                Ok((m, verdict)) => Entry {
                    file,
                    name: Some(m.name.clone()),
                    created_at: Some(m.created_at.clone()),
                    exit_code: Some(m.execution.exit_code),
                    commit: m.git.as_ref().map(|g| g.commit.chars().take(12).collect()),
                    dirty: m.git.as_ref().map(|g| g.dirty),
                    inputs: Some(m.inputs.len()),
                    outputs: Some(m.outputs.len()),
                    claims: Some(m.claims.len()),
                    note: m.note.clone(),
                    signed,
                    verdict,
                    error: None,
                },
            }
        })
        .collect();
    // newest first (by capture time), invalid ones last
    entries.sort_by(|a, b| {
        let key = |e: &Entry| {
            (
                e.created_at
                    .as_deref()
                    .and_then(|t| crate::timestamp::parse(t).ok())
                    .unwrap_or(f64::NEG_INFINITY),
                e.file.clone(),
            )
        };
        let (ka, kb) = (key(a), key(b));
        kb.0.partial_cmp(&ka.0)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(kb.1.cmp(&ka.1))
    });
    Ok(Ledger {
        entries,
        checked: check,
    })
}
