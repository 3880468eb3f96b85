//! Check records from a verification: one record per claim of the manifest per phase
//! (`recorded`, and `rerun` when the command was run again), mapped as the issue and spec §6.1
//! describe.
//!
//! | sciproof claim | `check_type` | comparison |
//! | --- | --- | --- |
//! | `== <number>` | `value-comparison` | `absolute`, tolerance `0` |
//! | `~=` with `rtol=0` | `value-comparison` | `absolute`, tolerance = atol |
//! | printed (`~= 0.91 printed`) | `value-comparison` | `printed_precision` (+ tie) |
//! | anything else | `other` | none; the predicate in the `sciproof` extension terms |

use super::native;
use super::record::{CheckRecord, FileRead, RECORD_VERSION, claim_digest};
use crate::claims::{Claim, Op};
use crate::json::{Number, Object, Value};
use crate::manifest::Manifest;
use crate::report::{Evidence, Report, Status};
use std::path::Path;

/// Where sciproof is published (the checker's `url`, which RO-Crate requires).
pub const CHECKER_URL: &str = "https://crates.io/crates/sciproof";

/// The media type of an output, from its name.
pub fn media_type(path: &str) -> &'static str {
    crate::numeric::format::media_type(path)
}

/// The canonical address object of a claim's location: a JSON path as an RFC 6901 `tree`
/// pointer, `.npy`/`.npz` positions as `array`, CSV/TSV cells as sciproof's own `cell` kind
/// (row 0 is the header line, columns by position: repro has no such address, so it reads a
/// match on one as not-checked, which is safe).
pub fn address(claim: &Claim) -> Option<Object> {
    crate::numeric::format::lookup(&claim.output)?.address(&claim.location)
}

/// The text of a JSON value as a claim's threshold (`0.9`, `"abc"`, `true`, `null`).
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => crate::json::to_string_compact(other),
    }
}

/// How a claim maps onto the profile: check type, printed value and comparison.
fn comparison(claim: &Claim) -> (&'static str, Option<String>, Option<Object>) {
    let number = matches!(claim.value, Value::Number(_));
    match claim.op {
        Op::Eq if number => (
            "value-comparison",
            Some(value_text(&claim.value)),
            Some(
                Object::new()
                    .with("mode", "absolute")
                    .with("tolerance", "0"),
            ),
        ),
        Op::Approx if number && claim.tolerance.is_some_and(|(r, _)| r == 0.0) => {
            let atol = claim.tolerance.map_or(0.0, |t| t.1);
            (
                "value-comparison",
                Some(value_text(&claim.value)),
                Some(
                    Object::new()
                        .with("mode", "absolute")
                        .with("tolerance", crate::pyfmt::float_repr(atol)),
                ),
            )
        }
        Op::Printed if conversion(claim).is_some() || claim.scale.is_none() => {
            let mut c = Object::new()
                .with("mode", "printed_precision")
                .with("tolerance", "0");
            if let Some((word, _)) = conversion(claim) {
                c.insert("conversion", word);
            }
            ("value-comparison", Some(value_text(&claim.value)), Some(c))
        }
        _ => ("other", None, None),
    }
}

/// A printed claim's `scale=` as the profile's conversion: `100` is `percent` (the decimal point
/// moves two places right), `0.01` is `fraction`; other factors have no word in the profile.
fn conversion(claim: &Claim) -> Option<(&'static str, i64)> {
    match claim.scale.as_deref()? {
        "100" => Some(("percent", 2)),
        "0.01" => Some(("fraction", -2)),
        _ => None,
    }
}

/// The stored value after the conversion, in plain notation (`0.0424` -> `4.24`).
fn converted(claim: &Claim, stored: &str) -> Option<String> {
    let (_, shift) = conversion(claim)?;
    let d = crate::claims::printed::Decimal::parse(stored)?;
    Some(crate::claims::printed::Decimal::plain(
        &d.mantissa,
        d.exponent + shift,
    ))
}

/// sciproof's terms for the predicate, which the profile has no word for: the claim as the
/// manifest stores it (without the output, which the read names), and the phase.
fn extensions(claim: &Claim, phase: &str) -> Object {
    let mut o = Object::new().with("phase", phase);
    if let Value::Object(stored) = claim.to_json() {
        for (k, v) in stored.iter().filter(|(k, _)| *k != "output") {
            o.insert(k, v.clone());
        }
    }
    o
}

/// The found value as text (`0.91`, `"abc"` as `abc`, `true`, `null`).
fn stored_text(found: &Value) -> String {
    match found {
        Value::Number(Number::Float(f)) => crate::pyfmt::float_repr(*f),
        other => value_text(other),
    }
}

/// What the producer needs besides the report.
pub struct Context<'a> {
    /// The manifest's folder (the crate's root).
    pub base: &'a Path,
    /// The manifest verified.
    pub manifest: &'a Manifest,
    /// The manifest's path relative to the root (its file name).
    pub manifest_path: String,
    /// SHA-256 of the manifest's bytes.
    pub manifest_digest: String,
    /// The signature file next to the manifest and its SHA-256, if there is one.
    pub manifest_signature: Option<(String, String)>,
    /// RFC 3339 with offset, e.g. `2026-11-30T08:00:00+00:00`.
    pub checked_at: String,
    /// Where the rerun's outputs are, relative to `base`, when a rerun ran.
    pub rerun_outputs_dir: Option<String>,
    /// Outputs whose rerun product was identical to the original (read at their own path).
    pub rerun_identical: Vec<String>,
    /// SHA-256 of files already hashed, by path relative to `base`.
    pub digests: std::cell::RefCell<std::collections::HashMap<String, Option<String>>>,
}

impl Context<'_> {
    /// The SHA-256 of the file at `path` (relative to the root) now, or `None` if there is no
    /// such file; each file is hashed once however many claims read it.
    pub fn digest_of(&self, path: &str) -> Option<String> {
        if let Some(d) = self.digests.borrow().get(path) {
            return d.clone();
        }
        let digest = crate::paths::resolve_inside(self.base, path)
            .ok()
            .filter(|p| p.is_file())
            .and_then(|p| crate::hash::sha256_file(&p, &crate::progress::NoProgress).ok())
            .map(|(sha, _)| sha);
        self.digests
            .borrow_mut()
            .insert(path.to_string(), digest.clone());
        digest
    }
}

/// The file state object of a declared input or output (digests now and as pinned).
fn file_state(
    ctx: &Context,
    path: &str,
    artifact: &crate::manifest::Artifact,
    pinned: Option<&str>,
    remote: Option<&crate::manifest::Remote>,
) -> Value {
    let store = crate::store::store_of(path);
    let state = match store.locate(ctx.base, path) {
        Ok(location) => store.state(
            &location,
            artifact,
            pinned,
            remote,
            path,
            &crate::progress::NoProgress,
        ),
        Err(_) => crate::store::State::absent(artifact.is_directory()),
    };
    let on_disk = state.digest.filter(|_| state.exists);
    let validity = match (pinned, &on_disk) {
        (_, None) => "artifact_absent",
        (None, Some(_)) => "unpinned_artifact",
        (Some(p), Some(d)) if p == d => "authoritative",
        _ => "broken_pin",
    };
    let mut o = Object::new()
        .with("artifact", path)
        .with("path", path)
        .with("media_type", media_type(path))
        .with("validity", validity);
    if let Some(p) = pinned {
        o.insert("pinned", p);
    }
    if let Some(d) = on_disk {
        o.insert("on_disk", d);
    }
    Value::Object(o)
}

/// The rerun's state and reason in the profile's words: `reproduced` when the command ended with
/// its recorded exit code and every output compared equal, `changed` when an output differs, `failed` when the command did not run to
/// its end, `unchecked` otherwise.
fn rerun_state(report: &Report) -> (&'static str, &'static str) {
    let rerun_checks: Vec<&crate::report::Check> = report
        .checks
        .iter()
        .filter(|c| c.subject == "rerun" || c.subject.starts_with("rerun output "))
        .collect();
    if !report.rerun_executed {
        return ("failed", "command_failed");
    }
    if report.rerun_run.as_ref().is_some_and(|r| r.exit_code != 0) {
        return ("failed", "command_failed");
    }
    if rerun_checks.iter().any(|c| c.status == Status::Fail) {
        ("changed", "output_changed")
    } else if rerun_checks
        .iter()
        .any(|c| c.status == Status::Inconclusive)
    {
        ("unchecked", "skipped")
    } else {
        ("reproduced", "output_matches")
    }
}

/// The `execution` block of a record on the recorded `output`: the manifest's command as the
/// producer of that output (the profile allows one output per command, so a run with several
/// outputs is described as one command per output read, named `NAME:OUTPUT`), with its declared
/// inputs and its rerun when one ran.
fn execution(ctx: &Context, report: &Report, output_path: &str) -> Option<Object> {
    let m = ctx.manifest;
    let output = m.outputs.iter().find(|o| o.path == output_path)?;
    let id = if m.outputs.len() == 1 {
        m.name.clone()
    } else {
        format!("{}:{}", m.name, output.path)
    };
    let inputs: Vec<Value> = m
        .inputs
        .iter()
        .map(|i| {
            file_state(
                ctx,
                &i.path,
                &i.artifact,
                Some(&i.sha256),
                i.remote.as_ref(),
            )
        })
        .collect();
    let mut command = Object::new()
        .with("id", id)
        .with(
            "command",
            Value::Array(m.command.argv.iter().map(Value::from).collect()),
        )
        .with("steps", 0i64)
        .with(
            "output",
            file_state(
                ctx,
                &output.path,
                &output.artifact,
                output.sha256.as_deref(),
                output.remote.as_ref(),
            ),
        )
        .with("inputs", Value::Array(inputs));
    let state = if report.rerun_requested && (report.rerun_executed || report.rerun_run.is_some()) {
        let (rerun, reason) = rerun_state(report);
        let run = report.rerun_run.clone().unwrap_or_default();
        let mut last = Object::new()
            .with("started_at", run.started_at.as_str())
            .with("ended_at", run.ended_at.as_str())
            .with("state", rerun)
            .with("reason", reason)
            .with("checker_version", env!("CARGO_PKG_VERSION"))
            .with("exit_code", run.exit_code)
            .with("duration_seconds", run.duration_seconds);
        let fresh = report
            .rerun_outputs_dir
            .as_ref()
            .map(|dir| format!("{dir}/{}", output.path))
            .and_then(|p| crate::paths::resolve_inside(ctx.base, &p).ok())
            .filter(|p| p.is_file())
            .and_then(|p| crate::hash::sha256_file(&p, &crate::progress::NoProgress).ok());
        if let Some((sha, _)) = fresh {
            last.insert("output_digest", sha);
        }
        command.insert(
            "state",
            if rerun == "reproduced" {
                "current"
            } else {
                "stale"
            },
        );
        command.insert(
            "causes",
            Value::Array(if rerun == "reproduced" {
                Vec::new()
            } else {
                vec![Value::from("later_rerun_did_not_reproduce")]
            }),
        );
        command.insert("last_rerun", last);
        if rerun == "reproduced" {
            "current"
        } else {
            "stale"
        }
    } else {
        command.insert("state", "never_rerun");
        command.insert("causes", Value::Array(Vec::new()));
        "never_rerun"
    };
    Some(
        Object::new()
            .with("state", state)
            .with("commands", Value::Array(vec![Value::Object(command)])),
    )
}

/// One record per claim check of the report, in report order (recorded phase first, then rerun).
pub fn records(ctx: &Context, report: &Report) -> Vec<CheckRecord> {
    // Each output's command block is made once (it hashes the declared files), however many
    // claims read that output.
    let mut executions: std::collections::HashMap<String, Option<Object>> =
        std::collections::HashMap::new();
    let mut out = Vec::new();
    let mut per_phase = [0usize; 2];
    for check in &report.checks {
        let Some(Evidence::Claim {
            phase,
            claim,
            found,
            printed,
        }) = &check.evidence
        else {
            continue;
        };
        let rerun = *phase == "rerun";
        let claim_index = per_phase[usize::from(rerun)];
        per_phase[usize::from(rerun)] += 1;
        let mut r = record(
            ctx,
            claim_index,
            claim,
            rerun,
            check,
            found,
            printed.as_ref(),
        );
        // The rerun's reads are fresh files no declared command outputs; the rerun itself is
        // described through the recorded-phase checks' command.
        if !rerun {
            r.execution = executions
                .entry(claim.output.clone())
                .or_insert_with(|| execution(ctx, report, &claim.output))
                .clone();
        }
        out.push(r);
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn record(
    ctx: &Context,
    index: usize,
    claim: &Claim,
    rerun: bool,
    check: &crate::report::Check,
    found: &Option<Option<Value>>,
    printed_outcome: Option<&crate::claims::printed::PrintedOutcome>,
) -> CheckRecord {
    let phase = if rerun { "rerun" } else { "recorded" };
    let output = ctx.manifest.outputs.iter().find(|o| o.path == claim.output);
    let pinned = output.and_then(|o| o.sha256.clone());
    // The file read: the pinned output, or the rerun's copy of it — kept in the rerun folder,
    // or, when it was byte-identical to the original, the original back at its path.
    let identical = ctx.rerun_identical.contains(&claim.output);
    let read_path = match (rerun, &ctx.rerun_outputs_dir) {
        (true, _) if identical => claim.output.clone(),
        (true, Some(dir)) => format!("{dir}/{}", claim.output),
        (true, None) => format!("#rerun/{}", claim.output),
        _ => claim.output.clone(),
    };
    let on_disk = ctx.digest_of(&read_path);
    let validity = match (&pinned, &on_disk) {
        (_, None) => "artifact_absent",
        (None, Some(_)) => "unpinned_artifact",
        (Some(p), Some(d)) if p == d => "authoritative",
        (Some(_), Some(_)) => "broken_pin",
    };
    let (check_type, printed, mut comparison) = comparison(claim);
    let numeric_comparison = check_type == "value-comparison";
    let not_a_number = |v: &Value| match v {
        Value::Number(Number::Float(f)) => f.is_nan(),
        Value::Number(Number::Int(_)) => false,
        Value::String(s) => s == "NaN",
        _ => true,
    };
    let reason = match (check.status, found) {
        // A match or mismatch needs the file it read to be in the crate: a rerun's file that
        // is not there is not-checked, whatever its check said.
        _ if rerun && on_disk.is_none() => "rerun_output_missing",
        (Status::Pass, _) => "holds",
        (_, Some(None)) => "location_absent",
        (Status::Fail, Some(Some(_)))
            if check.message.ends_with("which is not a number")
                || check.message.ends_with("which satisfies no comparison") =>
        {
            "not_a_number"
        }
        (Status::Fail, Some(Some(v))) if numeric_comparison && not_a_number(v) => "not_a_number",
        (Status::Fail, Some(Some(_))) => "does_not_hold",
        (_, Some(Some(_))) => "does_not_hold",
        (_, None) if on_disk.is_none() && rerun => "rerun_output_missing",
        (_, None) if on_disk.is_none() => "output_missing",
        (Status::Fail, None) => "output_unreadable",
        (_, None) if rerun => "rerun_not_run",
        (_, None) => "output_modified",
    };
    let stored = match found {
        Some(Some(v)) => Some(stored_text(v)),
        _ => None,
    };
    if let (Some(c), Some(p)) = (comparison.as_mut(), printed_outcome)
        && let Some((lower, upper)) = &p.tie
    {
        c.insert(
            "tie",
            Object::new()
                .with("lower", lower.as_str())
                .with("upper", upper.as_str())
                .with("printed", value_text(&claim.value)),
        );
    }
    let claim_id = format!("claim-{index}");
    let claim_text = claim.text();
    let extraction_digest = stored.as_deref().map_or_else(
        || "unknown".to_string(),
        |s| crate::hash::sha256_bytes(s.as_bytes()),
    );
    let version = env!("CARGO_PKG_VERSION");
    let mut read_file = FileRead {
        artifact: claim.output.clone(),
        path: read_path.clone(),
        media_type: media_type(&claim.output).into(),
        validity: Some(validity.into()),
        pinned: pinned.clone(),
        on_disk,
        address: address(claim).map(|a| super::record::address_in_record_order(&a)),
        converted: stored.as_deref().and_then(|v| converted(claim, v)),
        stored,
        ..FileRead::default()
    };
    if rerun {
        // A fresh output of a re-run has no pin of its own: the recorded digest is shown as
        // pinned, and there is no validity word for "fresh output" (spec §6.2).
        read_file.artifact = format!("rerun:{}", claim.output);
        if read_file.on_disk.is_some() {
            read_file.validity = None;
        }
    }
    CheckRecord {
        record: RECORD_VERSION.into(),
        checker_name: "sciproof".into(),
        checker_version: version.into(),
        checker_url: CHECKER_URL.into(),
        checked_at: ctx.checked_at.clone(),
        manifest_path: ctx.manifest_path.clone(),
        manifest_digest: Some(ctx.manifest_digest.clone()),
        manifest_signature: ctx.manifest_signature.clone(),
        claim_digest: claim_digest(&claim_id, &claim_text, None),
        claim_id,
        claim_text,
        claim_where: None,
        claim_line: None,
        passages: Vec::new(),
        assertion_kind: "claim".into(),
        assertion_name: phase.into(),
        assertion_position: 0,
        assertion_index: u64::from(rerun),
        assertion_line: None,
        check_type: check_type.into(),
        reads: vec![read_file],
        printed,
        comparison,
        outcome: native::outcome_of(reason).into(),
        native_outcome: native::native_outcome_of(reason).into(),
        native_reason: reason.into(),
        detail: check.message.clone(),
        stages: None,
        reader: Object::new()
            .with(
                "backend",
                format!(
                    "sciproof-{}",
                    media_type(&claim.output)
                        .rsplit('/')
                        .next()
                        .unwrap_or("file")
                ),
            )
            .with("backend_version", "1")
            .with("tool", "sciproof")
            .with("tool_version", version)
            .with("extraction_digest", extraction_digest),
        warnings: Vec::new(),
        execution: None,
        history: None,
        extensions: extensions(claim, phase),
    }
}
