//! The environment of a rerun: what differs from the recorded one (reported as warnings, or
//! INCONCLUSIVE with `--strict-env`, never a pass or a fail), and the reduced environment of
//! `--clean-env`.

use crate::error::{Error, Result};
use crate::json::Value;
use crate::manifest::{Manifest, source};
use crate::probe::python::{self, normalize_package_name};
use crate::probe::{ENV_ALLOWLIST, hardware::hardware_info, platform_info, selected_env_vars};
use crate::pyfmt::str_repr;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// At most this many package differences are listed.
const MAX_LISTED: usize = 10;

/// What a command needs to start at all; passed by `--clean-env` when set.
pub const CLEAN_ENV_BASE: [&str; 8] = [
    "PATH",
    "PATHEXT",
    "SYSTEMROOT",
    "WINDIR",
    "COMSPEC",
    "TMPDIR",
    "TEMP",
    "TMP",
];

fn text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "None".into(),
        Some(Value::String(s)) => str_repr(s),
        Some(other) => crate::json::to_string_compact(other),
    }
}

/// The differences between the recorded environment and this one, in the reference's order:
/// Python version, system and machine, packages (at most ten, then a count), allow-listed
/// variables both ways (names only, never values), CPU count and GPUs if hardware was recorded.
///
/// The Python interpreter is probed only when the command starts with one (after the user
/// confirmed the rerun): a shell or binary command has no Python version to compare.
pub fn differences(base: &Path, manifest: &Manifest) -> Vec<String> {
    let mut out = Vec::new();
    let env = &manifest.environment;
    let argv0 = &manifest.command.argv[0];
    if let Some(now) = python::probe(argv0, base) {
        let recorded_version = env.python_version();
        if env.source.as_deref() != Some(source::NOT_PYTHON) && now.version != recorded_version {
            out.push(format!(
                "Python {recorded_version} was used, now {}",
                now.version
            ));
        }
        let current: HashMap<String, &str> = now
            .packages
            .iter()
            .map(|(n, v)| (normalize_package_name(n), v.as_str()))
            .collect();
        let mut notes = Vec::new();
        for dep in &manifest.dependencies {
            match current.get(&normalize_package_name(&dep.name)) {
                None => notes.push(format!(
                    "package {}=={} is not installed",
                    dep.name, dep.version
                )),
                Some(v) if *v != dep.version => notes.push(format!(
                    "package {}: {} was used, now {v}",
                    dep.name, dep.version
                )),
                Some(_) => {}
            }
        }
        let extra = notes.len().saturating_sub(MAX_LISTED);
        out.extend(notes.into_iter().take(MAX_LISTED));
        if extra > 0 {
            out.push(format!("... and {extra} more package differences"));
        }
    }
    let platform = platform_info();
    for key in ["system", "machine"] {
        let (old, new) = (env.platform.get(key), platform.get(key));
        if old != new {
            out.push(format!("{key}: {} was used, now {}", text(old), text(new)));
        }
    }
    let now_vars = selected_env_vars();
    let mut names: Vec<&str> = env
        .env_vars
        .iter()
        .map(|(k, _)| k)
        .chain(now_vars.iter().map(|(k, _)| k))
        .collect();
    names.sort();
    names.dedup();
    for name in names {
        match (env.env_vars.get(name), now_vars.get(name)) {
            (Some(_), None) => out.push(format!(
                "environment variable {name} was set at capture time, not now"
            )),
            (None, Some(_)) => out.push(format!(
                "environment variable {name} is set now, was not at capture time"
            )),
            (Some(a), Some(b)) if a != b => out.push(format!(
                "environment variable {name} differs from the recorded value"
            )),
            _ => {}
        }
    }
    if let Some(recorded) = &env.hardware {
        let now = hardware_info();
        if now.cpu_count != recorded.cpu_count {
            let show = |c: Option<u64>| c.map_or("None".to_string(), |c| c.to_string());
            out.push(format!(
                "CPU count: {} was used, now {}",
                show(recorded.cpu_count),
                show(now.cpu_count)
            ));
        }
        let pairs = |g: &[crate::manifest::Gpu]| {
            g.iter()
                .map(|g| (g.name.clone(), g.driver.clone()))
                .collect::<Vec<_>>()
        };
        let (old, new) = (pairs(&recorded.gpus), pairs(&now.gpus));
        let both_probed = recorded.gpu_probe == "nvidia-smi" && now.gpu_probe == "nvidia-smi";
        if old != new && (both_probed || !old.is_empty() || !new.is_empty()) {
            let show = |g: &[(String, String)]| {
                if g.is_empty() {
                    "none".to_string()
                } else {
                    g.iter()
                        .map(|(n, d)| format!("{n} (driver {d})"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            };
            out.push(format!(
                "GPUs: {} were used, now {}",
                show(&old),
                show(&new)
            ));
        }
    }
    out
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The reduced environment of `--clean-env`: the variables a command needs to start, the
/// allow-listed numerics variables and each `--pass-env` name, each only if it is set here.
/// Returns the environment and the requested names that are not set.
pub fn clean_environment(pass_env: &[String]) -> Result<(BTreeMap<String, String>, Vec<String>)> {
    for name in pass_env {
        if !valid_name(name) {
            return Err(Error::Verify(format!(
                "{} is not a valid environment variable name",
                str_repr(name)
            )));
        }
    }
    let mut env = BTreeMap::new();
    for name in CLEAN_ENV_BASE
        .iter()
        .chain(ENV_ALLOWLIST.iter())
        .map(|s| s.to_string())
        .chain(pass_env.iter().cloned())
    {
        if let Some(value) = std::env::var_os(&name) {
            env.insert(name, value.to_string_lossy().into_owned());
        }
    }
    let unset = pass_env
        .iter()
        .filter(|n| std::env::var_os(n).is_none())
        .cloned()
        .collect();
    Ok((env, unset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_env_names_are_validated() {
        assert!(
            clean_environment(&["1BAD".into()])
                .unwrap_err()
                .to_string()
                .contains("'1BAD' is not a valid environment variable name")
        );
        let (env, unset) = clean_environment(&["SCIPROOF_SURELY_UNSET_VAR".into()]).unwrap();
        assert!(env.contains_key("PATH"));
        assert!(!env.contains_key("HOME"));
        assert_eq!(unset, ["SCIPROOF_SURELY_UNSET_VAR"]);
    }
}
