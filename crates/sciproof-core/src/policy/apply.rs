//! Evaluating a policy against a manifest and the verification so far: the checks of every
//! rule the policy sets, in the order of [`super::rules::RULES`], appended after all
//! other checks.

use super::rules::{Facts, RULES};
use super::{Policy, RuleValue};
use crate::manifest::Manifest;
use crate::report::{Evidence, Report};

/// Adds the checks of every rule of `policy` to `report` (`now` is the Unix time used for
/// ages) and sets `report.policy`. Boolean rules set to `false` add no check, and the report
/// says so in a note.
pub fn apply_policy(policy: &Policy, manifest: &Manifest, report: &mut Report, now: f64) {
    report.policy = Some(policy.to_json());
    let mut findings = Vec::new();
    for rule in RULES {
        let Some(value) = policy.get(rule.section(), rule.key()) else {
            continue;
        };
        if *value == RuleValue::Bool(false) {
            continue;
        }
        let facts = Facts {
            manifest,
            report,
            now,
        };
        let name = format!("{}.{}", rule.section(), rule.key());
        findings.extend(
            rule.check(value, &facts)
                .into_iter()
                .map(|f| (name.clone(), f)),
        );
    }
    for (rule, f) in findings {
        let evidence = Evidence::Policy {
            rule: rule.clone(),
            limit: f.limit,
            found: f.found,
            path: f.path,
        };
        report.add(
            f.status,
            format!("policy {rule}"),
            f.message,
            Some(evidence),
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
