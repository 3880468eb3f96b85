//! A trace read against a project: which files the command took as inputs that are not
//! declared, and which it read outside the working directory (which cannot be declared).
//!
//! The rules are the reference's (`suggest-inputs`, spec §7.10) with a system-call trace in
//! place of Python's audit hook: an input is a regular file inside the working directory that
//! some process read or executed and none wrote, created or removed; not under version-control,
//! virtual-environment or cache folders nor sciproof's own; not covered by a declared input or
//! output (equal or below). A compiled Python module (`__pycache__/m.cpython-311.pyc`) stands for
//! its source `m.py`, which Python only `stat`s when the cache is fresh. Reads outside the working
//! directory are listed unless they are the system's (programs, libraries, `/proc`, see
//! [`super::is_system_path`]) or a language runtime's (`site-packages`, `lib/python3.11`,
//! compiled modules and shared libraries).

use super::Trace;
use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

/// Folders whose files are never inputs nor outputs (the reference's lists for `record` and
/// `suggest-inputs`, together).
pub const IGNORED_FOLDERS: [&str; 14] = [
    ".ipynb_checkpoints",
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "site-packages",
];

/// What the command read that is not declared.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Undeclared {
    /// Files inside the working directory, relative to it (`/`-separated), sorted.
    pub inputs: Vec<String>,
    /// Files outside it, absolute, sorted.
    pub outside: Vec<PathBuf>,
}

/// Whether a path inside the project is in a folder whose files are never inputs nor outputs
/// (or is sciproof's own).
pub fn ignored(relative: &Path) -> bool {
    relative.components().any(|c| match c {
        Component::Normal(name) => {
            let name = name.to_string_lossy();
            IGNORED_FOLDERS.contains(&name.as_ref())
                || name.contains(".sciproof")
                || name.starts_with(".sciproof-rerun-")
        }
        _ => false,
    })
}

/// Whether an outside path belongs to a language runtime rather than to the experiment.
fn runtime(path: &Path) -> bool {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    matches!(extension, "pyc" | "so")
        || path.to_string_lossy().contains(".so.")
        || path.components().any(|c| {
            let name = c.as_os_str().to_string_lossy();
            matches!(
                name.as_ref(),
                "site-packages" | "dist-packages" | "__pycache__" | "lib-dynload"
            ) || (name.starts_with("python")
                && name[6..].starts_with(|ch: char| ch.is_ascii_digit()))
        })
}

/// The source a compiled Python module stands for: `d/__pycache__/m.cpython-311.pyc` is
/// `d/m.py`.
fn source_of(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_suffix(".pyc")?;
    let module = stem.split('.').next()?;
    let cache = path.parent()?;
    (cache.file_name()? == "__pycache__")
        .then(|| cache.parent().map(|d| d.join(format!("{module}.py"))))?
}

/// `path` with every symbolic link resolved (`realpath`), or `None` if it does not exist. The
/// folders are resolved once each (`folders` remembers them): a command that reads ten thousand
/// files in a hundred folders costs a hundred resolutions, not fifty thousand `readlink`s.
fn real_path(path: &Path, folders: &mut HashMap<PathBuf, Option<PathBuf>>) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.file_type().is_symlink() {
        return std::fs::canonicalize(path).ok();
    }
    let (parent, name) = (path.parent()?, path.file_name()?);
    let folder = folders
        .entry(parent.to_path_buf())
        .or_insert_with(|| std::fs::canonicalize(parent).ok())
        .clone()?;
    Some(folder.join(name))
}

/// The inputs `trace` shows in `cwd` beyond `declared` (paths relative to `cwd`).
pub fn undeclared(trace: &Trace, cwd: &Path, declared: &[PathBuf]) -> Undeclared {
    let root = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let declared: Vec<PathBuf> = declared
        .iter()
        .map(|d| {
            let full = root.join(d);
            std::fs::canonicalize(&full).unwrap_or(full)
        })
        .collect();
    let mut inputs = BTreeSet::new();
    let mut outside = BTreeSet::new();
    let mut folders = HashMap::new();
    for (path, access) in &trace.files {
        if !access.is_input() || access.is_change() {
            continue;
        }
        let path = source_of(path).unwrap_or_else(|| path.clone());
        // Written under another name (a link), or removed since: the name as the file is now.
        let Some(real) = real_path(&path, &mut folders) else {
            continue;
        };
        if trace.files.get(&real).is_some_and(|a| a.is_change())
            || !std::fs::metadata(&real).is_ok_and(|m| m.is_file())
        {
            continue;
        }
        match real.strip_prefix(&root) {
            Ok(relative) => {
                if ignored(relative) || declared.iter().any(|d| real.starts_with(d)) {
                    continue;
                }
                inputs.insert(
                    relative
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join("/"),
                );
            }
            Err(_) => {
                if !super::is_system_path(&real) && !runtime(&real) && !super::is_system_path(&path)
                {
                    outside.insert(real);
                }
            }
        }
    }
    Undeclared {
        inputs: inputs.into_iter().collect(),
        outside: outside.into_iter().collect(),
    }
}

/// What a trace says about a run's declarations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    /// Files inside the working directory the command read that are not declared.
    pub undeclared: Vec<String>,
    /// Declared inputs (files or folders) of which the command read nothing.
    pub unread: Vec<String>,
    /// Each thing worth saying, as a sentence: the two lists, why the trace is incomplete,
    /// and the fallback to Python's audit hook.
    pub problems: Vec<String>,
}

/// Most files named in one sentence.
const LISTED: usize = 20;

fn listed(items: &[String]) -> String {
    let mut shown: Vec<String> = items
        .iter()
        .take(LISTED)
        .map(|p| crate::pyfmt::str_repr(p))
        .collect();
    if items.len() > LISTED {
        shown.push(format!("and {} more", items.len() - LISTED));
    }
    shown.join(", ")
}

/// Reads `trace` against the declared `inputs` and `outputs` (manifest paths) of a run in
/// `base`.
pub fn findings(trace: &Trace, base: &Path, inputs: &[String], outputs: &[String]) -> Findings {
    let declared: Vec<PathBuf> = inputs.iter().chain(outputs).map(PathBuf::from).collect();
    let undeclared = undeclared(trace, base, &declared).inputs;
    let root = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
    let read: Vec<&PathBuf> = trace
        .files
        .iter()
        .filter(|(_, a)| a.is_input())
        .map(|(p, _)| p)
        .collect();
    // An input in object storage is read over the network, which a trace of file accesses
    // does not see: it is never reported as unread.
    let unread: Vec<String> = inputs
        .iter()
        .filter(|i| !crate::store::object_url::is_object_url(i))
        .filter(|i| {
            let full = root.join(i);
            let real = std::fs::canonicalize(&full).unwrap_or_else(|_| full.clone());
            !read
                .iter()
                .any(|p| p.starts_with(&full) || p.starts_with(&real))
        })
        .cloned()
        .collect();
    let mut problems = Vec::new();
    if !undeclared.is_empty() {
        problems.push(format!(
            "the command read {} file(s) inside the working directory that are not declared as inputs: {} (declare them with --input)",
            undeclared.len(),
            listed(&undeclared)
        ));
    }
    if !unread.is_empty() {
        problems.push(format!(
            "the command never read {} declared input(s): {}",
            unread.len(),
            listed(&unread)
        ));
    }
    problems.extend(trace.incomplete.iter().cloned());
    if let Some(why) = &trace.fell_back {
        problems.push(format!(
            "{why}; reads were observed with Python's audit hook, which sees only files Python code opens"
        ));
    }
    Findings {
        undeclared,
        unread,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Access;

    #[test]
    fn inputs_are_read_never_changed_inside_and_undeclared() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for f in [
            "a.csv",
            "b.txt",
            "out.txt",
            ".git/HEAD",
            "pkg/__pycache__/m.cpython-311.pyc",
            "pkg/m.py",
            "declared/x",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "x").unwrap();
        }
        let read = Access {
            read: true,
            ..Access::default()
        };
        let mut trace = Trace::default();
        for f in [
            "a.csv",
            ".git/HEAD",
            "pkg/__pycache__/m.cpython-311.pyc",
            "declared/x",
            "gone.txt",
        ] {
            trace.record(root.join(f), read);
        }
        trace.record(
            root.join("b.txt"),
            Access {
                probed: true,
                ..Access::default()
            },
        );
        trace.record(
            root.join("out.txt"),
            Access {
                read: true,
                written: true,
                ..Access::default()
            },
        );
        trace.record(PathBuf::from("/usr/lib/x86_64-linux-gnu/libc.so.6"), read);
        trace.record(PathBuf::from("/etc/hostname"), read);
        let found = undeclared(&trace, &root, &[PathBuf::from("declared")]);
        assert_eq!(found.inputs, ["a.csv", "pkg/m.py"]);
        if Path::new("/etc/hostname").is_file() {
            assert_eq!(found.outside, [PathBuf::from("/etc/hostname")]);
        }
    }

    #[test]
    fn runtimes_are_not_experiments() {
        assert!(runtime(Path::new(
            "/root/.pyenv/versions/3.11.7/lib/python3.11/os.py"
        )));
        assert!(runtime(Path::new(
            "/home/u/.venv/lib/site-packages/numpy/x.py"
        )));
        assert!(runtime(Path::new("/opt/lib/libfoo.so.1")));
        assert!(!runtime(Path::new("/data/shared/python-notes.txt")));
        assert!(!runtime(Path::new("/etc/hostname")));
    }
}
