//! `[outputs]`: rules about how outputs are compared.

use super::{Facts, Finding, Rule, ValueKind, number, value_of};
use crate::manifest::Compare;
use crate::policy::RuleValue;
use crate::pyfmt::format_g6;
use crate::report::Status::{Fail, Pass};

/// `require_numeric`: these outputs are compared with a tolerance (one check per path).
pub struct RequireNumeric;

impl Rule for RequireNumeric {
    fn section(&self) -> &'static str {
        "outputs"
    }
    fn key(&self) -> &'static str {
        "require_numeric"
    }
    fn kind(&self) -> ValueKind {
        ValueKind::Paths
    }
    fn check(&self, value: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let RuleValue::Paths(paths) = value else {
            return Vec::new();
        };
        paths
            .iter()
            .map(|path| {
                let outputs = &facts.manifest.outputs;
                let mut f = match outputs.iter().find(|o| &o.path == path) {
                    None => Finding::new(Fail, format!("{path} is not a declared output")),
                    Some(o) if o.compare == Compare::Exact => Finding::new(
                        Fail,
                        format!("{path} is compared by exact hash, not with a tolerance"),
                    ),
                    Some(_) => Finding::new(Pass, format!("{path} is compared with a tolerance")),
                };
                f.path = Some(path.clone());
                f
            })
            .collect()
    }
}

/// A ceiling on one tolerance of every numeric output (`max_rtol`, `max_atol`).
pub struct Ceiling {
    key: &'static str,
    field: &'static str,
    tolerance: fn(&Compare) -> Option<f64>,
}

/// `max_rtol`: no numeric output has a larger relative tolerance.
pub static MAX_RTOL: Ceiling = Ceiling {
    key: "max_rtol",
    field: "rtol",
    tolerance: |c| match c {
        Compare::Numeric { rtol, .. } => Some(*rtol),
        Compare::Exact => None,
    },
};

/// `max_atol`: no numeric output has a larger absolute tolerance.
pub static MAX_ATOL: Ceiling = Ceiling {
    key: "max_atol",
    field: "atol",
    tolerance: |c| match c {
        Compare::Numeric { atol, .. } => Some(*atol),
        Compare::Exact => None,
    },
};

impl Rule for Ceiling {
    fn section(&self) -> &'static str {
        "outputs"
    }
    fn key(&self) -> &'static str {
        self.key
    }
    fn kind(&self) -> ValueKind {
        ValueKind::NonNegative
    }
    fn check(&self, ceiling: &RuleValue, facts: &Facts) -> Vec<Finding> {
        let c = number(ceiling);
        let field = self.field;
        let numeric: Vec<(&str, f64)> = facts
            .manifest
            .outputs
            .iter()
            .filter_map(|o| (self.tolerance)(&o.compare).map(|t| (o.path.as_str(), t)))
            .collect();
        let loose: Vec<String> = numeric
            .iter()
            .filter(|(_, t)| *t > c)
            .map(|(path, t)| format!("{path} ({field}={})", format_g6(*t)))
            .collect();
        let mut f = if !loose.is_empty() {
            Finding::new(
                Fail,
                format!("looser than {}: {}", format_g6(c), loose.join(", ")),
            )
        } else if !numeric.is_empty() {
            Finding::new(
                Pass,
                format!(
                    "all {} numeric output(s) have {field} <= {}",
                    numeric.len(),
                    format_g6(c)
                ),
            )
        } else {
            Finding::new(
                Pass,
                "no output is compared with a tolerance, so there is nothing to bound",
            )
        };
        f.limit = Some(value_of(ceiling));
        vec![f]
    }
}
