//! Path rules: what a path stored in a manifest may look like, and how paths are resolved.
//!
//! Manifests are untrusted input, so every path read from one is validated before it is used.
//! Paths in a manifest are relative, use `/` as separator and must stay inside the directory
//! that holds the manifest (the *base directory*). The rules also refuse names that mean
//! something else on Windows, so a manifest means the same thing on every platform.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use thiserror::Error;

use crate::pyfmt::str_repr;

/// A path that breaks the rules or escapes the base directory. The message is complete.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct UnsafePath(pub String);

const DEVICE_NAMES: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

fn has_drive(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

/// Checks that `value` is a safe relative manifest path, in the reference's order: non-empty,
/// no NUL, no backslash, not `.`, not absolute, no drive letter, no empty/`.`/`..` component,
/// and per component no control character, no trailing `.` or space, no Windows device name.
pub fn validate_relative_path(value: &str) -> Result<&str, UnsafePath> {
    let shown = || str_repr(value);
    if value.is_empty() {
        return Err(UnsafePath("path must be a non-empty string, got ''".into()));
    }
    if value.contains('\0') {
        return Err(UnsafePath("path contains a NUL byte".into()));
    }
    if value.contains('\\') {
        return Err(UnsafePath(format!(
            "path {} contains a backslash; use '/' as separator",
            shown()
        )));
    }
    if value == "." {
        return Err(UnsafePath("path '.' is not a file".into()));
    }
    if value.starts_with('/') || (has_drive(value) && value[2..].starts_with('/')) {
        return Err(UnsafePath(format!("path {} is absolute", shown())));
    }
    if has_drive(value) {
        return Err(UnsafePath(format!("path {} has a drive letter", shown())));
    }
    let parts: Vec<&str> = value.split('/').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || *p == "." || *p == "..")
    {
        return Err(UnsafePath(format!(
            "path {} contains empty, '.' or '..' components",
            shown()
        )));
    }
    for part in parts {
        if part.chars().any(|c| (c as u32) < 32) {
            return Err(UnsafePath(format!(
                "path {} contains a control character",
                shown()
            )));
        }
        if part.ends_with('.') || part.ends_with(' ') {
            return Err(UnsafePath(format!(
                "path {} has a component ending with '.' or a space",
                shown()
            )));
        }
        let stem = part.split('.').next().unwrap_or("").to_uppercase();
        if DEVICE_NAMES.contains(&stem.as_str()) {
            return Err(UnsafePath(format!(
                "path {} uses a reserved Windows device name",
                shown()
            )));
        }
    }
    Ok(value)
}

/// Resolves `path` like Python's `Path.resolve()` (POSIX `realpath` without `strict`): symbolic
/// links are followed where they exist, `..` is applied after resolving, and a part that does
/// not exist is kept literally. `path` should be absolute; a relative one is taken from `/`.
pub fn resolve_lenient(path: &Path) -> PathBuf {
    let mut result = PathBuf::from("/");
    let mut queue: VecDeque<OsString> = VecDeque::new();
    let push_front = |queue: &mut VecDeque<OsString>, p: &Path, result: &mut PathBuf| {
        let mut items = Vec::new();
        for component in p.components() {
            match component {
                Component::RootDir | Component::Prefix(_) => {
                    *result = PathBuf::from("/");
                    items.clear();
                }
                Component::CurDir => {}
                Component::ParentDir => items.push(OsString::from("..")),
                Component::Normal(n) => items.push(n.to_os_string()),
            }
        }
        for item in items.into_iter().rev() {
            queue.push_front(item);
        }
    };
    push_front(&mut queue, path, &mut result);
    let mut hops = 0;
    while let Some(name) = queue.pop_front() {
        if name == ".." {
            result.pop();
            continue;
        }
        let candidate = result.join(&name);
        match std::fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() && hops < 40 => {
                hops += 1;
                match std::fs::read_link(&candidate) {
                    Ok(target) => {
                        if target.is_absolute() {
                            result = PathBuf::from("/");
                        }
                        push_front(&mut queue, &target, &mut result);
                    }
                    Err(_) => result = candidate,
                }
            }
            _ => result = candidate,
        }
    }
    result
}

/// The absolute, resolved form of `base`.
pub fn resolve_base(base: &Path) -> PathBuf {
    let absolute = if base.is_absolute() {
        base.to_path_buf()
    } else {
        std::env::current_dir()
            .unwrap_or_else(|_| PathBuf::from("/"))
            .join(base)
    };
    resolve_lenient(&absolute)
}

/// Resolves the manifest path `relative` below `base` (symbolic links followed), refusing
/// anything that breaks the path rules or ends up outside `base`.
pub fn resolve_inside(base: &Path, relative: &str) -> Result<PathBuf, UnsafePath> {
    validate_relative_path(relative)?;
    let base = resolve_base(base);
    let candidate = resolve_lenient(&base.join(relative));
    if !candidate.starts_with(&base) {
        return Err(UnsafePath(format!(
            "path {} resolves outside of {}",
            str_repr(relative),
            base.display()
        )));
    }
    Ok(candidate)
}

/// The first folder on the way to the relative path `relative` (the last component is not
/// looked at: a link there is replaced or removed itself, never followed) for which `test`
/// holds.
fn first_folder_on_the_way(relative: &str, test: impl Fn(&str) -> bool) -> Option<String> {
    let mut folder = PathBuf::new();
    for component in Path::new(relative).parent()?.components() {
        folder.push(component);
        let text = folder.to_string_lossy();
        if !text.is_empty() && test(&text) {
            return Some(text.into_owned());
        }
    }
    None
}

/// The folder on the way to the manifest path `relative` (below `base`) that leads outside
/// `base`: a link some program put where a folder was. `None` when every folder on the way
/// stays inside (or does not exist).
pub fn folder_leading_outside(base: &Path, relative: &str) -> Option<String> {
    first_folder_on_the_way(relative, |folder| resolve_inside(base, folder).is_err())
}

/// The first folder on the way to the path `relative` (below `base`) that is a symbolic link,
/// wherever it leads: where sciproof's own folders must hold none, so that nothing is moved
/// through one.
pub fn link_on_the_way(base: &Path, relative: &str) -> Option<String> {
    first_folder_on_the_way(relative, |folder| {
        std::fs::symlink_metadata(base.join(folder)).is_ok_and(|m| m.is_symlink())
    })
}

/// Converts a path given on the command line (absolute, or relative to `base`) into a manifest
/// path: resolved (symbolic links followed), required to lie inside `base`, expressed relative to
/// it with `/` separators, and checked against the path rules.
pub fn to_manifest_path(base: &Path, user_path: &str) -> Result<String, UnsafePath> {
    let base = resolve_base(base);
    let raw = Path::new(user_path);
    let candidate = resolve_lenient(&if raw.is_absolute() {
        raw.to_path_buf()
    } else {
        base.join(raw)
    });
    let outside = || {
        UnsafePath(format!(
            "{} is outside of the working directory {}",
            str_repr(user_path),
            base.display()
        ))
    };
    let relative = candidate.strip_prefix(&base).map_err(|_| outside())?;
    let mut parts = Vec::new();
    for component in relative.components() {
        let Component::Normal(name) = component else {
            return Err(outside());
        };
        let Some(name) = name.to_str() else {
            return Err(UnsafePath(format!(
                "path {} is not valid UTF-8; rename it",
                str_repr(&raw.to_string_lossy())
            )));
        };
        parts.push(name);
    }
    let joined = if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    };
    validate_relative_path(&joined)?;
    Ok(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_rules_in_order() {
        let err = |p: &str| validate_relative_path(p).unwrap_err().0;
        assert_eq!(err(""), "path must be a non-empty string, got ''");
        assert_eq!(err("a\0b"), "path contains a NUL byte");
        assert_eq!(
            err("a\\b"),
            "path 'a\\\\b' contains a backslash; use '/' as separator"
        );
        assert_eq!(err("."), "path '.' is not a file");
        assert_eq!(err("/x"), "path '/x' is absolute");
        assert_eq!(err("C:/x"), "path 'C:/x' is absolute");
        assert_eq!(err("C:x"), "path 'C:x' has a drive letter");
        assert_eq!(
            err("a//b"),
            "path 'a//b' contains empty, '.' or '..' components"
        );
        assert_eq!(
            err("a/"),
            "path 'a/' contains empty, '.' or '..' components"
        );
        assert_eq!(
            err("../x"),
            "path '../x' contains empty, '.' or '..' components"
        );
        assert_eq!(err("a\u{1}"), "path 'a\\x01' contains a control character");
        assert_eq!(
            err("trail."),
            "path 'trail.' has a component ending with '.' or a space"
        );
        assert_eq!(
            err("d/aux.txt"),
            "path 'd/aux.txt' uses a reserved Windows device name"
        );
        assert_eq!(
            err("com1.tar.gz"),
            "path 'com1.tar.gz' uses a reserved Windows device name"
        );
        assert!(validate_relative_path("auxiliary.txt").is_ok());
        assert!(validate_relative_path("out/m.json").is_ok());
    }

    #[test]
    fn a_link_on_the_way_is_named_wherever_it_leads() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("proj");
        std::fs::create_dir_all(base.join("sub")).unwrap();
        std::os::unix::fs::symlink("sub", base.join("inside")).unwrap();
        assert_eq!(link_on_the_way(&base, "sub/x.txt"), None);
        assert_eq!(link_on_the_way(&base, "inside"), None);
        assert_eq!(
            link_on_the_way(&base, "inside/deeper/x.txt").as_deref(),
            Some("inside")
        );
    }

    #[test]
    fn a_folder_on_the_way_that_leads_outside_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("proj");
        std::fs::create_dir_all(base.join("sub/deeper")).unwrap();
        std::os::unix::fs::symlink(dir.path(), base.join("out")).unwrap();
        std::os::unix::fs::symlink(dir.path(), base.join("sub/away")).unwrap();
        std::os::unix::fs::symlink("sub", base.join("inside")).unwrap();
        assert_eq!(folder_leading_outside(&base, "x.txt"), None);
        assert_eq!(folder_leading_outside(&base, "sub/deeper/x.txt"), None);
        assert_eq!(folder_leading_outside(&base, "missing/x.txt"), None);
        assert_eq!(folder_leading_outside(&base, "inside/x.txt"), None);
        // The last component is never followed, so a link there is not the folder's concern.
        assert_eq!(folder_leading_outside(&base, "out"), None);
        assert_eq!(
            folder_leading_outside(&base, "out/x.txt").as_deref(),
            Some("out")
        );
        assert_eq!(
            folder_leading_outside(&base, "sub/away/deeper/x.txt").as_deref(),
            Some("sub/away")
        );
    }

    #[test]
    fn resolution_follows_links_and_refuses_escapes() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("proj");
        std::fs::create_dir_all(base.join("sub")).unwrap();
        std::fs::write(base.join("a.txt"), "a").unwrap();
        std::os::unix::fs::symlink(dir.path(), base.join("out")).unwrap();
        std::os::unix::fs::symlink("a.txt", base.join("link.txt")).unwrap();
        assert!(resolve_inside(&base, "sub/x").is_ok());
        assert!(
            resolve_inside(&base, "out/x")
                .unwrap_err()
                .0
                .contains("resolves outside of")
        );
        assert_eq!(to_manifest_path(&base, "sub/../a.txt").unwrap(), "a.txt");
        assert_eq!(to_manifest_path(&base, "link.txt").unwrap(), "a.txt");
        assert!(
            to_manifest_path(&base, "../x")
                .unwrap_err()
                .0
                .contains("is outside of the working directory")
        );
        assert!(to_manifest_path(&base, "out/y").is_err());
        assert_eq!(
            to_manifest_path(&base, ".").unwrap_err().0,
            "path '.' is not a file"
        );
    }
}
