//! Evaluating a policy against a manifest and the verification so far: one check per rule,
//! in a fixed order, appended after all other checks.

use super::{Policy, RuleValue};
use crate::json::Value;
use crate::manifest::{Compare, Manifest};
use crate::pyfmt::format_g6;
use crate::report::{Evidence, Report, Status};

/// Clock skew tolerated before a capture time counts as "in the future".
const CLOCK_SKEW_SECONDS: f64 = 300.0;

fn add(
    report: &mut Report,
    status: Status,
    rule: &str,
    message: String,
    limit: Option<Value>,
    found: Option<Value>,
    path: Option<&str>,
) {
    let evidence = Evidence::Policy {
        rule: rule.to_string(),
        limit,
        found,
        path: path.map(str::to_string),
    };
    report.add(status, format!("policy {rule}"), message, Some(evidence));
}

fn number(v: &RuleValue) -> f64 {
    match v {
        RuleValue::Int(i) => *i as f64,
        RuleValue::Number(f) => *f,
        _ => f64::NAN,
    }
}

fn value_of(v: &RuleValue) -> Value {
    match v {
        RuleValue::Int(i) => Value::from(*i),
        RuleValue::Number(f) => Value::from(*f),
        RuleValue::Bool(b) => Value::Bool(*b),
        RuleValue::Paths(p) => Value::Array(p.iter().map(|s| Value::from(s.as_str())).collect()),
    }
}

/// Adds one check per rule of `policy` to `report` (`now` is the Unix time used for ages) and
/// sets `report.policy`. Boolean rules set to `false` add no check, and the report says so in
/// a note.
pub fn apply_policy(policy: &Policy, manifest: &Manifest, report: &mut Report, now: f64) {
    use Status::*;
    report.policy = Some(policy.to_json());
    if let Some(limit) = policy.get("manifest", "max_age_days") {
        let l = number(limit);
        let captured = crate::timestamp::parse(&manifest.created_at).unwrap_or(now);
        let age = (now - captured) / 86_400.0;
        let rule = "manifest.max_age_days";
        if age < -CLOCK_SKEW_SECONDS / 86_400.0 {
            add(
                report,
                Fail,
                rule,
                "the manifest says it was captured in the future".into(),
                Some(value_of(limit)),
                None,
                None,
            );
        } else {
            let found = Some(Value::from((age * 1000.0).round() / 1000.0));
            if age <= l {
                add(
                    report,
                    Pass,
                    rule,
                    format!(
                        "captured {age:.1} days ago (at most {} allowed)",
                        format_g6(l)
                    ),
                    Some(value_of(limit)),
                    found,
                    None,
                );
            } else {
                add(
                    report,
                    Fail,
                    rule,
                    format!(
                        "captured {age:.1} days ago; the policy allows at most {}",
                        format_g6(l)
                    ),
                    Some(value_of(limit)),
                    found,
                    None,
                );
            }
        }
    }
    if let Some(RuleValue::Int(expected)) = policy.get("manifest", "require_exit_code") {
        let found = manifest.execution.exit_code;
        let ok = found == *expected;
        let message = if ok {
            format!("the recorded run exited with {found}")
        } else {
            format!("the recorded run exited with {found}; the policy requires {expected}")
        };
        add(
            report,
            if ok { Pass } else { Fail },
            "manifest.require_exit_code",
            message,
            Some(Value::from(*expected)),
            Some(Value::from(found)),
            None,
        );
    }
    let git = manifest.git.as_ref();
    if policy.enabled("manifest", "require_git") {
        let (status, message) = match git {
            Some(g) => (
                Pass,
                format!(
                    "Git commit {} recorded",
                    g.commit.chars().take(12).collect::<String>()
                ),
            ),
            None => (Fail, "no Git state was recorded".to_string()),
        };
        add(
            report,
            status,
            "manifest.require_git",
            message,
            None,
            None,
            None,
        );
    }
    if policy.enabled("manifest", "forbid_dirty_git") {
        let (status, message) = match git {
            None => (
                Inconclusive,
                "no Git state was recorded, so a clean working tree cannot be confirmed",
            ),
            Some(g) if g.dirty => (
                Fail,
                "the Git working tree had uncommitted changes when the evidence was captured",
            ),
            Some(_) => (Pass, "the Git working tree was clean"),
        };
        add(
            report,
            status,
            "manifest.forbid_dirty_git",
            message.into(),
            None,
            None,
            None,
        );
    }
    if policy.enabled("manifest", "require_signature") {
        let signature = report.signature.as_ref().and_then(Value::as_object);
        let status_text = signature
            .and_then(|o| o.get("status"))
            .and_then(Value::as_str);
        let (status, message) = match status_text {
            None => (
                Inconclusive,
                "a signature is required, but no --allowed-signers file was given to check it"
                    .to_string(),
            ),
            Some("good") => {
                let principal = signature
                    .and_then(|o| o.get("principal"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                (
                    Pass,
                    format!("signed by {}", crate::pyfmt::str_repr(principal)),
                )
            }
            Some("bad") => (
                Fail,
                "the signature is not good (see the 'manifest signature' check)".into(),
            ),
            Some(_) => (
                Inconclusive,
                "the signature could not be checked (see the 'manifest signature' check)".into(),
            ),
        };
        add(
            report,
            status,
            "manifest.require_signature",
            message,
            None,
            None,
            None,
        );
    }
    if let Some(RuleValue::Int(minimum)) = policy.get("manifest", "min_claims") {
        let count = manifest.claims.len() as i64;
        let ok = count >= *minimum;
        let message = if ok {
            format!("{count} claim(s) recorded")
        } else {
            format!("{count} claim(s) recorded; the policy requires at least {minimum}")
        };
        add(
            report,
            if ok { Pass } else { Fail },
            "manifest.min_claims",
            message,
            Some(Value::from(*minimum)),
            Some(Value::from(count)),
            None,
        );
    }
    for (key, present, label) in [
        ("require_note", manifest.note.is_some(), "note"),
        (
            "require_hardware",
            manifest.environment.hardware.is_some(),
            "hardware record",
        ),
    ] {
        if policy.enabled("manifest", key) {
            let message = if present {
                format!("a {label} was recorded")
            } else {
                format!("no {label} was recorded")
            };
            add(
                report,
                if present { Pass } else { Fail },
                &format!("manifest.{key}"),
                message,
                None,
                None,
                None,
            );
        }
    }
    if let Some(RuleValue::Paths(paths)) = policy.get("outputs", "require_numeric") {
        for path in paths {
            let (status, message) = match manifest.outputs.iter().find(|o| &o.path == path) {
                None => (Fail, format!("{path} is not a declared output")),
                Some(o) if o.compare == Compare::Exact => (
                    Fail,
                    format!("{path} is compared by exact hash, not with a tolerance"),
                ),
                Some(_) => (Pass, format!("{path} is compared with a tolerance")),
            };
            add(
                report,
                status,
                "outputs.require_numeric",
                message,
                None,
                None,
                Some(path),
            );
        }
    }
    let numeric: Vec<(&str, f64, f64)> = manifest
        .outputs
        .iter()
        .filter_map(|o| match &o.compare {
            Compare::Numeric { rtol, atol, .. } => Some((o.path.as_str(), *rtol, *atol)),
            Compare::Exact => None,
        })
        .collect();
    for (key, field) in [("max_rtol", "rtol"), ("max_atol", "atol")] {
        let Some(ceiling) = policy.get("outputs", key) else {
            continue;
        };
        let c = number(ceiling);
        let value = |t: &(&str, f64, f64)| if field == "rtol" { t.1 } else { t.2 };
        let loose: Vec<String> = numeric
            .iter()
            .filter(|t| value(t) > c)
            .map(|t| format!("{} ({field}={})", t.0, format_g6(value(t))))
            .collect();
        let rule = format!("outputs.{key}");
        let (status, message) = if !loose.is_empty() {
            (
                Fail,
                format!("looser than {}: {}", format_g6(c), loose.join(", ")),
            )
        } else if !numeric.is_empty() {
            (
                Pass,
                format!(
                    "all {} numeric output(s) have {field} <= {}",
                    numeric.len(),
                    format_g6(c)
                ),
            )
        } else {
            (
                Pass,
                "no output is compared with a tolerance, so there is nothing to bound".to_string(),
            )
        };
        add(
            report,
            status,
            &rule,
            message,
            Some(value_of(ceiling)),
            None,
            None,
        );
    }
    if policy.enabled("rerun", "require") {
        let (status, message) = if report.rerun_executed {
            (Pass, "the recorded command was re-executed")
        } else if !report.rerun_requested {
            (
                Inconclusive,
                "the policy requires a rerun, but this verification ran without --rerun",
            )
        } else {
            (
                Inconclusive,
                "a rerun was requested but did not happen (see the other checks)",
            )
        };
        add(
            report,
            status,
            "rerun.require",
            message.into(),
            None,
            None,
            None,
        );
    }
    if policy.enabled("rerun", "require_clean_env") {
        let (status, message) = if !report.rerun_executed {
            (
                Inconclusive,
                "there was no rerun, so the environment it ran in is unknown",
            )
        } else if report.clean_env {
            (Pass, "the rerun got a minimal environment (--clean-env)")
        } else {
            (
                Fail,
                "the rerun got the caller's whole environment; the policy requires --clean-env",
            )
        };
        add(
            report,
            status,
            "rerun.require_clean_env",
            message.into(),
            None,
            None,
            None,
        );
    }
    let disabled = policy.disabled_rules();
    if !disabled.is_empty() {
        report.notes.push(format!(
            "policy rules set to false add no check: {}",
            disabled.join(", ")
        ));
    }
}
