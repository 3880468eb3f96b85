//! `record`: capture an experiment without declaring its files. The command runs three times
//! (twice with `fast`): once under the system-call tracer to find what it reads and writes,
//! once more to see which outputs are stable, then as a real capture with what was found
//! (spec §7.7; the reference finds inputs only through Python's audit hook).
//!
//! Outputs are files below the working directory that a run created or changed (by size and
//! modification time); a file the command both read and wrote is state, not a result. An output
//! identical in both runs is declared as it is (numeric when it reads as JSON, CSV or TSV); one
//! that differs gets a tolerance of ten times the largest relative spread seen, rounded up to
//! one significant digit and at least 1e-9, unless it differs in something that is not a number.
//! Files a run created are removed before the next run, so each starts from the same state.

use crate::capture::{CaptureRequest, CaptureResult, ToleranceSetting};
use crate::commit::lock::Wait;
use crate::error::{Error, Result, strerror};
use crate::escape::terminal::safe_text;
use crate::hash::sha256_file;
use crate::manifest::{MANIFEST_SUFFIX, is_valid_name};
use crate::numeric::spread::{leaves, round_up, spread};
use crate::numeric::value::Scalar;
use crate::paths::to_manifest_path;
use crate::progress::{Progress, Unit};
use crate::pyfmt::str_repr;
use crate::runner::{RunError, run_command};
use crate::trace::project::ignored;
use crate::trace::{Method, TraceError, TraceRequest, Tracer, python_hook, trace};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The most files `record` looks at below the working directory.
const MAX_SCANNED: usize = 50_000;
/// The most inputs or outputs it declares.
const MAX_DECLARED: usize = 500;
/// The smallest tolerance derived, and the factor over the spread seen.
const MIN_RTOL: f64 = 1e-9;
const SAFETY_FACTOR: f64 = 10.0;
/// How much of a failed run's standard error the error shows.
const TAIL_LINES: usize = 10;
const TAIL_CHARACTERS: usize = 2000;

/// What to record.
pub struct RecordRequest<'a> {
    /// The experiment name (also names the manifest).
    pub name: String,
    /// The command (never run through a shell).
    pub argv: Vec<String>,
    /// The working directory.
    pub base: PathBuf,
    /// Inputs added by hand.
    pub inputs: Vec<String>,
    /// Files or folders that are neither inputs nor outputs.
    pub exclude: Vec<String>,
    /// Skip the second run (outputs are assumed stable).
    pub fast: bool,
    /// Seconds before each run is stopped.
    pub timeout: Option<f64>,
    /// Bytes of stdout and of stderr kept in the manifest.
    pub max_log_bytes: u64,
    /// Replace an existing manifest.
    pub force: bool,
    /// Free text stored in the manifest.
    pub note: Option<String>,
    /// Also record CPU and GPU facts.
    pub record_hardware: bool,
    /// How reads are observed.
    pub tracer: Tracer,
    /// Receives progress (run k of N, then the capture's).
    pub progress: &'a dyn Progress,
    /// What to do when another sciproof is writing the same evidence.
    pub wait: Wait<'a>,
}

/// What `record` found and captured.
#[derive(Debug)]
pub struct Recorded {
    /// The capture (run 3).
    pub capture: CaptureResult,
    /// The inputs declared.
    pub inputs: Vec<String>,
    /// The outputs compared by exact hash.
    pub exact: Vec<String>,
    /// The numeric outputs.
    pub numeric: Vec<String>,
    /// The tolerances derived for outputs that vary.
    pub tolerances: Vec<(String, f64)>,
    /// Files written but not declared, with why.
    pub excluded: Vec<(String, String)>,
    /// Things worth knowing.
    pub notes: Vec<String>,
    /// The equivalent `sciproof capture` command, shell-quoted.
    pub command_line: String,
    /// How the reads were observed.
    pub method: Method,
}

fn refuse<T>(message: impl Into<String>) -> Result<T> {
    Err(Error::Capture(message.into()))
}

type Snapshot = BTreeMap<String, (u64, i128)>;

/// `{relative path: (size, mtime in ns)}` of every regular file below `base` (no links).
fn snapshot(base: &Path) -> Result<Snapshot> {
    use std::os::unix::fs::MetadataExt;
    let mut found = Snapshot::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(relative) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(base.join(&relative)) else {
            continue;
        };
        for entry in entries.flatten() {
            let rel = relative.join(entry.file_name());
            if ignored(&rel) {
                continue;
            }
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                stack.push(rel);
            } else if meta.is_file() {
                found.insert(
                    rel.to_string_lossy().into_owned(),
                    (
                        meta.size(),
                        i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
                    ),
                );
                if found.len() > MAX_SCANNED {
                    return refuse(format!(
                        "more than {MAX_SCANNED} files below the working directory; run 'record' in a smaller directory or use 'capture' with declared files"
                    ));
                }
            }
        }
    }
    Ok(found)
}

/// Files created and files changed between two snapshots, sorted.
fn changed(before: &Snapshot, after: &Snapshot) -> (Vec<String>, Vec<String>) {
    let created = after
        .keys()
        .filter(|p| !before.contains_key(*p))
        .cloned()
        .collect();
    let modified = after
        .iter()
        .filter(|(p, v)| before.get(*p).is_some_and(|b| b != *v))
        .map(|(p, _)| p.clone())
        .collect();
    (created, modified)
}

/// Removes the files a run created, and the folders that became empty because of it.
fn remove_created(base: &Path, created: &[String]) {
    let mut folders = BTreeSet::new();
    for relative in created {
        let path = base.join(relative);
        let _ = std::fs::remove_file(&path);
        let mut parent = Path::new(relative).parent();
        while let Some(p) = parent.filter(|p| !p.as_os_str().is_empty()) {
            folders.insert(p.to_path_buf());
            parent = p.parent();
        }
    }
    // Deepest first; removing a folder that is not empty fails, which is what is wanted.
    let mut folders: Vec<PathBuf> = folders.into_iter().collect();
    folders.sort_by_key(|p| std::cmp::Reverse(p.components().count()));
    for folder in folders {
        let _ = std::fs::remove_dir(base.join(folder));
    }
}

/// The error of a run that failed, with the end of its standard error.
fn failed(which: &str, exit_code: i64, stderr: &[u8], hint: &str) -> Error {
    let text = String::from_utf8_lossy(stderr);
    let text = text.trim_end();
    let start = text
        .char_indices()
        .rev()
        .nth(TAIL_CHARACTERS - 1)
        .map_or(0, |(i, _)| i);
    let lines: Vec<&str> = text[start..].lines().collect();
    let lines = &lines[lines.len().saturating_sub(TAIL_LINES)..];
    let mut message = format!(
        "the {which} run of the command failed (exit status {exit_code}); nothing was recorded"
    );
    if !lines.is_empty() {
        message.push_str("\n  last lines of its standard error:");
        for line in lines {
            message.push_str(&format!("\n    {}", safe_text(line, TAIL_CHARACTERS)));
        }
    }
    message.push_str(&format!("\n  ({hint})"));
    Error::Capture(message)
}

/// Python's `shlex.quote`: written here because the equivalent command must read exactly as
/// the reference prints it.
fn shell_quote(word: &str) -> String {
    if word.is_empty() {
        return "''".into();
    }
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./-_".contains(c);
    if word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\"'\"'"))
    }
}

fn command_line(
    name: &str,
    argv: &[String],
    inputs: &[String],
    exact: &[String],
    numeric: &[String],
    tolerances: &[(String, f64)],
) -> String {
    let mut parts: Vec<String> = vec![
        "sciproof".into(),
        "capture".into(),
        "--name".into(),
        name.into(),
    ];
    for (flag, paths) in [
        ("--input", inputs),
        ("--output", exact),
        ("--output-numeric", numeric),
    ] {
        let mut sorted = paths.to_vec();
        sorted.sort();
        for p in sorted {
            parts.push(flag.into());
            parts.push(p);
        }
    }
    for (path, rtol) in tolerances {
        parts.push("--tolerance".into());
        parts.push(path.clone());
        parts.push(format!("rtol={}", crate::pyfmt::format_g6(*rtol)));
    }
    parts.push("--".into());
    parts.extend(argv.iter().cloned());
    parts
        .iter()
        .map(|p| shell_quote(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the command as `record` does and captures it with what was found.
pub fn record(request: &RecordRequest) -> Result<Recorded> {
    if !is_valid_name(&request.name) {
        return refuse(format!(
            "invalid name {}: use letters, digits, '.', '_' or '-' (max 100 characters)",
            str_repr(&request.name)
        ));
    }
    if request.argv.first().is_none_or(|a| a.is_empty()) {
        return refuse("no command given");
    }
    let base = std::fs::canonicalize(&request.base).map_err(|e| {
        Error::Capture(format!(
            "cannot use the working directory {}: {}",
            request.base.display(),
            strerror(&e)
        ))
    })?;
    if base
        .join(format!("{}{MANIFEST_SUFFIX}", request.name))
        .exists()
        && !request.force
    {
        return refuse(format!(
            "{}{MANIFEST_SUFFIX} already exists (use --force to overwrite it)",
            request.name
        ));
    }
    let convert = |paths: &[String]| -> Result<Vec<String>> {
        paths
            .iter()
            .map(|p| to_manifest_path(&base, p).map_err(|e| Error::Capture(e.0)))
            .collect()
    };
    let extra_inputs = convert(&request.inputs)?;
    let skipped = convert(&request.exclude)?;
    let is_skipped = |p: &str| {
        skipped
            .iter()
            .any(|s| p == s || p.starts_with(&format!("{s}/")))
    };
    let runs = if request.fast { 2 } else { 3 };
    let step = |k: usize, what: &str| {
        request.progress.finish();
        request.progress.begin(
            &format!("run {k} of {runs}: {what}"),
            runs as u64,
            Unit::Runs,
        );
        request.progress.advance(k as u64 - 1);
    };

    // Run 1, traced.
    let before = snapshot(&base)?;
    step(1, "finding what the command reads and writes");
    let traced = trace(&TraceRequest {
        argv: &request.argv,
        cwd: &base,
        env: None,
        timeout: request.timeout,
        deny_io_uring: false,
        tracer: request.tracer,
        probes: false,
        capture_output: Some(0),
    })
    .map_err(|e| match e {
        TraceError::Interrupted(signal) => {
            request.progress.finish();
            Error::Interrupted {
                signal,
                detail: "nothing was recorded".into(),
            }
        }
        TraceError::Timeout(s) => Error::Capture(format!(
            "command did not finish within {s} seconds; nothing was recorded"
        )),
        e => Error::Trace(e),
    })?;
    if traced.exit_code != 0 {
        return Err(failed(
            "first",
            traced.exit_code,
            &traced.stderr_tail,
            "record needs a run that succeeds",
        ));
    }
    let after_first = snapshot(&base)?;
    let (created, modified) = changed(&before, &after_first);
    let written: Vec<String> = created
        .iter()
        .chain(&modified)
        .filter(|p| !is_skipped(p))
        .cloned()
        .collect();
    if written.is_empty() {
        return refuse(
            "the command created or changed no file below the working directory, so there is nothing to record; declare the outputs with 'sciproof capture'",
        );
    }
    let digest = |p: &str| {
        sha256_file(&base.join(p), &crate::progress::NoProgress)
            .ok()
            .map(|(d, _)| d)
    };
    // The reference's rule: JSON, CSV and TSV outputs are numeric candidates (a stable .npy is
    // declared exact, as sciproof 0.4.1 declares it).
    let parse = |p: &str| -> Option<Vec<(String, Scalar)>> {
        let lower = p.to_lowercase();
        [".json", ".csv", ".tsv"]
            .iter()
            .any(|s| lower.ends_with(s))
            .then(|| leaves(&base.join(p), p)?.ok())?
    };
    let first_digest: BTreeMap<String, Option<String>> =
        written.iter().map(|p| (p.clone(), digest(p))).collect();
    let first_leaves: BTreeMap<String, Option<Vec<(String, Scalar)>>> =
        written.iter().map(|p| (p.clone(), parse(p))).collect();
    remove_created(&base, &created);

    // Run 2, plain.
    let mut notes = Vec::new();
    let mut second_digest: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut second_leaves: BTreeMap<String, Option<Vec<(String, Scalar)>>> = BTreeMap::new();
    if request.fast {
        notes.push("determinism was not checked (--fast): every output is assumed stable".into());
    } else {
        step(2, "checking which outputs are stable");
        let second = run_command(&request.argv, &base, request.timeout, None, 64 * 1024).map_err(
            |e| match e {
                RunError::Interrupted(signal) => Error::Interrupted {
                    signal,
                    detail: "nothing was recorded".into(),
                },
                RunError::Timeout(m) => Error::Capture(format!("{m}; nothing was recorded")),
                RunError::NotRunnable(m) | RunError::Untraceable(m) => Error::Capture(m),
            },
        )?;
        if second.exit_code != 0 {
            return Err(failed(
                "second",
                second.exit_code,
                second.stderr.text.as_bytes(),
                "a command that is not repeatable from the same starting state cannot be recorded",
            ));
        }
        let after_second = snapshot(&base)?;
        let (created_again, modified_again) = changed(&before, &after_second);
        for p in created_again.iter().chain(&modified_again) {
            if first_digest.contains_key(p) && base.join(p).is_file() {
                second_digest.insert(p.clone(), digest(p));
                second_leaves.insert(p.clone(), parse(p));
            } else if !first_digest.contains_key(p) && !is_skipped(p) {
                notes.push(format!(
                    "{p} was written by the second run only; it is not declared"
                ));
            }
        }
        remove_created(&base, &created_again);
    }

    // Classification.
    let read_inside = |p: &str| {
        traced
            .files
            .get(&base.join(p))
            .is_some_and(|a| a.is_input())
    };
    let (mut exact, mut numeric, mut tolerances, mut excluded) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for p in &written {
        if read_inside(p) {
            excluded.push((
                p.clone(),
                "read and written by the command: it is state, not a result".to_string(),
            ));
            continue;
        }
        let parsed = &first_leaves[p];
        let stable = request.fast
            || second_digest
                .get(p)
                .is_some_and(|d| d.is_some() && *d == first_digest[p]);
        if stable {
            if parsed.is_some() {
                numeric.push(p.clone());
            } else {
                exact.push(p.clone());
            }
            continue;
        }
        let Some(again) = second_leaves.get(p) else {
            excluded.push((p.clone(), "not written by the second run".into()));
            continue;
        };
        let (Some(first), Some(second)) = (parsed, again) else {
            excluded.push((
                p.clone(),
                "differs between two identical runs and is not JSON/CSV/TSV".into(),
            ));
            continue;
        };
        let s = spread(&[first.clone(), second.clone()], 0.0, 0.0);
        if let Some(problem) = s.problem {
            excluded.push((
                p.clone(),
                format!("differs between two identical runs: {problem}"),
            ));
            continue;
        }
        let rtol = MIN_RTOL.max(round_up(s.max_rel * SAFETY_FACTOR));
        if rtol >= 1.0 {
            excluded.push((
                p.clone(),
                format!(
                    "differs between two identical runs: derived rtol {} is 1 or more",
                    crate::pyfmt::format_g6(rtol)
                ),
            ));
        } else {
            numeric.push(p.clone());
            tolerances.push((p.clone(), rtol));
        }
    }

    // Inputs: what a process read inside the project, never an output of either run.
    let declared: BTreeSet<&String> = exact.iter().chain(&numeric).collect();
    let detected = crate::trace::project::undeclared(&traced, &base, &[]).inputs;
    let inputs: Vec<String> = detected
        .into_iter()
        .filter(|p| {
            !first_digest.contains_key(p) && !second_digest.contains_key(p) && !is_skipped(p)
        })
        .chain(extra_inputs)
        .filter(|p| base.join(p).is_file() && !declared.contains(p))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    for why in &traced.incomplete {
        if why == python_hook::NOT_LOADED {
            notes.push(
                "no input could be detected: ptrace is not permitted here and the command is not run by Python (or Python ran with -I or -S). Declare inputs with --input.".into(),
            );
        } else {
            notes.push(why.clone());
        }
    }
    if let Some(why) = &traced.fell_back {
        notes.push(format!(
            "{why}; inputs were found with Python's audit hook, which sees only files Python code opens"
        ));
    }
    if inputs.len() > MAX_DECLARED || declared.len() > MAX_DECLARED {
        return refuse(format!(
            "more than {MAX_DECLARED} inputs or outputs were found; declare a directory with 'sciproof capture --input DIR' instead"
        ));
    }
    if declared.is_empty() && inputs.is_empty() {
        return refuse("every output was excluded and no input was found; nothing to record");
    }

    // Run 3: the capture (which shows its own progress).
    request.progress.finish();
    let capture = crate::ops::capture(&CaptureRequest {
        name: request.name.clone(),
        argv: request.argv.clone(),
        base: base.clone(),
        inputs: inputs.clone(),
        outputs: exact.clone(),
        numeric_outputs: numeric.clone(),
        rtol: MIN_RTOL,
        atol: 0.0,
        tolerances: tolerances
            .iter()
            .map(|(p, r)| {
                (
                    p.clone(),
                    ToleranceSetting {
                        rtol: Some(*r),
                        atol: None,
                    },
                )
            })
            .collect(),
        timeout: request.timeout,
        max_log_bytes: request.max_log_bytes,
        force: request.force,
        claims: Vec::new(),
        note: request.note.clone(),
        record_hardware: request.record_hardware,
        progress: request.progress,
        wait: request.wait,
        trace: None,
    })?;
    exact.sort();
    numeric.sort();
    tolerances.sort_by(|a, b| a.0.cmp(&b.0));
    let command_line = command_line(
        &request.name,
        &request.argv,
        &inputs,
        &exact,
        &numeric,
        &tolerances,
    );
    Ok(Recorded {
        capture,
        inputs,
        exact,
        numeric,
        tolerances,
        excluded,
        notes,
        command_line,
        method: traced.method,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_as_python_quotes_them() {
        assert_eq!(shell_quote("res/m.json"), "res/m.json");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("rtol=8e-09"), "rtol=8e-09");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\"'\"'s'");
    }

    #[test]
    fn a_failed_run_shows_the_end_of_its_errors() {
        let e = failed("first", 2, b"one\ntwo\n\x1b[31mthree\n", "hint");
        assert_eq!(
            e.to_string(),
            "the first run of the command failed (exit status 2); nothing was recorded\n  last lines of its standard error:\n    one\n    two\n    \\x1b[31mthree\n  (hint)"
        );
    }
}
