//! Integrity checks: do the declared files still have their recorded digests? Never executes
//! anything.

use crate::manifest::{Artifact, Compare, Manifest, Snapshot};
use crate::paths::resolve_inside;
use crate::progress::Progress;
use crate::report::{DigestKind, DirectoryEvidence, Evidence, Report, Status};
use crate::store::local::file_digest;
use crate::store::{ArtifactStore, Location, State, store_of};
use crate::verify::recorded_copy::RecordedCopy;
use std::path::{Path, PathBuf};

/// Evidence of a digest comparison of `state` against the recorded `expected`.
pub fn state_evidence(
    kind: DigestKind,
    path: &str,
    expected: Option<&str>,
    artifact: &Artifact,
    state: &State,
) -> Evidence {
    Evidence::Digest {
        kind,
        path: path.to_string(),
        expected_sha256: expected.map(str::to_string),
        actual_sha256: state.digest.clone(),
        directory: state.directory.then(|| DirectoryEvidence {
            files_expected: artifact.files().len(),
            files_actual: state.files,
            tree: state.diff.clone(),
            problem: state.problem.clone(),
        }),
    }
}

/// `default`, plus which files differ for a directory.
pub fn changed_message(state: &State, default: &str) -> String {
    match (&state.diff, state.directory) {
        (Some(diff), true) => format!("{default}: {}", diff.describe(3)),
        _ => default.to_string(),
    }
}

/// The message of an artifact nothing can be said about.
fn unavailable_message(why: &str) -> String {
    format!("not available, so nothing can be said about it: {why}")
}

/// `message`, then what the store noted (a pinned version read while the object changed).
fn with_note(message: String, state: &State) -> String {
    match &state.note {
        Some(note) => format!("{message}; {note}"),
        None => message,
    }
}

fn unchanged_message(artifact: &Artifact) -> String {
    match artifact {
        Artifact::Directory { files, .. } => {
            format!("unchanged ({} files, tree SHA-256 matches)", files.len())
        }
        Artifact::File => "unchanged (SHA-256 matches)".into(),
    }
}

/// Resolves `relative` below `base`, or adds a FAIL `unsafe path` check and returns `None`
/// (a numeric output's recorded copy, which is always beside the manifest).
pub fn resolve(base: &Path, relative: &str, report: &mut Report, subject: &str) -> Option<PathBuf> {
    match resolve_inside(base, relative) {
        Ok(p) => Some(p),
        Err(e) => {
            report.add(Status::Fail, subject, format!("unsafe path: {e}"), None);
            None
        }
    }
}

/// Where `store` has the artifact declared as `declared`, or adds a FAIL `unsafe path` check
/// and returns `None`.
fn locate(
    store: &dyn ArtifactStore,
    base: &Path,
    declared: &str,
    report: &mut Report,
    subject: &str,
) -> Option<Location> {
    match store.locate(base, declared) {
        Ok(location) => Some(location),
        Err(e) => {
            report.add(Status::Fail, subject, format!("unsafe path: {e}"), None);
            None
        }
    }
}

/// One check per declared input. Returns whether every input is present and unmodified.
pub fn check_inputs(
    base: &Path,
    manifest: &Manifest,
    report: &mut Report,
    progress: &dyn Progress,
) -> bool {
    let mut intact = true;
    for item in &manifest.inputs {
        let subject = format!("input {}", item.path);
        let store = store_of(&item.path);
        let Some(location) = locate(store, base, &item.path, report, &subject) else {
            intact = false;
            continue;
        };
        let st = store.state(
            &location,
            &item.artifact,
            Some(&item.sha256),
            item.remote.as_ref(),
            &item.path,
            progress,
        );
        let evidence = Some(state_evidence(
            DigestKind::InputIntegrity,
            &item.path,
            Some(&item.sha256),
            &item.artifact,
            &st,
        ));
        if let Some(problem) = &st.problem {
            intact = false;
            report.add(
                Status::Fail,
                subject,
                format!("cannot be checked: {problem}"),
                evidence,
            );
        } else if let Some(why) = &st.unavailable {
            intact = false;
            report.add(
                Status::Inconclusive,
                subject,
                unavailable_message(why),
                evidence,
            );
        } else if !st.exists {
            intact = false;
            let what = if st.directory { "directory" } else { "file" };
            report.add(
                Status::Inconclusive,
                subject,
                format!(
                    "not available, so nothing can be said about it (restore the {what} to verify)"
                ),
                evidence,
            );
        } else if st.digest.as_deref() == Some(item.sha256.as_str()) {
            report.add(
                Status::Pass,
                subject,
                with_note(unchanged_message(&item.artifact), &st),
                evidence,
            );
        } else {
            intact = false;
            report.add(
                Status::Fail,
                subject,
                with_note(
                    changed_message(&st, "modified since capture (SHA-256 differs)"),
                    &st,
                ),
                evidence,
            );
        }
    }
    intact
}

fn check_snapshot(
    base: &Path,
    snapshot: &Snapshot,
    report: &mut Report,
    subject: &str,
    progress: &dyn Progress,
) -> Option<RecordedCopy> {
    let subject = format!("{subject} snapshot");
    let path = resolve(base, &snapshot.path, report, &subject)?;
    let evidence = |actual: Option<String>| {
        Some(Evidence::Digest {
            kind: DigestKind::SnapshotIntegrity,
            path: snapshot.path.clone(),
            expected_sha256: Some(snapshot.sha256.clone()),
            actual_sha256: actual,
            directory: None,
        })
    };
    if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
        report.add(
            Status::Inconclusive,
            subject,
            format!(
                "recorded copy {} is missing; numeric comparison is impossible",
                snapshot.path
            ),
            evidence(None),
        );
        return None;
    }
    match file_digest(&path, &snapshot.path, progress) {
        Ok(actual) if actual == snapshot.sha256 => Some(RecordedCopy::hashed(path, &actual)),
        Ok(actual) => {
            report.add(
                Status::Fail,
                subject,
                "recorded copy was modified (SHA-256 differs)",
                evidence(Some(actual)),
            );
            None
        }
        Err(e) => {
            report.add(
                Status::Fail,
                subject,
                format!("recorded copy cannot be read: {e}"),
                evidence(None),
            );
            None
        }
    }
}

/// What the output checks learned, by output index.
#[derive(Debug, Clone, Default)]
pub struct OutputsChecked {
    /// The verified recorded copy of each numeric output (`None` where it is unusable, and
    /// for exact outputs).
    pub snapshots: Vec<Option<RecordedCopy>>,
    /// The digest of what is at each output's path now (`None` when absent or unreadable).
    pub digests: Vec<Option<String>>,
}

/// One check per declared output (plus a snapshot check for a numeric output whose recorded
/// copy is missing, modified or unsafe).
pub fn check_outputs(
    base: &Path,
    manifest: &Manifest,
    report: &mut Report,
    progress: &dyn Progress,
) -> OutputsChecked {
    let mut snapshots = Vec::new();
    let mut digests = Vec::new();
    for item in &manifest.outputs {
        let subject = format!("output {}", item.path);
        let store = store_of(&item.path);
        let location = locate(store, base, &item.path, report, &subject);
        // A numeric output's recorded copy is hashed on a second thread while the output is
        // (both are read whole; the output shows the progress). The checks are added in the
        // same order either way.
        let mut snapshot_report = Report::default();
        let (snapshot, st) = std::thread::scope(|scope| {
            let snapshot = scope.spawn(|| match &item.compare {
                Compare::Numeric { snapshot, .. } => check_snapshot(
                    base,
                    snapshot,
                    &mut snapshot_report,
                    &subject,
                    &crate::progress::NoProgress,
                ),
                Compare::Exact => None,
            });
            let st = location.as_ref().map(|location| {
                store.state(
                    location,
                    &item.artifact,
                    item.sha256.as_deref(),
                    item.remote.as_ref(),
                    &item.path,
                    progress,
                )
            });
            (snapshot.join().unwrap_or(None), st)
        });
        report.checks.append(&mut snapshot_report.checks);
        snapshots.push(snapshot);
        let Some(st) = st else {
            digests.push(None);
            continue;
        };
        digests.push(st.digest.clone());
        let evidence = Some(state_evidence(
            DigestKind::OutputIntegrity,
            &item.path,
            item.sha256.as_deref(),
            &item.artifact,
            &st,
        ));
        if let Some(problem) = &st.problem {
            report.add(
                Status::Fail,
                subject,
                format!("cannot be checked: {problem}"),
                evidence,
            );
        } else if let Some(why) = &st.unavailable {
            report.add(
                Status::Inconclusive,
                subject,
                unavailable_message(why),
                evidence,
            );
        } else if !item.present {
            if st.exists {
                report.add(
                    Status::Fail,
                    subject,
                    "was recorded as absent but now exists",
                    evidence,
                );
            } else {
                report.add(Status::Pass, subject, "still absent, as recorded", evidence);
            }
        } else if !st.exists && item.remote.is_some() {
            // An object can be removed by the store's own rules (lifecycle expiry): its absence
            // says nothing about what the run produced.
            report.add(
                Status::Inconclusive,
                subject,
                unavailable_message(&format!(
                    "{} does not exist any more (restore the object to verify)",
                    item.path
                )),
                evidence,
            );
        } else if !st.exists {
            report.add(
                Status::Fail,
                subject,
                "missing (it existed when the evidence was captured)",
                evidence,
            );
        } else if st.digest == item.sha256 {
            report.add(
                Status::Pass,
                subject,
                with_note(unchanged_message(&item.artifact), &st),
                evidence,
            );
        } else {
            report.add(
                Status::Fail,
                subject,
                with_note(
                    changed_message(&st, "modified since capture (SHA-256 differs)"),
                    &st,
                ),
                evidence,
            );
        }
    }
    OutputsChecked { snapshots, digests }
}
