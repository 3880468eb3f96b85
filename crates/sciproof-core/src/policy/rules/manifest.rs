//! `[manifest]`: rules about what the manifest records.

use super::{Facts, Finding, Rule, ValueKind, number, value_of};
use crate::json::Value;
use crate::policy::RuleValue;
use crate::pyfmt::format_g6;
use crate::report::Status::{Fail, Inconclusive, Pass};

/// Clock skew tolerated before a capture time counts as "in the future".
const CLOCK_SKEW_SECONDS: f64 = 300.0;

/// `max_age_days`: captured at most this many days ago (and not in the future).
pub struct MaxAgeDays;

impl Rule for MaxAgeDays {
    fn section(&self) -> &'static str {
        "manifest"
    }
    fn key(&self) -> &'static str {
        "max_age_days"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Positive
    }
    fn check(&self, limit: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let l = number(limit);
        let captured = crate::timestamp::parse(&facts.manifest.created_at).unwrap_or(facts.now);
        let age = (facts.now - captured) / 86_400.0;
        let mut finding = if age < -CLOCK_SKEW_SECONDS / 86_400.0 {
            Finding::new(Fail, "the manifest says it was captured in the future")
        } else {
            let mut f = if age <= l {
                Finding::new(
                    Pass,
                    format!(
                        "captured {age:.1} days ago (at most {} allowed)",
                        format_g6(l)
                    ),
                )
            } else {
                Finding::new(
                    Fail,
                    format!(
                        "captured {age:.1} days ago; the policy allows at most {}",
                        format_g6(l)
                    ),
                )
            };
            f.found = Some(Value::from((age * 1000.0).round() / 1000.0));
            f
        };
        finding.limit = Some(value_of(limit));
        vec![finding]
    }
}

/// `require_exit_code`: the recorded run exited with this code.
pub struct RequireExitCode;

impl Rule for RequireExitCode {
    fn section(&self) -> &'static str {
        "manifest"
    }
    fn key(&self) -> &'static str {
        "require_exit_code"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Int
    }
    fn check(&self, value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let RuleValue::Int(expected) = value else {
            return Vec::new();
        };
        let found = facts.manifest.execution.exit_code;
        let mut f = if found == *expected {
            Finding::new(Pass, format!("the recorded run exited with {found}"))
        } else {
            Finding::new(
                Fail,
                format!("the recorded run exited with {found}; the policy requires {expected}"),
            )
        };
        f.limit = Some(Value::from(*expected));
        f.found = Some(Value::from(found));
        vec![f]
    }
}

/// `require_git`: a Git state was recorded.
pub struct RequireGit;

impl Rule for RequireGit {
    fn section(&self) -> &'static str {
        "manifest"
    }
    fn key(&self) -> &'static str {
        "require_git"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Bool
    }
    fn check(&self, _value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        vec![match facts.manifest.git.as_ref() {
            Some(g) => Finding::new(
                Pass,
                format!(
                    "Git commit {} recorded",
                    g.commit.chars().take(12).collect::<String>()
                ),
            ),
            None => Finding::new(Fail, "no Git state was recorded"),
        }]
    }
}

/// `forbid_dirty_git`: the working tree was clean at capture.
pub struct ForbidDirtyGit;

impl Rule for ForbidDirtyGit {
    fn section(&self) -> &'static str {
        "manifest"
    }
    fn key(&self) -> &'static str {
        "forbid_dirty_git"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Bool
    }
    fn check(&self, _value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        vec![match facts.manifest.git.as_ref() {
            None => Finding::new(
                Inconclusive,
                "no Git state was recorded, so a clean working tree cannot be confirmed",
            ),
            Some(g) if g.dirty => Finding::new(
                Fail,
                "the Git working tree had uncommitted changes when the evidence was captured",
            ),
            Some(_) => Finding::new(Pass, "the Git working tree was clean"),
        }]
    }
}

/// `require_signature`: a good signature (checked with `--allowed-signers`).
pub struct RequireSignature;

impl Rule for RequireSignature {
    fn section(&self) -> &'static str {
        "manifest"
    }
    fn key(&self) -> &'static str {
        "require_signature"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Bool
    }
    fn check(&self, _value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let signature = facts.report.signature.as_ref().and_then(Value::as_object);
        let status = signature
            .and_then(|o| o.get("status"))
            .and_then(Value::as_str);
        vec![match status {
            None => Finding::new(
                Inconclusive,
                "a signature is required, but no --allowed-signers file was given to check it",
            ),
            Some("good") => {
                let principal = signature
                    .and_then(|o| o.get("principal"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                Finding::new(
                    Pass,
                    format!("signed by {}", crate::pyfmt::str_repr(principal)),
                )
            }
            Some("bad") => Finding::new(
                Fail,
                "the signature is not good (see the 'manifest signature' check)",
            ),
            Some(_) => Finding::new(
                Inconclusive,
                "the signature could not be checked (see the 'manifest signature' check)",
            ),
        }]
    }
}

/// `min_claims`: at least this many claims were recorded.
pub struct MinClaims;

impl Rule for MinClaims {
    fn section(&self) -> &'static str {
        "manifest"
    }
    fn key(&self) -> &'static str {
        "min_claims"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Count
    }
    fn check(&self, value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let RuleValue::Int(minimum) = value else {
            return Vec::new();
        };
        let count = facts.manifest.claims.len() as i64;
        let mut f = if count >= *minimum {
            Finding::new(Pass, format!("{count} claim(s) recorded"))
        } else {
            Finding::new(
                Fail,
                format!("{count} claim(s) recorded; the policy requires at least {minimum}"),
            )
        };
        f.limit = Some(Value::from(*minimum));
        f.found = Some(Value::from(count));
        vec![f]
    }
}

/// A rule that something was recorded (`require_note`, `require_hardware`).
pub struct Recorded {
    key: &'static str,
    label: &'static str,
    present: fn(&crate::manifest::Manifest) -> bool,
}

/// `require_note`: a note was recorded.
pub static REQUIRE_NOTE: Recorded = Recorded {
    key: "require_note",
    label: "note",
    present: |m| m.note.is_some(),
};

/// `require_hardware`: a hardware record was made (`capture --record-hardware`).
pub static REQUIRE_HARDWARE: Recorded = Recorded {
    key: "require_hardware",
    label: "hardware record",
    present: |m| m.environment.hardware.is_some(),
};

impl Rule for Recorded {
    fn section(&self) -> &'static str {
        "manifest"
    }
    fn key(&self) -> &'static str {
        self.key
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Bool
    }
    fn check(&self, _value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let label = self.label;
        vec![if (self.present)(facts.manifest) {
            Finding::new(Pass, format!("a {label} was recorded"))
        } else {
            Finding::new(Fail, format!("no {label} was recorded"))
        }]
    }
}
