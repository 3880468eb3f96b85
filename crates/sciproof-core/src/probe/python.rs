//! The Python interpreter probe: when the recorded command starts with a Python interpreter,
//! that interpreter is asked (with a fixed built-in snippet, never the user's program) for its
//! version and installed packages, listed the same way the reference lists them.

use super::which;
use crate::json::{self, Value};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(30);

/// The snippet the interpreter runs. It prints one JSON document. Packages are named after their
/// `NAME-VERSION.dist-info` / `.egg-info` folder when it has that form (else from metadata),
/// de-duplicated by PEP 503 name (a later one wins) and sorted case-insensitively.
const SNIPPET: &str = r#"
import json, platform, re, sys
import importlib.metadata as metadata
found = {}
for dist in metadata.distributions():
    folder = getattr(dist, "_path", None)
    m = re.fullmatch(r"(.+?)-([0-9][^-]*)\.(?:dist|egg)-info", folder.name) if folder is not None else None
    if m:
        name, version = m.group(1), m.group(2)
    else:
        name, version = (dist.metadata["Name"] or "").strip(), dist.version
    if name:
        found[re.sub(r"[-_.]+", "-", name).lower()] = [name, version]
print(json.dumps({
    "version": platform.python_version(),
    "implementation": platform.python_implementation(),
    "byteorder": sys.byteorder,
    "packages": sorted(found.values(), key=lambda item: item[0].lower()),
}))
"#;

/// What the probe learned.
#[derive(Debug, Clone, PartialEq)]
pub struct Interpreter {
    /// `sys.version` (first line).
    pub version: String,
    /// `sys.implementation.name`.
    pub implementation: String,
    /// `sys.byteorder`.
    pub byteorder: String,
    /// `(name, version)` pairs, sorted by lower-cased name.
    pub packages: Vec<(String, String)>,
}

/// Whether `argv0` names a Python interpreter: its base name, lower-cased and without `.exe`,
/// fully matches `py`, `python`, `pythonw`, `python3.13`, `python3.13t`, `pypy`, `pypy3.10`...
/// (never `python-config` or `python_train.sh`, which would run the user's own program).
pub fn looks_like_python(argv0: &str) -> bool {
    let base = argv0
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(argv0)
        .to_lowercase();
    let name = base.strip_suffix(".exe").unwrap_or(&base);
    // (\d+(\.\d+)*)? with an optional [dt]* after the digits for `python`.
    let version_tail = |rest: &str, allow_suffix: bool| -> bool {
        if rest.is_empty() {
            return true;
        }
        let body = if allow_suffix {
            rest.trim_end_matches(['d', 't'])
        } else {
            rest
        };
        !body.is_empty()
            && body
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    if name == "py" || name == "python" || name == "pythonw" || name == "pypy" {
        return true;
    }
    if let Some(rest) = name
        .strip_prefix("pythonw")
        .or_else(|| name.strip_prefix("python"))
    {
        return version_tail(rest, true);
    }
    if let Some(rest) = name.strip_prefix("pypy") {
        return version_tail(rest, false);
    }
    false
}

/// Asks the interpreter `argv0` about itself (run in `cwd`, 30 s at most). `None` when `argv0`
/// is not a Python interpreter or the probe failed in any way.
pub fn probe(argv0: &str, cwd: &Path) -> Option<Interpreter> {
    if !looks_like_python(argv0) {
        return None;
    }
    let exe = which(argv0).or_else(|| {
        Path::new(argv0)
            .exists()
            .then(|| Path::new(argv0).to_path_buf())
    })?;
    let mut command = Command::new(exe);
    command
        .arg("-c")
        .arg(SNIPPET)
        .current_dir(cwd)
        .stdin(Stdio::null());
    let output = crate::runner::output_with_timeout(command, TIMEOUT)?;
    if !output.status.success() {
        return None;
    }
    let value = json::parse(std::str::from_utf8(&output.stdout).ok()?.trim()).ok()?;
    let o = value.as_object()?;
    let text = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
    let mut packages = Vec::new();
    for item in o.get("packages")?.as_array()? {
        let pair = item.as_array()?;
        packages.push((
            pair.first()?.as_str()?.to_string(),
            pair.get(1)?.as_str()?.to_string(),
        ));
    }
    Some(Interpreter {
        version: text("version")?,
        implementation: text("implementation").unwrap_or_default(),
        byteorder: text("byteorder").unwrap_or_default(),
        packages,
    })
}

/// PEP 503 normal form of a package name (`Jaraco.Context` = `jaraco-context`).
pub fn normalize_package_name(name: &str) -> String {
    let mut out = String::new();
    let mut in_sep = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !in_sep {
                out.push('-');
            }
            in_sep = true;
        } else {
            out.extend(c.to_lowercase());
            in_sep = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_names_are_python_interpreters() {
        for yes in [
            "python",
            "python3",
            "python3.13",
            "python3.13t",
            "pythonw",
            "py",
            "pypy3",
            "pypy3.10",
            "/usr/bin/python3",
            "PYTHON.EXE",
            "python3d",
        ] {
            assert!(looks_like_python(yes), "{yes}");
        }
        for no in [
            "python-config",
            "python_train.sh",
            "sh",
            "pyt",
            "python3.",
            "pypy3t",
            "mypython",
            "python3..1",
        ] {
            assert!(!looks_like_python(no), "{no}");
        }
    }

    #[test]
    fn pep503() {
        assert_eq!(normalize_package_name("Jaraco.Context"), "jaraco-context");
        assert_eq!(normalize_package_name("a__b-.c"), "a-b-c");
    }
}
