//! `[rerun]`: rules about re-executing the recorded command.

use super::{Facts, Finding, Rule, ValueKind};
use crate::policy::RuleValue;
use crate::report::Status::{Fail, Inconclusive, Pass};

/// `require`: the verification re-executed the recorded command (`--rerun`).
pub struct Require;

impl Rule for Require {
    fn section(&self) -> &'static str {
        "rerun"
    }
    fn key(&self) -> &'static str {
        "require"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Bool
    }
    fn check(&self, _value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let report = facts.report;
        vec![if report.rerun_executed {
            Finding::new(Pass, "the recorded command was re-executed")
        } else if !report.rerun_requested {
            Finding::new(
                Inconclusive,
                "the policy requires a rerun, but this verification ran without --rerun",
            )
        } else {
            Finding::new(
                Inconclusive,
                "a rerun was requested but did not happen (see the other checks)",
            )
        }]
    }
}

/// `require_clean_env`: the rerun got a minimal environment (`--clean-env`).
pub struct RequireCleanEnv;

impl Rule for RequireCleanEnv {
    fn section(&self) -> &'static str {
        "rerun"
    }
    fn key(&self) -> &'static str {
        "require_clean_env"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Bool
    }
    fn check(&self, _value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let report = facts.report;
        vec![if !report.rerun_executed {
            Finding::new(
                Inconclusive,
                "there was no rerun, so the environment it ran in is unknown",
            )
        } else if report.clean_env {
            Finding::new(Pass, "the rerun got a minimal environment (--clean-env)")
        } else {
            Finding::new(
                Fail,
                "the rerun got the caller's whole environment; the policy requires --clean-env",
            )
        }]
    }
}
