//! Capture: run a command once and write an evidence manifest.
//!
//! Everything that can be checked before the command runs is checked first, so a bad request
//! never executes anything and never writes anything. The stages, in order: validate the
//! request (`validate_request`), lock the evidence, hash the inputs, note the outputs as they
//! were, run the command, prove the inputs unchanged, record the outputs (numeric snapshots are
//! staged in the work folder), check the claims, build the manifest, commit. The manifest and
//! its snapshot folder are replaced together by the [commit protocol](crate::commit), only once
//! everything succeeded; a failed or interrupted capture leaves earlier evidence untouched.

mod tolerance;

pub use tolerance::{ToleranceSetting, parse_tolerance_settings};

use crate::claims::{Claim, parse_claim};
use crate::commit::evidence::Transaction;
use crate::commit::lock::Wait;
use crate::error::{Error, Result, strerror};
use crate::hash::sha256_file;
use crate::json::Object;
use crate::manifest::{
    Artifact, CommandLine, Compare, Dependency, Environment, Execution, Input, MANIFEST_SUFFIX,
    MAX_NOTE_LENGTH, Manifest, Output, SCHEMA_1_0, SCHEMA_1_1, Snapshot, check_nesting,
    is_valid_name, snapshot_dir_name, source,
};
use crate::paths::{resolve_base, to_manifest_path};
use crate::probe::{self, git::git_state, hardware::hardware_info, python};
use crate::progress::Progress;
use crate::pyfmt::{float_repr, str_repr};
use crate::runner::{RunError, run_command};
use crate::stat::StatKey;
use crate::store::object;
use crate::store::object_url::{ObjectUrl, is_object_url};
use crate::tree::{
    FileEntry, MAX_TREE_FILES, rescan_tree, scan_tree, scan_tree_keyed, tree_digest, tree_size,
};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Default relative tolerance of numeric outputs.
pub const DEFAULT_RTOL: f64 = 1e-9;
/// Default absolute tolerance of numeric outputs.
pub const DEFAULT_ATOL: f64 = 0.0;
/// Default number of bytes of stdout and of stderr kept in the manifest.
pub const DEFAULT_MAX_LOG_BYTES: u64 = 64 * 1024;

/// Everything a capture needs. Paths are as the user gave them (relative to `base` or absolute).
pub struct CaptureRequest<'a> {
    /// The experiment name (also names the manifest).
    pub name: String,
    /// The command and its arguments (run without a shell).
    pub argv: Vec<String>,
    /// The working directory; the manifest is written here.
    pub base: PathBuf,
    /// Declared inputs (files or directories).
    pub inputs: Vec<String>,
    /// Outputs compared by exact hash.
    pub outputs: Vec<String>,
    /// Outputs compared with a numeric tolerance.
    pub numeric_outputs: Vec<String>,
    /// Relative tolerance of numeric outputs.
    pub rtol: f64,
    /// Absolute tolerance of numeric outputs.
    pub atol: f64,
    /// Per-output tolerances (`--tolerance OUTPUT 'rtol=X atol=Y'`).
    pub tolerances: Vec<(String, ToleranceSetting)>,
    /// Seconds before the command is stopped.
    pub timeout: Option<f64>,
    /// Bytes of stdout and of stderr kept in the manifest.
    pub max_log_bytes: u64,
    /// Replace an existing manifest.
    pub force: bool,
    /// `(output, expression)` pairs.
    pub claims: Vec<(String, String)>,
    /// Free text stored in the manifest.
    pub note: Option<String>,
    /// Also record CPU and GPU facts.
    pub record_hardware: bool,
    /// Receives progress while files are hashed and the command runs.
    pub progress: &'a dyn Progress,
    /// What to do when another sciproof is writing the same evidence.
    pub wait: Wait<'a>,
    /// Trace the run and report what it read that is not declared (`--trace`).
    pub trace: Option<TraceOptions>,
}

/// How a capture traces its run.
#[derive(Debug, Clone, Copy)]
pub struct TraceOptions {
    /// How reads are observed.
    pub tracer: crate::trace::Tracer,
    /// Refuse the capture when the command read an undeclared file inside the working
    /// directory, never read a declared input, or could not be traced completely.
    pub strict: bool,
}

/// A successful capture.
#[derive(Debug)]
pub struct CaptureResult {
    /// Where the manifest was written.
    pub manifest_path: PathBuf,
    /// The manifest written.
    pub manifest: Manifest,
    /// Things worth knowing that do not stop the capture (printed as `warning: ...`).
    pub warnings: Vec<String>,
    /// What was done about an operation an earlier process left unfinished.
    pub recovered: Option<String>,
}

/// New evidence, built and staged but not yet committed.
#[derive(Debug)]
pub struct Staged {
    /// The manifest.
    pub manifest: Manifest,
    /// The manifest's exact bytes.
    pub text: String,
    /// Things worth knowing that do not stop the capture.
    pub warnings: Vec<String>,
}

/// The request, checked and converted to manifest paths.
pub(crate) struct Plan {
    inputs: Vec<String>,
    exact: Vec<String>,
    numeric: Vec<String>,
    tolerances: Vec<(String, ToleranceSetting)>,
    claims: Vec<Claim>,
    /// Object addresses declared with a trailing `/` (always prefixes).
    prefixes: HashSet<String>,
}

pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(Error::Capture(message.into()))
}

const LARGE_RTOL: &str = "a relative tolerance this large accepts values that differ by 100% or more (any number is then equivalent to 0, and a value to its negation when rtol >= 2). Use a smaller rtol unless that is intended";

/// The manifest paths of `paths`: an object address in its stored form (and, in `prefixes`,
/// those written with a trailing `/`), any other path relative to `base`.
fn convert(base: &Path, paths: &[String], prefixes: &mut HashSet<String>) -> Result<Vec<String>> {
    paths
        .iter()
        .map(|p| {
            if is_object_url(p) {
                let url = ObjectUrl::parse(p).map_err(Error::Capture)?;
                if url.prefix {
                    prefixes.insert(url.stored());
                }
                return Ok(url.stored());
            }
            to_manifest_path(base, p).map_err(|e| Error::Capture(e.0))
        })
        .collect()
}

/// The address of a declared path in object storage (`None` for a local path), as the user
/// wrote it: with its trailing `/` when it was declared as a prefix.
fn object_url(relative: &str, prefixes: &HashSet<String>) -> Option<ObjectUrl> {
    if !is_object_url(relative) {
        return None;
    }
    let mut url = ObjectUrl::parse(relative).ok()?;
    url.prefix |= prefixes.contains(relative);
    Some(url)
}

fn unique(items: &[String], what: &str) -> Result<()> {
    let set: HashSet<&String> = items.iter().collect();
    if set.len() != items.len() {
        return fail(format!("{what} contains the same path more than once"));
    }
    Ok(())
}

fn numeric_directory_message(relative: &str) -> String {
    format!(
        "{} is a directory; --output-numeric compares single .json, .csv, .tsv or .npy files. Declare the directory with --output (exact hashes) or its files individually.",
        str_repr(relative)
    )
}

fn scan(path: &Path, what: &str, progress: &dyn Progress) -> Result<Vec<FileEntry>> {
    scan_tree(path, MAX_TREE_FILES, progress).map_err(|e| Error::Capture(format!("{what}: {e}")))
}

fn hash_file(path: &Path, label: &str, progress: &dyn Progress) -> Result<(String, u64)> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    progress.begin(label, size, crate::progress::Unit::Bytes);
    let result = sha256_file(path, progress);
    progress.finish();
    result.map_err(|e| Error::Capture(format!("cannot read {}: {}", str_repr(label), strerror(&e))))
}

/// What is at `path` now: `Some(digest)` of a file or directory, `None` when absent/unreadable.
fn current_digest(path: &Path, directory: bool, progress: &dyn Progress) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if directory {
        meta.is_dir()
            .then(|| {
                scan_tree(path, MAX_TREE_FILES, progress)
                    .ok()
                    .map(|e| tree_digest(&e))
            })
            .flatten()
    } else {
        meta.is_file()
            .then(|| sha256_file(path, progress).ok().map(|(d, _)| d))
            .flatten()
    }
}

fn not_regular(relative: &str, what: &str) -> Error {
    Error::Capture(format!(
        "{what} {} is not a regular file or directory (a FIFO, socket or device); declare regular files or directories only",
        str_repr(relative)
    ))
}

/// How an input was found before the run, to prove it unchanged afterwards (see [`crate::stat`]).
enum InputKeys {
    /// In object storage: read again after the run (unless its version shows it unchanged).
    Remote,
    File(StatKey),
    /// Each file's status, in the order of the input's file list.
    Directory(Vec<StatKey>),
}

fn hash_inputs(
    base: &Path,
    inputs: &[String],
    prefixes: &HashSet<String>,
    progress: &dyn Progress,
) -> Result<Vec<(Input, InputKeys)>> {
    let mut records = Vec::new();
    for relative in inputs {
        if let Some(url) = object_url(relative, prefixes) {
            let Some(captured) = object::capture(&url, progress).map_err(Error::Capture)? else {
                return fail(format!(
                    "input not found: {relative} (no object has this key and none lies below it)"
                ));
            };
            records.push((
                Input {
                    path: relative.clone(),
                    sha256: captured.sha256,
                    size: captured.size,
                    artifact: captured.artifact,
                    remote: Some(captured.remote),
                },
                InputKeys::Remote,
            ));
            continue;
        }
        let path = base.join(relative);
        let meta = std::fs::metadata(&path);
        match meta {
            Ok(m) if m.is_dir() => {
                let (entries, keys) = scan_tree_keyed(&path, MAX_TREE_FILES, progress)
                    .map_err(|e| Error::Capture(format!("input {}: {e}", str_repr(relative))))?;
                let input = Input {
                    path: relative.clone(),
                    sha256: tree_digest(&entries),
                    size: tree_size(&entries),
                    artifact: Artifact::directory(entries),
                    remote: None,
                };
                records.push((input, InputKeys::Directory(keys)));
            }
            Ok(m) if m.is_file() => {
                let read_error = |e: std::io::Error| {
                    Error::Capture(format!(
                        "cannot read {}: {}",
                        str_repr(relative),
                        strerror(&e)
                    ))
                };
                let mut file = std::fs::File::open(&path).map_err(read_error)?;
                let key = StatKey::of(&file.metadata().map_err(read_error)?);
                progress.begin(relative, m.len(), crate::progress::Unit::Bytes);
                let hashed = crate::hash::sha256_reader(&mut file, progress);
                progress.finish();
                let (sha256, size) = hashed.map_err(read_error)?;
                records.push((
                    Input {
                        path: relative.clone(),
                        sha256,
                        size,
                        artifact: Artifact::File,
                        remote: None,
                    },
                    InputKeys::File(key),
                ));
            }
            Ok(_) => return Err(not_regular(relative, "input")),
            Err(_) => return fail(format!("input file not found: {relative}")),
        }
    }
    Ok(records)
}

/// Whether `input` still has its recorded digest after a command that started at `started`,
/// re-reading only what its status cannot prove unchanged.
fn input_unchanged(
    base: &Path,
    input: &Input,
    keys: &InputKeys,
    started: SystemTime,
    trusted: bool,
    progress: &dyn Progress,
) -> bool {
    let path = base.join(&input.path);
    match keys {
        InputKeys::Remote => {
            let (Ok(url), Some(remote)) = (ObjectUrl::parse(&input.path), &input.remote) else {
                return false;
            };
            let url = ObjectUrl {
                prefix: input.artifact.is_directory(),
                ..url
            };
            object::unchanged(&url, &input.sha256, remote, progress)
        }
        InputKeys::File(before) => {
            let Ok(meta) = std::fs::metadata(&path) else {
                return false;
            };
            if !meta.is_file() {
                return false;
            }
            if before.proves_unchanged(&StatKey::of(&meta), started, trusted) {
                return true;
            }
            current_digest(&path, false, progress).as_deref() == Some(input.sha256.as_str())
        }
        InputKeys::Directory(keys) => {
            if !std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                return false;
            }
            let previous = (input.artifact.files(), keys.as_slice());
            rescan_tree(&path, MAX_TREE_FILES, previous, started, trusted, progress)
                .is_ok_and(|entries| tree_digest(&entries) == input.sha256)
        }
    }
}

fn parse_claims(
    base: &Path,
    claims: &[(String, String)],
    declared_outputs: &[String],
) -> Result<Vec<Claim>> {
    let mut records = Vec::new();
    for (output, expression) in claims {
        let relative = to_manifest_path(base, output).map_err(|e| Error::Capture(e.0))?;
        if !declared_outputs.contains(&relative) {
            return fail(format!(
                "claim on {}: the file must be declared with --output or --output-numeric",
                str_repr(output)
            ));
        }
        records.push(parse_claim(&relative, expression).map_err(|e| Error::Capture(e.0))?);
    }
    Ok(records)
}

/// Checks everything about the request that can be checked without touching the disk beyond
/// path resolution.
pub(crate) fn validate_request(req: &CaptureRequest, base: &Path) -> Result<Plan> {
    if !is_valid_name(&req.name) {
        return fail(format!(
            "invalid name {}: use letters, digits, '.', '_' or '-' (max 100 characters)",
            str_repr(&req.name)
        ));
    }
    if req.argv.is_empty() || req.argv[0].is_empty() {
        return fail("no command given");
    }
    if let Some(arg) = req.argv.iter().find(|a| a.contains('\0')) {
        return fail(format!(
            "the command contains a NUL byte: {}",
            str_repr(arg)
        ));
    }
    let finite_nonneg = |x: f64| x.is_finite() && x >= 0.0;
    let tolerances_ok = req
        .tolerances
        .iter()
        .all(|(_, s)| s.rtol.is_none_or(finite_nonneg) && s.atol.is_none_or(finite_nonneg));
    if !(finite_nonneg(req.rtol) && finite_nonneg(req.atol) && tolerances_ok) {
        return fail("rtol and atol must be finite numbers that are not negative");
    }
    if req.timeout.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
        return fail("timeout must be a positive number of seconds");
    }
    let mut prefixes = HashSet::new();
    let inputs = convert(base, &req.inputs, &mut prefixes)?;
    let exact = convert(base, &req.outputs, &mut prefixes)?;
    let numeric = convert(base, &req.numeric_outputs, &mut prefixes)?;
    if let Some((remote, _)) = req.claims.iter().find(|(o, _)| is_object_url(o)) {
        return fail(format!(
            "claim on {}: claims are checked on local files only; copy the output next to the manifest and declare the copy",
            str_repr(remote)
        ));
    }
    let mut tolerances = Vec::new();
    for (user_path, setting) in &req.tolerances {
        let relative = to_manifest_path(base, user_path).map_err(|e| Error::Capture(e.0))?;
        tolerances.push((relative, *setting));
    }
    for (relative, _) in &tolerances {
        if !numeric.contains(relative) {
            return fail(format!(
                "tolerance for {}: the file must be declared with --output-numeric",
                str_repr(relative)
            ));
        }
    }
    unique(&inputs, "--input")?;
    let all_outputs: Vec<String> = exact.iter().chain(&numeric).cloned().collect();
    unique(&all_outputs, "--output/--output-numeric")?;
    let snapshots = snapshot_dir_name(&req.name);
    let manifest_file = format!("{}{MANIFEST_SUFFIX}", req.name);
    for relative in inputs.iter().chain(&all_outputs) {
        if *relative == manifest_file
            || *relative == snapshots
            || relative.starts_with(&format!("{snapshots}/"))
        {
            return fail(format!(
                "{} is where the evidence of this capture is written; it cannot also be declared as an input or output",
                str_repr(relative)
            ));
        }
    }
    for relative in all_outputs.iter().filter(|p| !is_object_url(p)) {
        if let Some(why) = crate::manifest::reserved_output(relative, &manifest_file, &[&snapshots])
        {
            return fail(why);
        }
    }
    let claims = parse_claims(base, &req.claims, &all_outputs)?;
    let bad_note = |note: &String| {
        note.trim_matches(crate::pyfmt::is_py_space).is_empty()
            || note.chars().count() > MAX_NOTE_LENGTH
            || note.contains('\0')
    };
    if req.note.as_ref().is_some_and(bad_note) {
        return fail(format!(
            "the note must be 1 to {MAX_NOTE_LENGTH} characters of text (no NUL bytes)"
        ));
    }
    let mut overlap: Vec<&String> = inputs.iter().filter(|i| all_outputs.contains(i)).collect();
    overlap.sort();
    if let Some(first) = overlap.first() {
        return fail(format!("a file cannot be both input and output: {first}"));
    }
    if inputs.is_empty() && all_outputs.is_empty() {
        return fail(
            "declare at least one --input, --output or --output-numeric file; SciProof only verifies files that were declared",
        );
    }
    Ok(Plan {
        inputs,
        exact,
        numeric,
        tolerances,
        claims,
        prefixes,
    })
}

/// An error caused by a pending signal becomes [`Error::Interrupted`] with `detail`.
pub fn interrupted_as(e: Error, detail: &str) -> Error {
    match (crate::interrupt::pending(), e) {
        (_, e @ Error::Interrupted { .. }) => e,
        (Some(signal), _) => Error::Interrupted {
            signal,
            detail: detail.to_string(),
        },
        (None, e) => e,
    }
}

/// The warning for a signature that signs a manifest that was just replaced.
pub fn stale_signature(manifest: &Path) -> Option<String> {
    let sig = crate::signing::signature_path(manifest);
    std::fs::symlink_metadata(&sig).is_ok().then(|| {
        let name = |p: &Path| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        format!(
            "{} signs the previous manifest and no longer matches {}; sign the new one with `sciproof sign {} --key KEY` (or remove the old signature)",
            name(&sig),
            name(manifest),
            name(manifest)
        )
    })
}

/// Runs the command of `req` and builds its evidence, staged in `evidence` (whose lock the
/// caller holds); nothing live is changed. `sciproof update` commits it after its diff.
pub fn record(req: &CaptureRequest, evidence: &mut Transaction) -> Result<Staged> {
    let base = resolve_base(&req.base);
    let plan = validate_request(req, &base)?;
    record_planned(req, &base, plan, evidence)
}

pub(crate) fn record_planned(
    req: &CaptureRequest,
    base: &Path,
    plan: Plan,
    evidence: &mut Transaction,
) -> Result<Staged> {
    let progress = req.progress;
    // The Git probe runs while the inputs are hashed.
    let (keyed_inputs, git) = std::thread::scope(|scope| {
        let git = scope.spawn(|| git_state(base));
        let inputs = hash_inputs(base, &plan.inputs, &plan.prefixes, progress);
        (inputs, git.join().unwrap_or(None))
    });
    let (inputs, input_keys): (Vec<Input>, Vec<InputKeys>) = keyed_inputs?.into_iter().unzip();
    let all_outputs: Vec<(String, bool)> = plan
        .exact
        .iter()
        .map(|p| (p.clone(), false))
        .chain(plan.numeric.iter().map(|p| (p.clone(), true)))
        .collect();
    refuse_outputs_in_input_dirs(&inputs, &plan)?;
    let before = outputs_before(base, &all_outputs, &plan.prefixes, progress)?;
    let mut warnings = tolerance_warnings(req, &plan);
    if git.as_ref().is_some_and(|g| g.dirty) {
        warnings.push(
            "the Git working tree has uncommitted changes, so the commit alone does not identify the code that was run".into(),
        );
    }
    let interpreter = python::probe(&req.argv[0], base);

    let trusted = crate::stat::ctime_trusted(base);
    let started = SystemTime::now();
    let (result, traced) = run(req, base)?;
    for (input, keys) in inputs.iter().zip(&input_keys) {
        if !input_unchanged(base, input, keys, started, trusted, progress) {
            return fail(format!(
                "the command modified or removed the declared input {}; inputs must be read-only. No evidence was written.",
                str_repr(&input.path)
            ));
        }
    }
    let outputs = record_outputs(
        req,
        base,
        &plan,
        &all_outputs,
        &before,
        result.exit_code,
        evidence,
        &mut warnings,
    )?;
    let declared: Vec<(&str, bool)> = inputs
        .iter()
        .map(|i| (i.path.as_str(), i.artifact.is_directory()))
        .chain(
            outputs
                .iter()
                .map(|o| (o.path.as_str(), o.artifact.is_directory())),
        )
        .collect();
    check_nesting(&declared).map_err(Error::Capture)?;
    let has_directory = declared.iter().any(|(_, d)| *d);
    check_claims_at_capture(base, &plan.claims, &outputs, &mut warnings)?;
    let trace = match (&traced, req.trace) {
        (Some(t), Some(options)) => Some(trace_record(
            base,
            t,
            &inputs,
            &outputs,
            options,
            &mut warnings,
        )?),
        _ => None,
    };
    let mut manifest = build_manifest(
        req,
        plan.claims,
        has_directory,
        interpreter,
        git,
        inputs,
        result,
        outputs,
    );
    manifest.trace = trace;
    // Lists of large directories are stored beside the manifest, staged with the snapshots.
    let (value, text) =
        crate::manifest::file_list::place_lists(&mut manifest, &snapshot_dir_name(&req.name))
            .map_err(Error::Capture)?;
    crate::manifest::validate(&value).map_err(|e| {
        Error::Capture(format!(
            "internal error: generated an invalid manifest: {e}"
        ))
    })?;
    for (path, files) in crate::manifest::file_list::stored_lists(&manifest) {
        evidence.stage_file_list(path, files)?;
    }
    Ok(Staged {
        manifest,
        text,
        warnings,
    })
}

fn refuse_outputs_in_input_dirs(inputs: &[Input], plan: &Plan) -> Result<()> {
    let input_dirs: Vec<&str> = inputs
        .iter()
        .filter(|i| i.artifact.is_directory())
        .map(|i| i.path.as_str())
        .collect();
    for relative in plan.inputs.iter().chain(&plan.exact).chain(&plan.numeric) {
        for dir in &input_dirs {
            if relative != dir && relative.starts_with(&format!("{dir}/")) {
                return fail(format!(
                    "{} lies inside the declared input directory {}; declare either the directory or the file",
                    str_repr(relative),
                    str_repr(dir)
                ));
            }
        }
    }
    Ok(())
}

/// The digest of each declared output before the run (`None` where absent).
fn outputs_before(
    base: &Path,
    outputs: &[(String, bool)],
    prefixes: &HashSet<String>,
    progress: &dyn Progress,
) -> Result<Vec<Option<String>>> {
    let mut before = Vec::new();
    for (relative, numeric) in outputs {
        if let Some(url) = object_url(relative, prefixes) {
            before.push(object::current_digest(&url, progress).map_err(Error::Capture)?);
            continue;
        }
        let path = base.join(relative);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => {
                if *numeric {
                    return fail(numeric_directory_message(relative));
                }
                let entries = scan(&path, &format!("output {}", str_repr(relative)), progress)?;
                before.push(Some(tree_digest(&entries)));
            }
            Ok(m) if m.is_file() => before.push(Some(hash_file(&path, relative, progress)?.0)),
            Ok(_) => return Err(not_regular(relative, "output")),
            Err(_) => before.push(None),
        }
    }
    Ok(before)
}

fn tolerance_warnings(req: &CaptureRequest, plan: &Plan) -> Vec<String> {
    let mut warnings = Vec::new();
    let setting_of = |relative: &str| setting_for(&plan.tolerances, relative);
    let uses_default_rtol = plan.numeric.iter().any(|p| setting_of(p).rtol.is_none());
    if uses_default_rtol && req.rtol >= 1.0 {
        warnings.push(format!(
            "rtol={} is 1 or more: {LARGE_RTOL}",
            float_repr(req.rtol)
        ));
    }
    for relative in &plan.numeric {
        if let Some(own) = setting_of(relative).rtol.filter(|r| *r >= 1.0) {
            warnings.push(format!(
                "rtol={} for {} is 1 or more: {LARGE_RTOL}",
                float_repr(own),
                str_repr(relative)
            ));
        }
    }
    warnings
}

fn setting_for(tolerances: &[(String, ToleranceSetting)], relative: &str) -> ToleranceSetting {
    tolerances
        .iter()
        .find(|(p, _)| p == relative)
        .map(|(_, s)| *s)
        .unwrap_or_default()
}

fn run(
    req: &CaptureRequest,
    base: &Path,
) -> Result<(crate::runner::ExecResult, Option<crate::trace::Trace>)> {
    req.progress.begin(
        &format!("running {}", req.argv[0]),
        0,
        crate::progress::Unit::Bytes,
    );
    let keep = usize::try_from(req.max_log_bytes).unwrap_or(usize::MAX);
    let run = match req.trace {
        None => run_command(&req.argv, base, req.timeout, None, keep).map(|r| (r, None)),
        Some(options) => crate::trace::run_traced(&crate::trace::TraceRequest {
            argv: &req.argv,
            cwd: base,
            env: None,
            timeout: req.timeout,
            deny_io_uring: false,
            tracer: options.tracer,
            probes: false,
            capture_output: Some(keep),
        })
        .map(|(r, t)| (r, Some(t))),
    };
    req.progress.finish();
    match run {
        Ok(r) => Ok(r),
        Err(RunError::Interrupted(signal)) => Err(Error::Interrupted {
            signal,
            detail: "the command was stopped; no evidence was written".into(),
        }),
        Err(RunError::Timeout(m)) => fail(format!("{m}; no evidence was written")),
        Err(RunError::NotRunnable(m) | RunError::Untraceable(m)) => fail(m),
    }
}

/// Records the local output `relative` at `path` after the run (`before`: its digest before).
fn local_output(
    relative: &str,
    path: &Path,
    numeric: bool,
    before: &Option<String>,
    exit_code: i64,
    warnings: &mut Vec<String>,
    progress: &dyn Progress,
) -> Result<Output> {
    Ok(match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            if numeric {
                return fail(numeric_directory_message(relative));
            }
            let entries = scan(path, &format!("output {}", str_repr(relative)), progress)?;
            let digest = tree_digest(&entries);
            if before.as_deref() == Some(digest.as_str()) {
                warnings.push(unchanged(relative));
            }
            let size = tree_size(&entries);
            present_output(relative, digest, size, Artifact::directory(entries), None)
        }
        Ok(m) if m.is_file() => {
            let (digest, size) = hash_file(path, relative, progress)?;
            if before.as_deref() == Some(digest.as_str()) {
                warnings.push(unchanged(relative));
            }
            present_output(relative, digest, size, Artifact::File, None)
        }
        Ok(_) => return Err(not_regular(relative, "output")),
        Err(_) if exit_code == 0 => {
            return fail(format!(
                "the command succeeded but the declared output {} does not exist. No evidence was written.",
                str_repr(relative)
            ));
        }
        Err(_) => {
            if numeric {
                return fail(format!(
                    "the command failed and the numeric output {} does not exist",
                    str_repr(relative)
                ));
            }
            absent_output(relative, None)
        }
    })
}

/// The warning for an output the run left as it was.
fn unchanged(relative: &str) -> String {
    format!(
        "output {} existed before the run and was not changed by it",
        str_repr(relative)
    )
}

/// An output that is there after the run, compared exactly unless made numeric afterwards.
fn present_output(
    relative: &str,
    digest: String,
    size: u64,
    artifact: Artifact,
    remote: Option<crate::manifest::Remote>,
) -> Output {
    Output {
        path: relative.to_string(),
        present: true,
        sha256: Some(digest),
        size,
        artifact,
        compare: Compare::Exact,
        remote,
    }
}

/// An output the failed command did not produce (always written as a file entry).
fn absent_output(relative: &str, remote: Option<crate::manifest::Remote>) -> Output {
    Output {
        path: relative.to_string(),
        present: false,
        sha256: None,
        size: 0,
        artifact: Artifact::File,
        compare: Compare::Exact,
        remote,
    }
}

/// Records every declared output after the run; numeric outputs are checked and their copies
/// staged in `evidence`.
#[allow(clippy::too_many_arguments)]
fn record_outputs(
    req: &CaptureRequest,
    base: &Path,
    plan: &Plan,
    all_outputs: &[(String, bool)],
    before: &[Option<String>],
    exit_code: i64,
    evidence: &mut Transaction,
    warnings: &mut Vec<String>,
) -> Result<Vec<Output>> {
    let progress = req.progress;
    let mut outputs: Vec<Output> = Vec::new();
    for ((relative, numeric), before) in all_outputs.iter().zip(before) {
        // Where the numeric output's bytes are on the local disk (a remote one is read into a
        // scratch folder, removed when it is dropped).
        let mut _scratch = None;
        let (mut output, path) = if let Some(url) = object_url(relative, &plan.prefixes) {
            // A numeric output (one object) is read once: into a scratch folder for its
            // recorded copy, hashed on the way.
            let copied = if *numeric && !url.prefix {
                match object::download_to_scratch(&url, None, None, progress) {
                    Ok(copied) => Some(copied),
                    Err(object::Unavailable::Absent(_)) => None,
                    Err(e) => return fail(format!("{url}: {e}")),
                }
            } else {
                None
            };
            let captured = match &copied {
                Some((_, _, fetched)) => Some(object::Captured {
                    artifact: Artifact::File,
                    sha256: fetched.sha256.clone(),
                    size: fetched.size,
                    remote: crate::manifest::Remote {
                        pins: vec![fetched.pin.clone()],
                    },
                }),
                None => object::capture(&url, progress).map_err(Error::Capture)?,
            };
            let output = match captured {
                Some(captured) => {
                    if before.as_deref() == Some(captured.sha256.as_str()) {
                        warnings.push(unchanged(relative));
                    }
                    present_output(
                        relative,
                        captured.sha256,
                        captured.size,
                        captured.artifact,
                        Some(captured.remote),
                    )
                }
                None if exit_code == 0 => {
                    return fail(format!(
                        "the command succeeded but the declared output {relative} does not exist (no object has this key and none lies below it). No evidence was written."
                    ));
                }
                None if *numeric => {
                    return fail(format!(
                        "the command failed and the numeric output {relative} does not exist"
                    ));
                }
                None => absent_output(relative, Some(Default::default())),
            };
            if !*numeric {
                outputs.push(output);
                continue;
            }
            if output.artifact.is_directory() {
                return fail(numeric_directory_message(relative));
            }
            // The recorded copy is exactly the bytes that were hashed.
            let Some((dir, copy, _)) = copied else {
                return fail(format!("{url}: the object changed while it was being read"));
            };
            _scratch = Some(dir);
            (output, copy)
        } else {
            // The path was inside before the run; a link the command put on its way (or at it)
            // would make the evidence describe a file elsewhere, which verify refuses.
            if let Err(e) = crate::paths::resolve_inside(base, relative) {
                return fail(format!(
                    "{} after the run: the command put a link on its way, so it is not an output in this folder. No evidence was written.",
                    e.0
                ));
            }
            let path = base.join(relative);
            (
                local_output(
                    relative, &path, *numeric, before, exit_code, warnings, progress,
                )?,
                path,
            )
        };
        if *numeric {
            // A numeric output that cannot be compared later is refused now.
            crate::numeric::check_file(&path).map_err(|e| Error::Capture(e.0))?;
            let file_name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let snapshot_name = format!("{}-{file_name}", outputs.len());
            let target = evidence.stage_snapshot(&path, &snapshot_name)?;
            let (snapshot_digest, _) = hash_file(&target, &snapshot_name, progress)?;
            let setting = setting_for(&plan.tolerances, relative);
            output.compare = Compare::Numeric {
                rtol: setting.rtol.unwrap_or(req.rtol),
                atol: setting.atol.unwrap_or(req.atol),
                snapshot: Snapshot {
                    path: format!("{}/{snapshot_name}", snapshot_dir_name(&req.name)),
                    sha256: snapshot_digest,
                },
            };
        }
        outputs.push(output);
    }
    Ok(outputs)
}

/// Evaluates every claim on its output now: a claim on a missing output is refused, one that
/// does not hold is recorded with a warning (verification keeps reporting it).
fn check_claims_at_capture(
    base: &Path,
    claims: &[Claim],
    outputs: &[Output],
    warnings: &mut Vec<String>,
) -> Result<()> {
    let mut documents = crate::numeric::Documents::default();
    for claim in claims {
        let present_file = outputs
            .iter()
            .any(|o| o.path == claim.output && o.present && !o.artifact.is_directory());
        if !present_file {
            return fail(format!(
                "claim on {}: the output file does not exist",
                str_repr(&claim.output)
            ));
        }
        let found = documents
            .find(&base.join(&claim.output), &claim.output, &claim.location)
            .map_err(|e| Error::Capture(format!("claim on {}: {e}", str_repr(&claim.output))))?;
        let result = crate::claims::evaluate::evaluate(claim, found);
        if !result.holds {
            let detail = result
                .message
                .strip_prefix("does not hold: ")
                .unwrap_or(&result.message);
            warnings.push(format!(
                "a claim does not hold at capture time ({}): {detail}. It is recorded anyway, and verification will report it.",
                claim.text()
            ));
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn build_manifest(
    req: &CaptureRequest,
    claims: Vec<Claim>,
    has_directory: bool,
    interpreter: Option<python::Interpreter>,
    git: Option<crate::manifest::GitState>,
    inputs: Vec<Input>,
    result: crate::runner::ExecResult,
    outputs: Vec<Output>,
) -> Manifest {
    let schema_version =
        if has_directory || !claims.is_empty() || req.note.is_some() || req.record_hardware {
            SCHEMA_1_1
        } else {
            SCHEMA_1_0
        };
    let (env_source, python_info, dependencies) = match interpreter {
        Some(i) => (
            source::COMMAND_INTERPRETER,
            Object::new()
                .with("version", i.version)
                .with("implementation", i.implementation)
                .with("byteorder", i.byteorder),
            i.packages
                .into_iter()
                .map(|(name, version)| Dependency { name, version })
                .collect(),
        ),
        None => (
            source::NOT_PYTHON,
            Object::new().with("version", ""),
            Vec::new(),
        ),
    };
    Manifest {
        schema_version: schema_version.to_string(),
        minor: if schema_version == SCHEMA_1_1 { 1 } else { 0 },
        name: req.name.clone(),
        created_at: crate::timestamp::now_utc(),
        tool: Object::new()
            .with("name", "sciproof")
            .with("version", env!("CARGO_PKG_VERSION"))
            .into(),
        command: CommandLine {
            argv: req.argv.clone(),
        },
        environment: Environment {
            source: Some(env_source.to_string()),
            python: python_info,
            platform: probe::platform_info(),
            env_vars: probe::selected_env_vars(),
            hardware: req.record_hardware.then(hardware_info),
        },
        dependencies,
        git,
        inputs,
        execution: Execution {
            exit_code: result.exit_code,
            duration_seconds: (result.duration_seconds * 1000.0).round() / 1000.0,
            stdout: result.stdout,
            stderr: result.stderr,
        },
        outputs,
        claims,
        note: req.note.clone(),
        trace: None,
    }
}

/// What the trace of the run says about the declarations: files read inside the working
/// directory that are not declared, declared inputs never read, and whether the trace is
/// complete. Warnings, or with `strict` a refusal (nothing is written).
fn trace_record(
    base: &Path,
    traced: &crate::trace::Trace,
    inputs: &[Input],
    outputs: &[Output],
    options: TraceOptions,
    warnings: &mut Vec<String>,
) -> Result<crate::manifest::TraceRecord> {
    let inputs: Vec<String> = inputs.iter().map(|i| i.path.clone()).collect();
    let outputs: Vec<String> = outputs.iter().map(|o| o.path.clone()).collect();
    let found = crate::trace::project::findings(traced, base, &inputs, &outputs);
    let problems = found.problems;
    if options.strict && !problems.is_empty() {
        return fail(format!(
            "--strict-inputs: {}. No evidence was written.",
            problems.join("; ")
        ));
    }
    warnings.extend(problems);
    Ok(crate::manifest::TraceRecord {
        method: traced.method.name().to_string(),
        complete: traced.incomplete.is_empty(),
        processes: traced.processes as u64,
        undeclared_reads: found.undeclared,
        unread_inputs: found.unread,
    })
}

#[cfg(test)]
mod fast_path_tests {
    use super::*;
    use std::time::Duration;

    /// An input recorded with a digest it does not have: only a re-read can tell.
    fn planted(dir: &Path) -> (Input, InputKeys) {
        std::fs::write(dir.join("in.txt"), "content").unwrap();
        let meta = std::fs::metadata(dir.join("in.txt")).unwrap();
        let input = Input {
            path: "in.txt".into(),
            sha256: "0".repeat(64),
            size: 7,
            artifact: Artifact::File,
            remote: None,
        };
        (input, InputKeys::File(StatKey::of(&meta)))
    }

    #[test]
    fn a_settled_unchanged_status_proves_an_input_unchanged_without_reading_it() {
        let dir = tempfile::tempdir().unwrap();
        let (input, keys) = planted(dir.path());
        let progress = &crate::progress::NoProgress;
        // The command started long after the file's ctime: the status alone proves it (the
        // planted digest is never compared, so it "matches").
        let later = SystemTime::now() + Duration::from_secs(60);
        assert!(input_unchanged(
            dir.path(),
            &input,
            &keys,
            later,
            true,
            progress
        ));
        // A ctime too close to the start: the file is read, and the planted digest differs.
        assert!(!input_unchanged(
            dir.path(),
            &input,
            &keys,
            SystemTime::now(),
            true,
            progress
        ));
        // A file system whose change times are not trusted: always read.
        assert!(!input_unchanged(
            dir.path(),
            &input,
            &keys,
            later,
            false,
            progress
        ));
    }

    #[test]
    fn a_directory_input_reuses_only_what_its_status_proves() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("d")).unwrap();
        std::fs::write(dir.path().join("d/a"), "a").unwrap();
        let progress = &crate::progress::NoProgress;
        let (mut planted, keys) = scan_tree_keyed(&dir.path().join("d"), 10, progress).unwrap();
        for e in &mut planted {
            e.sha256 = "0".repeat(64);
        }
        let planted = (planted.as_slice(), keys.as_slice());
        let later = SystemTime::now() + Duration::from_secs(60);
        let reused =
            rescan_tree(&dir.path().join("d"), 10, planted, later, true, progress).unwrap();
        assert_eq!(
            reused[0].sha256,
            "0".repeat(64),
            "the settled status was trusted"
        );
        let reread =
            rescan_tree(&dir.path().join("d"), 10, planted, later, false, progress).unwrap();
        assert_eq!(
            reread[0].sha256,
            crate::hash::sha256_bytes(b"a"),
            "untrusted: read again"
        );
    }
}
