//! `sciproof list`: the manifests in a folder (recursively with `-r`), newest first, with what
//! they record, and with `--check` the integrity verdict of each (computed in parallel).

use crate::error::{Error, Result};
use crate::escape::markdown::escape;
use crate::escape::terminal::safe_text;
use crate::escape::xml::attr;
use crate::json::{self, Object, Value};
use crate::manifest::{MANIFEST_SUFFIX, load_manifest};
use crate::progress::NoProgress;
use crate::report::Status;
use crate::verify::{VerifyRequest, verify};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// At most this many manifests are listed.
pub const MAX_MANIFESTS: usize = 1000;

/// One manifest of the listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Path relative to the listed folder, `/`-separated.
    pub file: String,
    pub name: Option<String>,
    pub created_at: Option<String>,
    pub exit_code: Option<i64>,
    pub commit: Option<String>,
    pub dirty: Option<bool>,
    pub inputs: Option<usize>,
    pub outputs: Option<usize>,
    pub claims: Option<usize>,
    pub note: Option<String>,
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
                    return Err(Error::Usage(format!(
                        "more than {MAX_MANIFESTS} manifests; list a smaller directory"
                    )));
                }
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Lists the manifests below `dir`; with `check`, verifies the integrity of each.
pub fn list(dir: &Path, recursive: bool, check: bool) -> Result<Vec<Entry>> {
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
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
            match load_manifest(path) {
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
                Ok(m) => {
                    let verdict = check.then(|| {
                        verify(&VerifyRequest::integrity(path, &NoProgress))
                            .map(|r| r.status())
                            .unwrap_or(Status::Fail)
                    });
                    Entry {
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
                    }
                }
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
    Ok(entries)
}

/// The worst verdict: FAIL if any invalid or FAIL, else INCONCLUSIVE if any, else PASS if any
/// verdict; `None` without `--check`.
pub fn result(entries: &[Entry], checked: bool) -> Option<Status> {
    if !checked {
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
pub fn summary(entries: &[Entry]) -> String {
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

/// The text form.
pub fn text(entries: &[Entry]) -> String {
    if entries.is_empty() {
        return "no manifests found\n".into();
    }
    let mut lines = Vec::new();
    for e in entries {
        let file = safe_text(&e.file, 300);
        if let Some(error) = &e.error {
            lines.push(format!("  {file}  INVALID: {error}"));
            continue;
        }
        let mut line = format!(
            "  {file}  captured {}  exit {}  in {}  out {}  claims {}",
            safe_text(e.created_at.as_deref().unwrap_or(""), 60),
            e.exit_code.unwrap_or(0),
            e.inputs.unwrap_or(0),
            e.outputs.unwrap_or(0),
            e.claims.unwrap_or(0)
        );
        if e.signed {
            line.push_str("  signed");
        }
        if let Some(commit) = &e.commit {
            line.push_str(&format!(
                "  git {}{}",
                safe_text(commit, 12),
                if e.dirty == Some(true) { "+dirty" } else { "" }
            ));
        }
        if let Some(v) = e.verdict {
            line.push_str(&format!("  {}", v.as_str()));
        }
        if let Some(note) = &e.note {
            line.push_str(&format!("  note: {}", safe_text(note, 40)));
        }
        lines.push(line);
    }
    lines.push(String::new());
    lines.push(format!("summary: {}", summary(entries)));
    lines.join("\n") + "\n"
}

/// The JSON form (`sciproof.list` 1.0); `result` is null without `--check`.
pub fn json_text(entries: &[Entry], checked: bool) -> String {
    let items: Vec<Value> = entries
        .iter()
        .map(|e| {
            Object::new()
                .with("file", &e.file)
                .with("name", e.name.clone())
                .with("created_at", e.created_at.clone())
                .with("exit_code", e.exit_code)
                .with("commit", e.commit.clone())
                .with("dirty", e.dirty)
                .with("inputs", e.inputs)
                .with("outputs", e.outputs)
                .with("claims", e.claims)
                .with("note", e.note.clone())
                .with("signed", e.signed)
                .with("verdict", e.verdict.map(|v| v.as_str()))
                .with("error", e.error.clone())
                .into()
        })
        .collect();
    let doc = Object::new()
        .with("schema", "sciproof.list")
        .with("schema_version", "1.0")
        .with("checked", checked)
        .with("summary", summary(entries))
        .with("result", result(entries, checked).map(|s| s.as_str()))
        .with("manifests", Value::Array(items));
    json::to_string_pretty(&doc.into()) + "\n"
}

/// The Markdown form.
pub fn markdown(entries: &[Entry]) -> String {
    let mut lines = vec![
        "## SciProof manifests".to_string(),
        String::new(),
        format!("> {}", escape(&summary(entries), 1000)),
        String::new(),
    ];
    lines.push("| File | Name | Captured | Exit | Git | Signed | Result |".into());
    lines.push("| --- | --- | --- | --- | --- | --- | --- |".into());
    for e in entries {
        if let Some(error) = &e.error {
            lines.push(format!(
                "| {} | | | | | | INVALID: {} |",
                escape(&e.file, 300),
                escape(error, 300)
            ));
            continue;
        }
        let git = e.commit.as_ref().map_or("-".to_string(), |c| {
            format!(
                "{}{}",
                escape(c, 12),
                if e.dirty == Some(true) {
                    " (dirty)"
                } else {
                    ""
                }
            )
        });
        lines.push(format!(
            "| {} | {} | {} | {} | {git} | {} | {} |",
            escape(&e.file, 300),
            escape(e.name.as_deref().unwrap_or(""), 100),
            escape(e.created_at.as_deref().unwrap_or(""), 60),
            e.exit_code.unwrap_or(0),
            if e.signed { "yes" } else { "no" },
            e.verdict.map_or("-", |v| v.as_str())
        ));
    }
    lines.join("\n") + "\n"
}

/// The JUnit form: one testcase per manifest.
pub fn junit(entries: &[Entry]) -> String {
    let failures = entries
        .iter()
        .filter(|e| e.error.is_some() || e.verdict == Some(Status::Fail))
        .count();
    let skipped = entries
        .iter()
        .filter(|e| e.verdict == Some(Status::Inconclusive))
        .count();
    let mut x = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"sciproof:list\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"0\">\n",
        entries.len()
    );
    for e in entries {
        let open = format!(
            "    <testcase classname=\"sciproof.manifest\" name=\"{}\" time=\"0\"",
            attr(&e.file, 300)
        );
        if let Some(error) = &e.error {
            x.push_str(&format!("{open}>\n      <failure message=\"invalid manifest: {}\" type=\"INVALID\" />\n    </testcase>\n", attr(error, 500)));
        } else if e.verdict == Some(Status::Fail) {
            x.push_str(&format!("{open}>\n      <failure message=\"verification failed\" type=\"FAIL\" />\n    </testcase>\n"));
        } else if e.verdict == Some(Status::Inconclusive) {
            x.push_str(&format!("{open}>\n      <skipped message=\"INCONCLUSIVE: some evidence could not be checked\" />\n    </testcase>\n"));
        } else {
            x.push_str(&format!("{open} />\n"));
        }
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}
