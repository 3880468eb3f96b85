//! Verification policies: rules about the evidence itself, written once in a TOML file and
//! checked on every verification (`verify --policy FILE`). Each rule becomes one check whose
//! subject starts with `policy`; a requirement that cannot be checked is INCONCLUSIVE, never a
//! pass. The rules, their order and messages are the reference's (spec §7.4).

mod apply;
pub mod rules;

pub use apply::apply_policy;

use crate::error::Result;
use crate::json::{Object, Value};
use crate::paths::validate_relative_path;
use crate::pyfmt::{format_g6, str_repr};
use rules::ValueKind;
use std::path::Path;
use thiserror::Error;

/// The only policy version.
pub const POLICY_VERSION: i64 = 1;
/// A policy file larger than this is refused.
pub const MAX_POLICY_BYTES: u64 = 64 * 1024;
/// At most this many paths in `outputs.require_numeric`.
pub const MAX_REQUIRED_OUTPUTS: usize = 100;

/// Why a policy file cannot be used.
#[derive(Debug, Error)]
pub enum PolicyError {
    /// The file cannot be read (missing, too large, not a regular file, not UTF-8).
    #[error("{0}")]
    Unreadable(String),
    /// The file is not TOML.
    #[error("{file}: not valid TOML: {}", .source.to_string().trim().replace('\n', " "))]
    NotToml {
        /// The file's name.
        file: String,
        /// What the TOML reader said.
        #[source]
        source: toml::de::Error,
    },
    /// The file is TOML but not a valid policy (a version, section, rule or value).
    #[error("{0}")]
    Invalid(String),
}

/// One validated rule value.
#[derive(Debug, Clone, PartialEq)]
pub enum RuleValue {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Number(f64),
    /// Relative paths.
    Paths(Vec<String>),
}

impl RuleValue {
    /// The value as TOML writes it (`true`, `30`, `0.0001`, `["a", "b"]`).
    pub fn toml_text(&self) -> String {
        match self {
            RuleValue::Bool(b) => b.to_string(),
            RuleValue::Int(i) => i.to_string(),
            RuleValue::Number(f) => format_g6(*f),
            RuleValue::Paths(p) => format!(
                "[{}]",
                p.iter()
                    .map(|s| crate::json::to_string_compact(&Value::from(s.as_str())))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// A validated policy: the file's name and digest, and its rules in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// The file's name.
    pub file: String,
    /// SHA-256 of the exact text (a BOM included).
    pub sha256: String,
    /// `(section, key, value)` in file order.
    pub rules: Vec<(String, String, RuleValue)>,
}

impl Policy {
    /// The value of rule `section.key`, if the file sets it.
    pub fn get(&self, section: &str, key: &str) -> Option<&RuleValue> {
        self.rules
            .iter()
            .find(|(s, k, _)| s == section && k == key)
            .map(|(_, _, v)| v)
    }

    /// Whether a boolean rule is set to `true`.
    pub fn enabled(&self, section: &str, key: &str) -> bool {
        matches!(self.get(section, key), Some(RuleValue::Bool(true)))
    }

    /// The boolean rules set to `false`: they add no check (said in the output, never silently).
    pub fn disabled_rules(&self) -> Vec<String> {
        self.rules
            .iter()
            .filter(|(_, _, v)| *v == RuleValue::Bool(false))
            .map(|(s, k, _)| format!("{s}.{k}"))
            .collect()
    }

    /// `report.policy`: `{"file", "sha256", "version"}`.
    pub fn to_json(&self) -> Value {
        Object::new()
            .with("file", &self.file)
            .with("sha256", &self.sha256)
            .with("version", POLICY_VERSION)
            .into()
    }
}

fn type_name(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => str_repr(s),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => crate::pyfmt::float_repr(*f),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(_) => "an array".into(),
        toml::Value::Table(_) => "a table".into(),
    }
}

fn check_value(place: &str, kind: ValueKind, value: &toml::Value) -> Result<RuleValue> {
    let bad = |m: String| -> crate::Error { PolicyError::Invalid(format!("{place}: {m}")).into() };
    let number = match value {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(f) => Some(*f),
        _ => None,
    };
    match kind {
        ValueKind::Bool => match value {
            toml::Value::Boolean(b) => Ok(RuleValue::Bool(*b)),
            other => Err(bad(format!(
                "expected true or false, got {}",
                type_name(other)
            ))),
        },
        ValueKind::Int => match value {
            toml::Value::Integer(i) => Ok(RuleValue::Int(*i)),
            other => Err(bad(format!(
                "expected a whole number, got {}",
                type_name(other)
            ))),
        },
        ValueKind::Count => match value {
            toml::Value::Integer(i) if *i >= 0 => Ok(RuleValue::Int(*i)),
            other => Err(bad(format!(
                "expected a whole number >= 0, got {}",
                type_name(other)
            ))),
        },
        ValueKind::Positive | ValueKind::NonNegative => match number {
            // an integer stays an integer, as written (it is reported as the limit)
            Some(f)
                if f.is_finite()
                    && (if kind == ValueKind::Positive {
                        f > 0.0
                    } else {
                        f >= 0.0
                    }) =>
            {
                Ok(match value {
                    toml::Value::Integer(i) => RuleValue::Int(*i),
                    _ => RuleValue::Number(f),
                })
            }
            _ => {
                let what = if kind == ValueKind::Positive {
                    "greater than 0"
                } else {
                    "0 or more"
                };
                Err(bad(format!(
                    "expected a finite number {what}, got {}",
                    type_name(value)
                )))
            }
        },
        ValueKind::Paths => {
            let toml::Value::Array(items) = value else {
                return Err(bad(format!(
                    "expected a list of at most {MAX_REQUIRED_OUTPUTS} paths"
                )));
            };
            if items.len() > MAX_REQUIRED_OUTPUTS {
                return Err(bad(format!(
                    "expected a list of at most {MAX_REQUIRED_OUTPUTS} paths"
                )));
            }
            let mut paths = Vec::new();
            for item in items {
                let Some(text) = item.as_str() else {
                    return Err(bad(format!(
                        "path must be a non-empty string, got {}",
                        type_name(item)
                    )));
                };
                validate_relative_path(text).map_err(|e| bad(e.0))?;
                if paths.iter().any(|p| p == text) {
                    return Err(bad(format!("{} is listed twice", str_repr(text))));
                }
                paths.push(text.to_string());
            }
            Ok(RuleValue::Paths(paths))
        }
    }
}

/// Validates the text of a policy file named `file`.
pub fn parse_policy(text: &str, file: &str) -> Result<Policy> {
    let table: toml::Table = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .parse()
        .map_err(|source| PolicyError::NotToml {
            file: file.to_string(),
            source,
        })?;
    let version_ok = match table.get("version") {
        Some(toml::Value::Integer(1)) => true,
        Some(toml::Value::Float(f)) => *f == 1.0, // the reference accepts 1.0 (Python's 1.0 == 1)
        _ => false,
    };
    if !version_ok {
        let got = table.get("version").map_or("None".to_string(), type_name);
        return Err(PolicyError::Invalid(format!(
            "{file}: 'version = {POLICY_VERSION}' is required (got {got})"
        ))
        .into());
    }
    let mut rules = Vec::new();
    for (section, content) in &table {
        if section == "version" {
            continue;
        }
        if !rules::sections().contains(&section.as_str()) {
            let known: Vec<String> = rules::sections().iter().map(|s| format!("[{s}]")).collect();
            return Err(PolicyError::Invalid(format!(
                "{file}: unknown section [{section}]; use one of {}",
                known.join(", ")
            ))
            .into());
        }
        let toml::Value::Table(content) = content else {
            return Err(
                PolicyError::Invalid(format!("{file}: [{section}] must be a table")).into(),
            );
        };
        for (key, value) in content {
            let Some(rule) = rules::rule(section, key) else {
                let known = rules::keys(section);
                return Err(PolicyError::Invalid(format!(
                    "{file}: unknown rule {section}.{key}; known rules of [{section}]: {}",
                    known.join(", ")
                ))
                .into());
            };
            let checked = check_value(&format!("{file}: {section}.{key}"), rule.kind(), value)?;
            rules.push((section.clone(), key.clone(), checked));
        }
    }
    Ok(Policy {
        file: file.to_string(),
        sha256: crate::hash::sha256_bytes(text.as_bytes()),
        rules,
    })
}

/// Reads (once, bounded: never a FIFO or device) and validates a policy file (at most 64 KiB
/// of UTF-8 TOML).
pub fn load_policy(path: &Path) -> Result<Policy> {
    use crate::untrusted::{Kind, Problem};
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = crate::untrusted::read(path, Kind::Policy).map_err(|e| {
        PolicyError::Unreadable(match e.problem {
            Problem::NotFound => format!("policy file not found: {}", path.display()),
            Problem::TooLarge(_) => format!("{name}: larger than {MAX_POLICY_BYTES} bytes"),
            _ => e.to_string(),
        })
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        PolicyError::Unreadable(format!(
            "cannot read policy {}: not UTF-8 (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    parse_policy(&text, &name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_policy(text, "p.toml").unwrap_err().to_string()
    }

    #[test]
    fn validation_errors_name_the_rule_and_the_known_ones() {
        assert_eq!(
            err("version = 2"),
            "p.toml: 'version = 1' is required (got 2)"
        );
        assert_eq!(err(""), "p.toml: 'version = 1' is required (got None)");
        assert!(
            err("version = 1\n[foo]\n")
                .contains("unknown section [foo]; use one of [manifest], [outputs], [rerun]")
        );
        assert!(err("version = 1\n[manifest]\nmax_age = 3\n").contains("unknown rule manifest.max_age; known rules of [manifest]: max_age_days, require_exit_code"));
        assert_eq!(
            err("version = 1\nmanifest = 3\n"),
            "p.toml: [manifest] must be a table"
        );
        assert_eq!(
            err("version = 1\n[manifest]\nmax_age_days = 0\n"),
            "p.toml: manifest.max_age_days: expected a finite number greater than 0, got 0"
        );
        assert_eq!(
            err("version = 1\n[manifest]\nrequire_exit_code = 1.0\n"),
            "p.toml: manifest.require_exit_code: expected a whole number, got 1.0"
        );
        assert_eq!(
            err("version = 1\n[manifest]\nrequire_git = 1\n"),
            "p.toml: manifest.require_git: expected true or false, got 1"
        );
        assert_eq!(
            err("version = 1\n[manifest]\nmin_claims = -1\n"),
            "p.toml: manifest.min_claims: expected a whole number >= 0, got -1"
        );
        assert_eq!(
            err("version = 1\n[outputs]\nmax_rtol = nan\n"),
            "p.toml: outputs.max_rtol: expected a finite number 0 or more, got nan"
        );
        assert_eq!(
            err("version = 1\n[outputs]\nrequire_numeric = [\"a\", \"a\"]\n"),
            "p.toml: outputs.require_numeric: 'a' is listed twice"
        );
        assert!(
            err("version = 1\n[outputs]\nrequire_numeric = [\"../a\"]\n")
                .contains("contains empty, '.' or '..' components")
        );
        assert!(err("version = [").starts_with("p.toml: not valid TOML: "));
    }

    #[test]
    fn rules_in_file_order_digest_of_the_exact_text() {
        let text = "\u{feff}version = 1.0\n[rerun]\nrequire = true\n[manifest]\nrequire_git = false\nmax_age_days = 30\n";
        let p = parse_policy(text, "p.toml").unwrap();
        let names: Vec<String> = p.rules.iter().map(|(s, k, _)| format!("{s}.{k}")).collect();
        assert_eq!(
            names,
            [
                "rerun.require",
                "manifest.require_git",
                "manifest.max_age_days"
            ]
        );
        assert_eq!(p.sha256, crate::hash::sha256_bytes(text.as_bytes()));
        assert_eq!(p.disabled_rules(), ["manifest.require_git"]);
    }
}
