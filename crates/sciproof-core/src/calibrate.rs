//! `calibrate`: run the recorded command several times and measure how much its outputs vary
//! (spec §7.8). A tolerance is a guess until someone has looked at the noise.
//!
//! Under the evidence's lock, the declared outputs are moved aside (crash-safe, as for a rerun:
//! a kill at any moment leaves them to be put back by the next sciproof), the command runs N
//! times, each output is taken after each run and removed, and the originals are put back. An
//! exact output must have the same content in every run and as recorded; a numeric one is
//! measured: the largest spread of any number over the runs and the recorded copy, whether that
//! is inside the recorded tolerance, and a tolerance that would have covered it (ten times the
//! largest relative spread, rounded up to one digit). `.npz` archives, whose members are not
//! flattened here, are compared run by run at the recorded tolerance instead. Nothing of the
//! evidence changes.

use crate::commit::evidence::{Product, Transaction};
use crate::commit::journal::Op;
use crate::commit::lock::Wait;
use crate::consent::{Confirm, Consequences};
use crate::error::{Error, Result};
use crate::manifest::{Compare, Output};
use crate::numeric::spread::{leaves, round_up, spread};
use crate::numeric::value::Scalar;
use crate::progress::{Progress, Unit};
use crate::runner::{RunError, run_command};
use std::path::{Path, PathBuf};

/// The fewest and most runs.
pub const MIN_RUNS: usize = 2;
/// See [`MIN_RUNS`].
pub const MAX_RUNS: usize = 50;
/// The suggested rtol is this many times the largest relative spread seen.
const SAFETY_FACTOR: f64 = 10.0;

/// What to calibrate.
pub struct CalibrateRequest<'a> {
    /// The manifest file.
    pub manifest: PathBuf,
    /// How many runs (2 to 50).
    pub runs: usize,
    /// Seconds before each run is stopped.
    pub timeout: Option<f64>,
    /// Asks the user, given the prompt, whether to go on (`None`: already confirmed).
    pub confirm: Option<Confirm<'a>>,
    /// What to do when another sciproof is changing this evidence.
    pub wait: Wait<'a>,
    /// Receives progress (run k of N).
    pub progress: &'a dyn Progress,
}

/// What the runs showed for one declared output.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputSpread {
    /// The declared path.
    pub path: String,
    /// `exact` or `numeric`.
    pub mode: &'static str,
    /// Whether it is as stable as the manifest says.
    pub ok: bool,
    /// What was seen.
    pub message: String,
    /// A `--tolerance` that would have covered the spread, when the recorded one did not.
    pub suggestion: Option<String>,
}

/// The calibration.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// The experiment's name.
    pub name: String,
    /// How many runs.
    pub runs: usize,
    /// The exit code recorded.
    pub recorded_exit_code: i64,
    /// Each run's exit code.
    pub exit_codes: Vec<i64>,
    /// One per declared output, in the manifest's order.
    pub outputs: Vec<OutputSpread>,
    /// What the numbers mean and do not.
    pub notes: Vec<String>,
}

impl Calibration {
    /// Whether every output and every exit code was as recorded: STABLE, else VARIES.
    pub fn stable(&self) -> bool {
        self.outputs.iter().all(|o| o.ok)
            && self
                .exit_codes
                .iter()
                .all(|c| *c == self.recorded_exit_code)
    }
}

/// What one run left at an output's path.
enum Taken {
    /// An exact output's digest (`None`: missing).
    Digest(Option<String>),
    /// A numeric output's leaves.
    Leaves(Vec<(String, Scalar)>),
    /// A numeric output kept whole (`.npz`) in the scratch folder.
    Copy(PathBuf),
    /// Absent, or unreadable: why.
    Unreadable(String),
}

fn take(base: &Path, output: &Output, scratch: &Path, run: usize, index: usize) -> Taken {
    let path = base.join(&output.path);
    match output.compare {
        Compare::Exact => Taken::Digest(crate::verify::rerun::digest_of(
            &path,
            output.artifact.is_directory(),
        )),
        Compare::Numeric { .. } => {
            if !path.is_file() {
                return Taken::Unreadable("absent".into());
            }
            match leaves(&path, &output.path) {
                Some(Ok(l)) => Taken::Leaves(l),
                Some(Err(e)) => Taken::Unreadable(format!("cannot be read: {e}")),
                None => {
                    let copy = scratch.join(format!("{run}-{index}"));
                    match std::fs::copy(&path, &copy) {
                        Ok(_) => Taken::Copy(copy),
                        Err(e) => Taken::Unreadable(format!(
                            "cannot be read: {}",
                            crate::error::strerror(&e)
                        )),
                    }
                }
            }
        }
    }
}

/// Removes what a run left at the output path `relative`, unless a folder on the way now leads
/// outside `base` (the run put a link there): nothing is removed through it, and the restore
/// says so.
fn remove(base: &Path, relative: &str) {
    if crate::paths::folder_leading_outside(base, relative).is_some() {
        return;
    }
    let path = &base.join(relative);
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// The confirmation text.
pub fn prompt(manifest: &crate::manifest::Manifest, base: &Path, runs: usize) -> String {
    crate::consent::prompt(
        manifest,
        base,
        &Consequences {
            purpose: &format!(" {runs} times"),
            details: vec![format!(
                "outputs moved aside first and put back afterwards: {}",
                crate::consent::outputs_listed(manifest)
            )],
            environment: ", with all of your environment variables. ".into(),
        },
    )
}

/// Runs the command of the manifest `request.runs` times and reports how its outputs vary.
/// `Ok(None)` when the user declined (nothing ran).
pub fn calibrate(request: &CalibrateRequest) -> Result<Option<Calibration>> {
    if !(MIN_RUNS..=MAX_RUNS).contains(&request.runs) {
        return Err(Error::Verify(format!(
            "--runs must be between {MIN_RUNS} and {MAX_RUNS}"
        )));
    }
    let (mut evidence, _recovered) =
        Transaction::open(&request.manifest, Op::Calibrate, request.wait)?;
    let loaded = crate::manifest::load(&request.manifest)?;
    let (manifest, base) = (&loaded.manifest, loaded.base.clone());
    if let Some(o) = manifest
        .outputs
        .iter()
        .find(|o| crate::store::object_url::is_object_url(&o.path))
    {
        return Err(Error::Verify(format!(
            "calibrate compares the outputs of several runs on the local disk; {} is in object storage",
            o.path
        )));
    }
    if let Some(confirm) = request.confirm
        && !confirm(&prompt(manifest, &base, request.runs))?
    {
        return Ok(None);
    }
    let mut paths = Vec::new();
    for o in &manifest.outputs {
        crate::paths::resolve_inside(&base, &o.path).map_err(|e| Error::Manifest(e.0))?;
        paths.push(o.path.clone());
    }
    evidence.move_aside(&paths)?;
    // Copies of outputs taken whole live in the work folder, which the restore (or, after a
    // crash, the next sciproof) removes with everything in it.
    let scratch = evidence.scratch("runs")?;
    let mut exit_codes = Vec::new();
    let mut taken: Vec<Vec<Taken>> = manifest.outputs.iter().map(|_| Vec::new()).collect();
    let mut failure = None;
    for run in 0..request.runs {
        request.progress.begin(
            &format!("calibrate: run {} of {}", run + 1, request.runs),
            request.runs as u64,
            Unit::Runs,
        );
        request.progress.advance(run as u64);
        let result = run_command(&manifest.command.argv, &base, request.timeout, None, 0);
        request.progress.finish();
        match result {
            Ok(r) => exit_codes.push(r.exit_code),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
        for (i, o) in manifest.outputs.iter().enumerate() {
            taken[i].push(take(&base, o, &scratch, run, i));
            remove(&base, &o.path);
        }
    }
    for o in &manifest.outputs {
        remove(&base, &o.path);
    }
    // Judged before the originals are put back: the restore removes the copies with the work
    // folder.
    let outputs: Vec<OutputSpread> = if failure.is_none() {
        manifest
            .outputs
            .iter()
            .zip(taken)
            .map(|(o, t)| judge(&base, o, t))
            .collect()
    } else {
        Vec::new()
    };
    let restored = evidence.restore(&mut |_, _| Product::Discard);
    if let Some(e) = failure {
        let undone = crate::commit::evidence::describe_undo(&restored);
        return Err(match e {
            RunError::Interrupted(signal) => Error::Interrupted {
                signal,
                detail: undone,
            },
            RunError::Timeout(m) | RunError::NotRunnable(m) | RunError::Untraceable(m) => {
                Error::Verify(format!("{m}; {undone}"))
            }
        });
    }
    if !restored.failures.is_empty() {
        return Err(Error::Verify(format!(
            "the {} runs finished, but {}",
            request.runs,
            crate::commit::evidence::describe_undo(&restored)
        )));
    }
    Ok(Some(Calibration {
        name: manifest.name.clone(),
        runs: request.runs,
        recorded_exit_code: manifest.execution.exit_code,
        exit_codes,
        outputs,
        notes: vec![
            format!(
                "{} runs only sample the variation: the suggested rtol is 10 times the largest relative spread seen, and a longer or different run can vary more.",
                request.runs
            ),
            "this measures noise between runs on this machine, not whether the result is right; the manifest and the outputs were not changed.".into(),
        ],
    }))
}

fn judge(base: &Path, output: &Output, taken: Vec<Taken>) -> OutputSpread {
    let path = output.path.clone();
    let verdict = |mode, ok, message: String, suggestion| OutputSpread {
        path: path.clone(),
        mode,
        ok,
        message,
        suggestion,
    };
    let (rtol, atol, snapshot) = match &output.compare {
        Compare::Exact => {
            let digests: Vec<Option<String>> = taken
                .into_iter()
                .map(|t| match t {
                    Taken::Digest(d) => d,
                    _ => None,
                })
                .collect();
            if digests.iter().any(Option::is_none) {
                return verdict("exact", false, "missing after some runs".into(), None);
            }
            let distinct: std::collections::BTreeSet<&Option<String>> = digests.iter().collect();
            if distinct.len() > 1 {
                return verdict(
                    "exact",
                    false,
                    format!(
                        "{} different contents in {} runs: not deterministic, so an exact hash cannot be verified; if it is a table of numbers declare it with --output-numeric, otherwise remove the source of the variation",
                        distinct.len(),
                        digests.len()
                    ),
                    None,
                );
            }
            if output.sha256.is_some() && digests[0] != output.sha256 {
                return verdict(
                    "exact",
                    false,
                    "identical in every run, but different from the recorded one".into(),
                    None,
                );
            }
            return verdict(
                "exact",
                true,
                "identical in every run and as recorded".into(),
                None,
            );
        }
        Compare::Numeric {
            rtol,
            atol,
            snapshot,
        } => (*rtol, *atol, base.join(&snapshot.path)),
    };
    let shown = format!(
        "(rtol={}, atol={})",
        crate::pyfmt::float_repr(rtol),
        crate::pyfmt::float_repr(atol)
    );
    if let Some(Taken::Unreadable(why)) = taken.iter().find(|t| matches!(t, Taken::Unreadable(_))) {
        return verdict("numeric", false, format!("{why} in some runs"), None);
    }
    // Whole archives (.npz): each run against the recorded copy, at the recorded tolerance.
    let copies: Vec<&PathBuf> = taken
        .iter()
        .filter_map(|t| match t {
            Taken::Copy(p) => Some(p),
            _ => None,
        })
        .collect();
    if !copies.is_empty() {
        let compared: Vec<
            std::result::Result<crate::numeric::Comparison, crate::numeric::NumericError>,
        > = copies
            .iter()
            .map(|c| crate::numeric::compare_files(&snapshot, c, &output.path, rtol, atol))
            .collect();
        let differs = |c: &std::result::Result<
            crate::numeric::Comparison,
            crate::numeric::NumericError,
        >| { c.as_ref().map_or(true, |c| !c.is_equivalent()) };
        let differing = compared.iter().filter(|c| differs(c)).count();
        // The run furthest from the recorded copy: the first that differs, else the one with
        // the largest relative error (the first of equals).
        let largest_rel =
            |c: &std::result::Result<crate::numeric::Comparison, crate::numeric::NumericError>| {
                c.as_ref()
                    .ok()
                    .and_then(|c| c.statistics.total().largest_rel)
                    .map_or(0.0, |a| a.value)
            };
        let furthest = compared.iter().position(differs).unwrap_or_else(|| {
            (0..compared.len()).fold(0, |best, i| {
                if largest_rel(&compared[i]) > largest_rel(&compared[best]) {
                    i
                } else {
                    best
                }
            })
        });
        let case = match &compared[furthest] {
            Ok(c) => format!("run {}: {}", furthest + 1, c.sentence()),
            Err(e) => format!("run {}: cannot be compared: {e}", furthest + 1),
        };
        return if differing == 0 {
            verdict(
                "numeric",
                true,
                format!(
                    "equivalent in every run and to the recorded copy {shown} (furthest, {case}); the spread of its values is not measured for this format"
                ),
                None,
            )
        } else {
            verdict(
                "numeric",
                false,
                format!(
                    "{differing} of {} runs differ from the recorded copy beyond the recorded tolerance {shown} (first, {case})",
                    copies.len()
                ),
                None,
            )
        };
    }
    let mut samples: Vec<Vec<(String, Scalar)>> = taken
        .into_iter()
        .filter_map(|t| match t {
            Taken::Leaves(l) => Some(l),
            _ => None,
        })
        .collect();
    // The recorded copy is checked by verify; the runs are measured with it when it reads.
    if let Some(Ok(recorded)) = leaves(&snapshot, &output.path) {
        samples.push(recorded);
    }
    let s = spread(&samples, rtol, atol);
    if let Some(problem) = s.problem {
        return verdict("numeric", false, problem, None);
    }
    if s.max_rel == 0.0 {
        return verdict(
            "numeric",
            true,
            "identical in every run and as recorded".into(),
            None,
        );
    }
    let detail = format!(
        "varies by up to {} relative ({} absolute)",
        crate::pyfmt::format_g(s.max_rel, 3),
        crate::pyfmt::format_g(s.max_abs, 3)
    );
    if s.outside > 0 {
        let suggested = round_up(s.max_rel * SAFETY_FACTOR);
        verdict(
            "numeric",
            false,
            format!(
                "{detail}; {} value(s) outside the recorded tolerance {shown}",
                s.outside
            ),
            Some(format!(
                "--tolerance {} 'rtol={}'",
                output.path,
                exponent_form(suggested)
            )),
        )
    } else {
        verdict(
            "numeric",
            true,
            format!("{detail}; inside the recorded tolerance {shown}"),
            None,
        )
    }
}

/// Python's `format(x, '.0e')`: one digit, an exponent of at least two digits (`1e-06`).
fn exponent_form(x: f64) -> String {
    let text = format!("{x:.0e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) => {
            let (sign, digits) = match exponent.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exponent),
            };
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => text,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn exponents_are_written_as_python_writes_them() {
        assert_eq!(super::exponent_form(1e-6), "1e-06");
        assert_eq!(super::exponent_form(3e-10), "3e-10");
        assert_eq!(super::exponent_form(20.0), "2e+01");
    }
}
