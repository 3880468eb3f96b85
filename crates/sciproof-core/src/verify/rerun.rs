//! `verify --rerun`: execute the recorded command once and compare what it produces with the
//! evidence.
//!
//! Nothing runs before the integrity checks passed and the user confirmed. Whatever stands at
//! each declared output path (a file, a link, a folder, a FIFO) is moved aside as it is, never
//! followed, into the evidence's work folder (same disk, inside the project), after a journal
//! that lists it is on disk; it is put back whatever happens — the command fails, times out,
//! is interrupted by a signal, or sciproof itself is killed (the next command then puts it
//! back; see the [commit protocol](crate::commit)). What the rerun produced is moved to
//! `.sciproof-rerun-<stamp>/` and named in the report, unless it is identical to the original;
//! a link or special file it left at an output path is never accepted as an output.

use super::environment::{clean_environment, differences};
use super::integrity::{OutputsChecked, changed_message, resolve, state_evidence};
use super::recorded_copy::RecordedCopy;
// Reruns move files on the local disk: their products are looked at there.
use crate::commit::evidence::{Product, Transaction};
use crate::error::{Error, Result};
use crate::escape::terminal::safe_text;
use crate::manifest::{Artifact, Compare, Manifest, Output};
use crate::numeric::compare_files;
use crate::paths::resolve_inside;
use crate::probe::git::git_state;
use crate::progress::{Progress, Unit};
use crate::pyfmt::float_repr;
use crate::report::{DigestKind, Evidence, Report, Status};
use crate::runner::{RunError, run_command};
use crate::store::local::state;
use crate::store::object_url::{ObjectUrl, is_object_url};
use crate::store::{ArtifactStore, Location, State, object};
use crate::tree::{MAX_TREE_FILES, scan_tree, tree_digest};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Default rerun timeout in seconds.
pub const DEFAULT_TIMEOUT: f64 = 3600.0;

pub use crate::consent::Confirm;

/// How to rerun.
pub struct RerunOptions<'a> {
    /// `--yes`: do not ask.
    pub assume_yes: bool,
    /// Asks the user, given the prompt; `Ok(false)` is a refusal. Without `assume_yes` and
    /// without this, the rerun is refused with [`Error::ConfirmationRequired`].
    pub confirm: Option<Confirm<'a>>,
    /// `--strict-env`: a different environment is INCONCLUSIVE, and nothing runs.
    pub strict_env: bool,
    /// `--clean-env`: only a minimal environment reaches the command.
    pub clean_env: bool,
    /// `--pass-env NAME`: more variables for a clean environment.
    pub pass_env: Vec<String>,
    /// Seconds before the command is stopped.
    pub timeout: f64,
    /// Trace the rerun (`--trace`): files it read but the manifest does not declare, and
    /// declared inputs it never read, are warnings, or with `strict` an INCONCLUSIVE check.
    pub trace: Option<crate::capture::TraceOptions>,
}

/// The note every rerun report carries once the command was started.
pub const NOTE_RERUN_SCOPE: &str = "scope: integrity and one re-execution. Bitwise agreement across different hardware or platforms is not expected; agreement is not a proof of scientific correctness.";

fn prompt(base: &Path, manifest: &Manifest, env_names: Option<&[String]>) -> String {
    let environment = match env_names {
        None => ". It also receives ALL of your environment variables, including any credentials (use --clean-env to pass only a minimal set). ".to_string(),
        Some(names) => format!(
            ". It receives a reduced environment: {}. Files and the network remain fully accessible to it. ",
            if names.is_empty() { "(nothing)".to_string() } else { names.join(", ") }
        ),
    };
    crate::consent::prompt(
        manifest,
        base,
        &crate::consent::Consequences {
            purpose: "",
            details: Vec::new(),
            environment,
        },
    )
}

/// Runs the rerun phase of a verification. `inputs_intact` comes from the integrity checks,
/// `checked` holds what the output checks found (recorded copies, current digests).
#[allow(clippy::too_many_arguments)]
pub fn rerun(
    base: &Path,
    manifest: &Manifest,
    checked: &OutputsChecked,
    inputs_intact: bool,
    report: &mut Report,
    options: &RerunOptions,
    progress: &dyn Progress,
    evidence: Transaction,
) -> Result<()> {
    if !inputs_intact {
        report.add(
            Status::Inconclusive,
            "rerun",
            "not attempted: declared inputs are missing, modified or unsafe, so a rerun would not be comparable with the recorded run",
            None,
        );
        return Ok(());
    }
    let declared = manifest
        .inputs
        .iter()
        .map(|i| &i.path)
        .chain(manifest.outputs.iter().map(|o| &o.path));
    for path in declared.filter(|p| !is_object_url(p)) {
        if let Err(e) = resolve_inside(base, path) {
            report.add(
                Status::Inconclusive,
                "rerun",
                format!("not attempted: unsafe path ({e})"),
                None,
            );
            return Ok(());
        }
    }
    // A rerun writes where the command writes: a remote output is overwritten in place, so it
    // is only rerun when the recorded object stays in the store as a pinned version.
    if let Some(unpinned) = manifest.outputs.iter().find(|o| o.remote_without_version()) {
        report.add(
            Status::Inconclusive,
            "rerun",
            format!(
                "not attempted: the output {} is in object storage without a pinned version, so the rerun would overwrite the recorded object with no way back; enable versioning on its bucket and capture again",
                unpinned.path
            ),
            None,
        );
        return Ok(());
    }
    let (env, unset) = if options.clean_env {
        let (env, unset) = clean_environment(&options.pass_env)?;
        report.clean_env = true;
        report.env_passed = env.keys().cloned().collect();
        (Some(env), unset)
    } else {
        (None, Vec::new())
    };
    let text = prompt(
        base,
        manifest,
        options.clean_env.then_some(report.env_passed.as_slice()),
    );
    if !options.assume_yes {
        let Some(confirm) = options.confirm else {
            return Err(Error::ConfirmationRequired(
                "refusing to execute the recorded command without confirmation; re-run with --yes after reading the command (see 'sciproof inspect')".into(),
            ));
        };
        if !confirm(&text)? {
            report.add(
                Status::Inconclusive,
                "rerun",
                "declined by the user; nothing was executed",
                None,
            );
            return Ok(());
        }
    }
    // Only now, after confirmation, is anything outside SciProof started (the interpreter probe).
    let env_differences = differences(base, manifest);
    if !env_differences.is_empty() {
        if options.strict_env {
            report.add(
                Status::Inconclusive,
                "environment",
                format!(
                    "differs from the recorded one (--strict-env): {}",
                    env_differences.join("; ")
                ),
                None,
            );
            return Ok(());
        }
        report.warnings.push(format!(
            "the environment differs from the recorded one: {}",
            env_differences.join("; ")
        ));
    }
    let current_git = git_state(base);
    if let (Some(recorded), Some(now)) = (&manifest.git, &current_git)
        && recorded.commit != now.commit
    {
        let short = |c: &str| c.chars().take(12).collect::<String>();
        report.warnings.push(format!(
            "the Git commit differs: recorded {}, now {}",
            short(&recorded.commit),
            short(&now.commit)
        ));
    }
    if current_git.is_some_and(|g| g.dirty) {
        report
            .notes
            .push("the current Git working tree has uncommitted changes".into());
    }
    execute(
        base,
        manifest,
        checked,
        report,
        options,
        env.as_ref(),
        progress,
        evidence,
    )?;
    if options.clean_env {
        report.notes.push(
            "the rerun received a reduced environment (--clean-env); this limits which variables it can read, not which files or network it can reach".into(),
        );
        if !unset.is_empty() {
            report.notes.push(format!(
                "requested with --pass-env but not set: {}",
                unset.join(", ")
            ));
        }
    }
    report.notes.push(NOTE_RERUN_SCOPE.into());
    Ok(())
}

/// What the rerun left at a declared output path, when it is not something a command can
/// produce as an output (a link, a FIFO, a socket, a device): its description.
fn not_producible(path: &Path, directory: bool) -> Option<&'static str> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let t = meta.file_type();
    if t.is_symlink() {
        return Some("a symbolic link");
    }
    if t.is_file() || t.is_dir() {
        return None;
    }
    let _ = directory;
    Some(crate::untrusted::describe(&meta))
}

/// The SHA-256 of the file, or the tree digest of the folder, at `path` (`None` when absent or
/// unreadable).
pub(crate) fn digest_of(path: &Path, directory: bool) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if directory {
        meta.is_dir()
            .then(|| {
                scan_tree(path, MAX_TREE_FILES, &crate::progress::NoProgress)
                    .ok()
                    .map(|e| tree_digest(&e))
            })
            .flatten()
    } else {
        meta.is_file()
            .then(|| {
                crate::hash::sha256_file(path, &crate::progress::NoProgress)
                    .ok()
                    .map(|(d, _)| d)
            })
            .flatten()
    }
}

#[allow(clippy::too_many_arguments)]
fn execute(
    base: &Path,
    manifest: &Manifest,
    checked: &OutputsChecked,
    report: &mut Report,
    options: &RerunOptions,
    env: Option<&BTreeMap<String, String>>,
    progress: &dyn Progress,
    mut evidence: Transaction,
) -> Result<()> {
    // The outputs on the local disk, by their index among all outputs (remote outputs stay
    // where they are: their recorded versions are pinned in the store).
    let local: Vec<usize> = (0..manifest.outputs.len())
        .filter(|&i| !is_object_url(&manifest.outputs[i].path))
        .collect();
    let outputs: Vec<String> = local
        .iter()
        .map(|&i| manifest.outputs[i].path.clone())
        .collect();
    // Move whatever stands at each output path aside, so a stale output cannot "reproduce"
    // itself and nothing of the user's is written through.
    evidence.move_aside(&outputs)?;
    progress.begin(
        &format!("rerunning {}", safe_text(&manifest.command.argv[0], 40)),
        0,
        Unit::Bytes,
    );
    let started = crate::timestamp::now_unix();
    let (run, traced) = match options.trace {
        None => (
            run_command(&manifest.command.argv, base, Some(options.timeout), env, 0),
            None,
        ),
        Some(trace_options) => match crate::trace::run_traced(&crate::trace::TraceRequest {
            argv: &manifest.command.argv,
            cwd: base,
            env,
            timeout: Some(options.timeout),
            deny_io_uring: false,
            tracer: trace_options.tracer,
            probes: false,
            capture_output: Some(0),
        }) {
            Ok((result, traced)) => (Ok(result), Some(traced)),
            Err(e) => (Err(e), None),
        },
    };
    progress.finish();
    let mut rerun_digests: Vec<Option<String>> = vec![None; manifest.outputs.len()];
    let (checks_before, notes_before) = (report.checks.len(), report.notes.len());
    match run {
        Err(RunError::Timeout(m)) => report.add(Status::Inconclusive, "rerun", m, None),
        Err(RunError::Untraceable(m)) => report.add(Status::Inconclusive, "rerun", m, None),
        Err(RunError::Interrupted(signal)) => {
            report.interrupted = Some(signal);
            report.add(
                Status::Inconclusive,
                "rerun",
                format!("{signal}; the command was stopped and the originals were restored"),
                None,
            );
        }
        Err(RunError::NotRunnable(m)) => report.add(
            Status::Inconclusive,
            "rerun",
            format!("{m} (is it installed here?)"),
            None,
        ),
        Ok(result) => {
            report.rerun_run = Some(crate::report::RerunRun {
                started_at: crate::timestamp::format_utc(started),
                ended_at: crate::timestamp::now_utc(),
                exit_code: result.exit_code,
                duration_seconds: result.duration_seconds,
            });
            report.rerun_executed = true;
            rerun_digests =
                compare_outputs(base, manifest, checked, result.exit_code, report, progress);
            if let (Some(traced), Some(trace_options)) = (&traced, options.trace) {
                trace_checks(base, manifest, traced, trace_options.strict, report);
            }
            super::claims::check_claims(
                base,
                manifest,
                report,
                super::claims::Phase::Rerun,
                &Default::default(),
            );
            for (stream, recorded, now) in [
                (
                    "stdout",
                    &manifest.execution.stdout.sha256,
                    &result.stdout.sha256,
                ),
                (
                    "stderr",
                    &manifest.execution.stderr.sha256,
                    &result.stderr.sha256,
                ),
            ] {
                let relation = if recorded == now {
                    "identical to"
                } else {
                    "different from"
                };
                report.notes.push(format!(
                    "{stream} of the rerun is {relation} the recorded {stream} (informational only)"
                ));
            }
            // A rerun must not damage the evidence it is checked against.
            for item in &manifest.inputs {
                let unchanged = match (ObjectUrl::parse(&item.path), &item.remote) {
                    (Ok(url), Some(remote)) => object::unchanged(
                        &ObjectUrl {
                            prefix: item.artifact.is_directory(),
                            ..url
                        },
                        &item.sha256,
                        remote,
                        progress,
                    ),
                    _ => {
                        let st = state(
                            &base.join(&item.path),
                            &item.artifact,
                            Some(&item.sha256),
                            &item.path,
                            progress,
                        );
                        st.exists && st.digest.as_deref() == Some(item.sha256.as_str())
                    }
                };
                if !unchanged {
                    report.add(
                        Status::Fail,
                        format!("input {}", item.path),
                        "was modified or removed by the rerun (inputs must be read-only)",
                        None,
                    );
                }
            }
        }
    }
    if let Some(signal) = crate::interrupt::pending()
        && report.interrupted.is_none()
        && report.rerun_executed
    {
        // A signal during the comparison: what was compared so far says nothing.
        report.checks.truncate(checks_before);
        report.notes.truncate(notes_before);
        report.rerun_executed = false;
        report.interrupted = Some(signal);
        report.add(
            Status::Inconclusive,
            "rerun",
            format!("{signal} while the results were compared; the originals were restored"),
            None,
        );
    }
    // Put everything back; what the rerun made goes to .sciproof-rerun-<stamp>/, unless it is
    // identical to the original (digests already computed by the checks are reused).
    crate::commit::failpoint("rerun.before_restore");
    let originals: Vec<Option<PathBuf>> =
        (0..outputs.len()).map(|i| evidence.original(i)).collect();
    let mut identical = Vec::new();
    let restored = evidence.restore(&mut |j, product| {
        let i = local[j];
        let directory = manifest.outputs[i].artifact.is_directory();
        let Some(original) = &originals[j] else {
            return Product::Keep;
        };
        let after = rerun_digests[i]
            .clone()
            .or_else(|| digest_of(product, directory));
        let before = checked
            .digests
            .get(i)
            .cloned()
            .flatten()
            .or_else(|| digest_of(original, directory));
        if after.is_some() && after == before && not_producible(product, directory).is_none() {
            identical.push(manifest.outputs[i].path.clone());
            Product::Discard
        } else {
            Product::Keep
        }
    });
    report.warnings.extend(restored.failures);
    report.rerun_outputs_dir = restored.products;
    report.rerun_identical = identical;
    Ok(())
}

/// What the trace of the rerun says about the manifest's declarations: a warning each, or with
/// `strict` an INCONCLUSIVE check (the rerun cannot show the declared inputs are the ones that
/// made the outputs).
fn trace_checks(
    base: &Path,
    manifest: &Manifest,
    traced: &crate::trace::Trace,
    strict: bool,
    report: &mut Report,
) {
    let inputs: Vec<String> = manifest.inputs.iter().map(|i| i.path.clone()).collect();
    let outputs: Vec<String> = manifest.outputs.iter().map(|o| o.path.clone()).collect();
    let found = crate::trace::project::findings(traced, base, &inputs, &outputs);
    if found.problems.is_empty() {
        report.add(
            Status::Pass,
            "inputs (trace)",
            format!(
                "the rerun read every declared input and no undeclared file inside the working directory ({}, {} processes and threads traced; files it wrote, reads outside the working directory, the network and environment variables are not covered)",
                traced.method.name(),
                traced.processes
            ),
            None,
        );
        return;
    }
    for problem in found.problems {
        if strict {
            report.add(Status::Inconclusive, "inputs (trace)", problem, None);
        } else {
            report.warnings.push(problem);
        }
    }
}

/// Adds the exit-code and rerun-output checks; returns the digest of each output the rerun
/// produced (`None` where absent or unreadable).
fn compare_outputs(
    base: &Path,
    manifest: &Manifest,
    checked: &OutputsChecked,
    exit_code: i64,
    report: &mut Report,
    progress: &dyn Progress,
) -> Vec<Option<String>> {
    let mut digests = vec![None; manifest.outputs.len()];
    let recorded = manifest.execution.exit_code;
    let evidence = Some(Evidence::ExitCode {
        recorded,
        rerun: exit_code,
    });
    if exit_code == recorded {
        report.add(
            Status::Pass,
            "exit code",
            format!("{exit_code}, same as recorded"),
            evidence,
        );
    } else {
        report.add(
            Status::Fail,
            "exit code",
            format!("rerun exited with {exit_code}, recorded {recorded}"),
            evidence,
        );
    }
    for (index, item) in manifest.outputs.iter().enumerate() {
        let subject = format!("rerun output {}", item.path);
        // A remote numeric output's current object, read into a scratch folder for the
        // comparison (removed when dropped), and its path.
        let mut _copy: Option<(tempfile::TempDir, PathBuf)> = None;
        // A local numeric output's comparison, run while the output is hashed (`None` when it
        // was not started).
        let mut early = None;
        let (st, path) = if let Ok(url) = ObjectUrl::parse(&item.path) {
            // What the rerun wrote is the current object (the recorded one is its pinned
            // version, which stays in the store). A numeric output is read once, into a
            // scratch folder, and hashed on the way.
            let st = if matches!(item.compare, Compare::Numeric { .. }) {
                match object::download_to_scratch(&url, None, None, progress) {
                    Ok((dir, path, fetched)) => {
                        _copy = Some((dir, path));
                        State::present_file(fetched.sha256)
                    }
                    Err(object::Unavailable::Absent(_)) => State::absent(false),
                    Err(e) => State::unavailable(false, e.to_string()),
                }
            } else {
                object::ObjectStorage.state(
                    &Location::Object(url),
                    &item.artifact,
                    item.sha256.as_deref(),
                    None,
                    &item.path,
                    progress,
                )
            };
            digests[index].clone_from(&st.digest);
            if let Some(why) = &st.unavailable {
                report.add(
                    Status::Inconclusive,
                    subject,
                    format!("cannot be compared: {why}"),
                    None,
                );
                continue;
            }
            if !presence_and_digest(item, &st, report, subject.clone()) {
                continue;
            }
            let path = _copy.as_ref().map(|(_, p)| p.clone()).unwrap_or_default();
            (st, path)
        } else {
            let Some(path) = resolve(base, &item.path, report, &subject) else {
                continue;
            };
            if let Some(what) = not_producible(&base.join(&item.path), item.artifact.is_directory())
            {
                report.add(
                    Status::Fail,
                    subject,
                    format!(
                        "the rerun left {what} at this path, not {}: that is never an output the command produced",
                        if item.artifact.is_directory() { "a directory" } else { "a regular file" }
                    ),
                    None,
                );
                continue;
            }
            let (st, compared) =
                hash_while_comparing(item, &path, checked.snapshots.get(index), progress);
            early = compared;
            digests[index].clone_from(&st.digest);
            if !presence_and_digest(item, &st, report, subject.clone()) {
                continue;
            }
            (st, path)
        };
        let Compare::Numeric {
            rtol,
            atol,
            snapshot,
        } = &item.compare
        else {
            continue;
        };
        let Some(Some(copy)) = checked.snapshots.get(index) else {
            report.add(
                Status::Inconclusive,
                subject,
                "recorded copy is unusable; cannot compare numerically",
                None,
            );
            continue;
        };
        let outcome = if st.digest.as_deref() == Some(snapshot.sha256.as_str()) {
            crate::numeric::byte_identical(&item.path).map_err(|e| e.0)
        } else if let Some(compared) = early {
            compared.map_err(|e| e.0)
        } else {
            progress.begin(&format!("comparing {}", item.path), 0, Unit::Bytes);
            let r = compare_files(&copy.path, &path, &item.path, *rtol, *atol).map_err(|e| e.0);
            progress.finish();
            r
        };
        // The copy was hashed before the command ran: if the command changed it, the
        // comparison was made against the command's own numbers.
        if !copy.unchanged() {
            report.add(
                Status::Fail,
                format!("output {} snapshot", item.path),
                format!(
                    "recorded copy {} was changed while the command ran (it matched its SHA-256 before the run), so the evidence no longer holds the recorded numbers",
                    snapshot.path
                ),
                None,
            );
            report.add(
                Status::Inconclusive,
                subject,
                "not compared: its recorded copy changed while the command ran",
                None,
            );
            continue;
        }
        let (status, message) = match &outcome {
            Err(e) => (Status::Fail, format!("cannot be compared numerically: {e}")),
            // The reference's message, then the case and its statistics.
            Ok(c) if c.is_equivalent() => (
                Status::Pass,
                format!(
                    "numerically equivalent (rtol={}, atol={}) — {}",
                    float_repr(*rtol),
                    float_repr(*atol),
                    c.sentence()
                ),
            ),
            Ok(c) => (
                Status::Fail,
                format!(
                    "outside the declared tolerance: {} — {}",
                    c.differences
                        .iter()
                        .map(|x| x.message.as_str())
                        .collect::<Vec<_>>()
                        .join("; "),
                    c.sentence()
                ),
            ),
        };
        let ev = Evidence::RerunNumeric {
            path: item.path.clone(),
            rtol: *rtol,
            atol: *atol,
            outcome,
        };
        report.add(status, subject, message, Some(ev));
    }
    digests
}

/// The state of the local output `item` at `path` after the rerun and, for a numeric output
/// with a usable recorded copy, its numeric comparison with that copy, run on a second thread
/// while the output is hashed (both read it whole). The comparison is stopped as soon as the
/// hash shows the output byte for byte the recorded copy (a deterministic rerun needs no
/// comparison), and is then `None`.
fn hash_while_comparing(
    item: &Output,
    path: &Path,
    snapshot: Option<&Option<RecordedCopy>>,
    progress: &dyn Progress,
) -> (
    State,
    Option<std::result::Result<crate::numeric::Comparison, crate::numeric::NumericError>>,
) {
    let hash = || {
        state(
            path,
            &item.artifact,
            item.sha256.as_deref(),
            &item.path,
            progress,
        )
    };
    let (
        Compare::Numeric {
            rtol,
            atol,
            snapshot: recorded,
        },
        Some(Some(copy)),
        Artifact::File,
    ) = (&item.compare, snapshot, &item.artifact)
    else {
        return (hash(), None);
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let comparison = scope.spawn(|| {
            crate::numeric::compare_files_until(
                &copy.path,
                path,
                &item.path,
                *rtol,
                *atol,
                Some(&stop),
            )
        });
        let st = hash();
        let identical = st.digest.as_deref() == Some(recorded.sha256.as_str());
        if identical {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let compared = comparison.join().ok();
        (st, compared.filter(|_| !identical))
    })
}

/// The checks of a rerun output that need no numeric comparison: readable, present or absent
/// as recorded, and for an output compared exactly its digest. Returns whether a numeric
/// comparison is still to be made.
fn presence_and_digest(item: &Output, st: &State, report: &mut Report, subject: String) -> bool {
    if let Some(problem) = &st.problem {
        let ev = state_evidence(
            DigestKind::RerunOutputExact,
            &item.path,
            item.sha256.as_deref(),
            &item.artifact,
            st,
        );
        report.add(
            Status::Fail,
            subject,
            format!("cannot be compared: {problem}"),
            Some(ev),
        );
        return false;
    }
    if !item.present {
        if st.exists {
            report.add(
                Status::Fail,
                subject,
                "was absent in the recorded run but the rerun created it",
                None,
            );
        } else {
            report.add(Status::Pass, subject, "absent, as recorded", None);
        }
        return false;
    }
    if !st.exists {
        report.add(
            Status::Fail,
            subject,
            "the rerun did not produce this file",
            None,
        );
        return false;
    }
    if !matches!(item.compare, Compare::Exact) {
        return true;
    }
    let ev = Some(state_evidence(
        DigestKind::RerunOutputExact,
        &item.path,
        item.sha256.as_deref(),
        &item.artifact,
        st,
    ));
    if st.digest == item.sha256 {
        report.add(
            Status::Pass,
            subject,
            "identical to the recorded output (exact SHA-256)",
            ev,
        );
    } else if let Artifact::Directory { .. } = item.artifact {
        report.add(
            Status::Fail,
            subject,
            changed_message(st, "differs from the recorded directory"),
            ev,
        );
    } else {
        report.add(
            Status::Fail,
            subject,
            "differs from the recorded output (exact SHA-256 comparison). If small numerical differences are acceptable, capture it with --output-numeric",
            ev,
        );
    }
    false
}
