//! The policy rules: each implements [`Rule`] (its section, key, value kind and check), one
//! file per section ([`manifest`], [`outputs`], [`rerun`]), and [`RULES`] lists them in the
//! order they are checked and reported. Validating a policy file and applying it both read
//! this list; no rule name is matched anywhere else.
//!
//! A new rule is one `Rule` in its section's file and one line in [`RULES`].

pub mod manifest;
pub mod outputs;
pub mod rerun;

use super::RuleValue;
use crate::json::Value;
use crate::manifest::Manifest;
use crate::report::{Report, Status};

/// What a rule's value must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// `true` or `false` (a rule set to `false` adds no check).
    Bool,
    /// A whole number.
    Int,
    /// A whole number, 0 or more.
    Count,
    /// A finite number greater than 0.
    Positive,
    /// A finite number, 0 or more.
    NonNegative,
    /// A list of distinct relative paths.
    Paths,
}

/// What a rule looks at: the manifest, the verification so far (its signature and rerun), and
/// the time.
pub struct Facts<'a> {
    /// The manifest verified.
    pub manifest: &'a Manifest,
    /// The checks and facts of the verification before the policy.
    pub report: &'a Report,
    /// Now, as Unix time (for ages).
    pub now: f64,
}

/// One check a rule makes.
pub struct Finding {
    /// Its status.
    pub status: Status,
    /// Its message.
    pub message: String,
    /// The rule's limit, when it has one.
    pub limit: Option<Value>,
    /// What was found, when it is a value.
    pub found: Option<Value>,
    /// The path it is about, when it is about one.
    pub path: Option<String>,
}

impl Finding {
    /// A finding with only a status and a message.
    pub fn new(status: Status, message: impl Into<String>) -> Finding {
        Finding {
            status,
            message: message.into(),
            limit: None,
            found: None,
            path: None,
        }
    }
}

/// One rule of a policy file.
pub trait Rule: Sync {
    /// Its section (`manifest`, `outputs`, `rerun`).
    fn section(&self) -> &'static str;
    /// Its key in the section.
    fn key(&self) -> &'static str;
    /// What its value must be.
    fn kind(&self) -> ValueKind;
    /// The checks it makes, given the value the policy sets (a boolean rule is asked only when
    /// it is `true`).
    fn check(&self, value: &RuleValue, facts: &Facts) -> Vec<Finding>;
}

/// Every rule, in the order rules are checked and reported, grouped by section.
pub static RULES: [&dyn Rule; 13] = [
    &manifest::MaxAgeDays,
    &manifest::RequireExitCode,
    &manifest::RequireGit,
    &manifest::ForbidDirtyGit,
    &manifest::RequireSignature,
    &manifest::MinClaims,
    &manifest::REQUIRE_NOTE,
    &manifest::REQUIRE_HARDWARE,
    &outputs::RequireNumeric,
    &outputs::MAX_RTOL,
    &outputs::MAX_ATOL,
    &rerun::Require,
    &rerun::RequireCleanEnv,
];

/// The sections, in the order of [`RULES`].
pub fn sections() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in RULES {
        if !out.contains(&r.section()) {
            out.push(r.section());
        }
    }
    out
}

/// The rule `section.key`, if there is one.
pub fn rule(section: &str, key: &str) -> Option<&'static dyn Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.section() == section && r.key() == key)
}

/// The keys of `section`, in order.
pub fn keys(section: &str) -> Vec<&'static str> {
    RULES
        .iter()
        .filter(|r| r.section() == section)
        .map(|r| r.key())
        .collect()
}

/// A rule's number (an integer or a float).
pub(super) fn number(v: &RuleValue) -> f64 {
    match v {
        RuleValue::Int(i) => *i as f64,
        RuleValue::Number(f) => *f,
        _ => f64::NAN,
    }
}

/// A rule's value as report evidence.
pub(super) fn value_of(v: &RuleValue) -> Value {
    match v {
        RuleValue::Int(i) => Value::from(*i),
        RuleValue::Number(f) => Value::from(*f),
        RuleValue::Bool(b) => Value::Bool(*b),
        RuleValue::Paths(p) => Value::Array(p.iter().map(|s| Value::from(s.as_str())).collect()),
    }
}
