//! `sciproof demo`: a small deterministic experiment, captured, verified, tampered with and
//! restored, so a new user sees PASS, FAIL and PASS again in a few seconds. Uses only `sh` and
//! `awk`, which every Linux has.

use crate::capture::{CaptureRequest, DEFAULT_ATOL, DEFAULT_MAX_LOG_BYTES, DEFAULT_RTOL};
use crate::error::{Error, Result, strerror};
use crate::progress::NoProgress;
use crate::report::{Report, Status};
use crate::verify::{RerunOptions, VerifyRequest, verify};
use std::path::{Path, PathBuf};

/// The default folder.
pub const DEFAULT_DIR: &str = "sciproof-demo";
/// Marks a folder this command created, so it may be reused.
pub const MARKER: &str = ".sciproof-demo";
/// The experiment's name.
pub const NAME: &str = "demo";

const ANALYZE_SH: &str = r#"#!/bin/sh
# Summarise the measurements: per-sample mean and overall statistics.
set -eu
scale=$(awk -F= '$1 == "scale" { print $2 }' params.txt)
mkdir -p results
awk -F, -v scale="$scale" '
  NR == 1 { next }
  { sum[$1] += $2 * scale; n[$1] += 1; total += $2 * scale; count += 1 }
  END {
    print "sample,n,mean" > "results/table.csv"
    for (s = 1; s <= 3; s++) {
      name = "s" s
      printf "%s,%d,%.6f\n", name, n[name], sum[name] / n[name] >> "results/table.csv"
    }
    printf "{\n  \"count\": %d,\n  \"mean\": %.6f\n}\n", count, total / count > "results/summary.json"
  }
' data/measurements.csv
echo "analysed $(wc -l < data/measurements.csv) lines"
"#;

const MEASUREMENTS_CSV: &str =
    "sample,value\ns1,0.91\ns1,0.93\ns2,0.88\ns2,0.90\ns3,0.95\ns3,0.97\n";
const README_CSV: &str = "Synthetic measurements for the sciproof demo.\n";
const PARAMS: &str = "scale=100\n";

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::write(parent.display(), e))?;
    }
    std::fs::write(path, text).map_err(|e| Error::write(path.display(), e))
}

/// Prepares `dir`: creates it, or reuses one this command created before. Refuses a non-empty
/// folder without the marker, so a user's files are never touched.
fn prepare(dir: &Path) -> Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            let empty = entries.next().is_none();
            if !empty && !dir.join(MARKER).is_file() {
                return Err(Error::Folder(format!(
                    "{} exists and is not empty, and it was not created by 'sciproof demo'; name an empty or new folder: sciproof demo OTHER-DIR",
                    dir.display()
                )));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            return Err(Error::Folder(format!(
                "{} exists and is not a folder; name a new folder",
                dir.display()
            )));
        }
        Err(e) => {
            return Err(Error::Folder(format!(
                "cannot use {}: {}",
                dir.display(),
                strerror(&e)
            )));
        }
    }
    write(
        &dir.join(MARKER),
        "created by 'sciproof demo'; the folder may be replaced by it\n",
    )?;
    write(&dir.join("analyze.sh"), ANALYZE_SH)?;
    write(&dir.join("params.txt"), PARAMS)?;
    write(&dir.join("data/measurements.csv"), MEASUREMENTS_CSV)?;
    write(&dir.join("data/README.txt"), README_CSV)?;
    let _ = std::fs::remove_dir_all(dir.join("results"));
    Ok(())
}

/// One step of the demo, as it happens.
#[derive(Debug, Clone)]
pub enum DemoStep {
    /// The experiment's files were written to `dir`.
    Prepared {
        /// The folder, as given.
        dir: PathBuf,
    },
    /// It was captured.
    Captured {
        /// The folder, as given.
        dir: PathBuf,
        /// Inputs recorded.
        inputs: usize,
        /// Outputs recorded.
        outputs: usize,
        /// The command's exit code.
        exit_code: i64,
    },
    /// The untouched evidence was verified.
    Untouched(Report),
    /// An output was changed and the evidence verified again.
    Tampered(Report),
    /// The output was restored and the evidence verified once more.
    Restored(Report),
    /// The command was re-run in a clean environment and its outputs compared.
    Rerun(Report),
    /// What to try next.
    Next {
        /// The folder, as given.
        dir: PathBuf,
    },
}

/// Runs the demo in `dir`, handing each step to `on_step` as it happens. Returns whether the
/// verifications gave PASS, FAIL, PASS and the rerun PASS, as expected.
pub fn run(dir: &Path, on_step: &mut dyn FnMut(&DemoStep)) -> Result<bool> {
    prepare(dir)?;
    on_step(&DemoStep::Prepared {
        dir: dir.to_path_buf(),
    });
    let request = CaptureRequest {
        name: NAME.into(),
        argv: vec!["sh".into(), "analyze.sh".into()],
        base: dir.to_path_buf(),
        inputs: vec!["analyze.sh".into(), "params.txt".into(), "data".into()],
        outputs: vec!["results/table.csv".into()],
        numeric_outputs: vec!["results/summary.json".into()],
        rtol: DEFAULT_RTOL,
        atol: DEFAULT_ATOL,
        tolerances: Vec::new(),
        timeout: Some(60.0),
        max_log_bytes: DEFAULT_MAX_LOG_BYTES,
        force: true,
        claims: vec![("results/summary.json".into(), "$.count == 6".into())],
        note: Some("built-in demo experiment".into()),
        record_hardware: false,
        progress: &NoProgress,
        wait: crate::commit::lock::Wait::No,
        trace: None,
    };
    let captured = crate::ops::capture(&request)?;
    let m = &captured.manifest;
    on_step(&DemoStep::Captured {
        dir: dir.to_path_buf(),
        inputs: m.inputs.len(),
        outputs: m.outputs.len(),
        exit_code: m.execution.exit_code,
    });
    let manifest: PathBuf = captured.manifest_path.clone();
    let check = || verify(&VerifyRequest::integrity(&manifest, &NoProgress));
    let first = check()?;
    let first_ok = first.status() == Status::Pass;
    on_step(&DemoStep::Untouched(first));

    let table = dir.join("results/table.csv");
    let original = std::fs::read(&table).map_err(|e| Error::write(table.display(), e))?;
    let mut tampered = original.clone();
    tampered.extend_from_slice(b"s4,1,99.000000\n");
    std::fs::write(&table, &tampered).map_err(|e| Error::write(table.display(), e))?;
    let second = check()?;
    let second_ok = second.status() == Status::Fail;
    on_step(&DemoStep::Tampered(second));

    std::fs::write(&table, &original).map_err(|e| Error::write(table.display(), e))?;
    let third = check()?;
    let third_ok = third.status() == Status::Pass;
    on_step(&DemoStep::Restored(third));
    let rerun = verify(&VerifyRequest {
        manifest: manifest.clone(),
        rerun: Some(RerunOptions {
            assume_yes: true, // the built-in experiment, written just now by this command
            confirm: None,
            strict_env: false,
            clean_env: true,
            pass_env: Vec::new(),
            timeout: 60.0,
            trace: None,
        }),
        wait: crate::commit::lock::Wait::No,
        policy: None,
        allowed_signers: None,
        progress: &NoProgress,
    })?;
    let rerun_ok = rerun.status() == Status::Pass;
    on_step(&DemoStep::Rerun(rerun));
    on_step(&DemoStep::Next {
        dir: dir.to_path_buf(),
    });
    Ok(first_ok && second_ok && third_ok && rerun_ok)
}
