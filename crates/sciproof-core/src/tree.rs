//! Directories as evidence: every regular file below a directory, and one digest for all.
//!
//! A directory is described by its regular files as `(relative path, SHA-256, size)`, sorted by
//! the UTF-8 bytes of the path. The *tree digest* is the SHA-256 of one line per file,
//! `<sha256>  <size>  <path>\n`. Empty directories contribute nothing. Symbolic links, devices,
//! sockets and FIFOs inside are refused rather than followed or skipped (following can leave the
//! directory; skipping would let a change go unnoticed), and so are names that break the
//! manifest path rules. The walk is sequential; the files are hashed in parallel.

use crate::error::strerror;
use crate::json::{Object, Value};
use crate::paths::validate_relative_path;
use crate::progress::{NoProgress, Progress, Unit};
use crate::pyfmt::str_repr;
use crate::stat::StatKey;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// At most this many files are listed inside a manifest (the reference's limit); a directory
/// with more has its list stored beside the manifest ([`crate::manifest::file_list`]).
pub const INLINE_TREE_FILES: usize = 10_000;
/// At most this many files per directory artifact: a guard against a runaway tree (the lists
/// of both sides of a comparison are held in memory, about 200 bytes per file).
pub const MAX_TREE_FILES: usize = 50_000_000;
/// At most this many names per kind in a tree difference of a report.
pub const MAX_NAMES_IN_DETAIL: usize = 10;

/// One regular file of a directory artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// Path relative to the directory, `/`-separated.
    pub path: String,
    /// Lower-case hex SHA-256 of the content.
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
}

/// A directory that cannot be described as evidence. The message is complete.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct TreeError(pub String);

/// Lists and hashes every regular file below `root` (sorted by the UTF-8 bytes of the path).
///
/// `root` must already be known to lie inside the project. Nothing inside is followed. Fails on
/// the first link, special file, unportable name, unreadable entry, or when there are more than
/// `limit` files.
pub fn scan_tree(
    root: &Path,
    limit: usize,
    progress: &dyn Progress,
) -> Result<Vec<FileEntry>, TreeError> {
    let plain = |path: &Path| crate::hash::sha256_listed(path);
    // (the same layout in and out: the list is converted in place)
    Ok(walk(root, limit, progress, &plain)?
        .into_iter()
        .map(|(path, (sha256, size))| FileEntry { path, sha256, size })
        .collect())
}

/// [`scan_tree`], also returning each file's [`StatKey`] taken before it was read (in the same
/// order), so that [`rescan_tree`] can later tell which files certainly did not change.
pub fn scan_tree_keyed(
    root: &Path,
    limit: usize,
    progress: &dyn Progress,
) -> Result<(Vec<FileEntry>, Vec<StatKey>), TreeError> {
    let keyed = |path: &Path| -> std::io::Result<(String, u64, StatKey)> {
        let (mut file, meta) = crate::untrusted::open_regular(path)?;
        let key = StatKey::of(&meta);
        let (sha256, size) = crate::hash::sha256_reader(&mut file, &NoProgress)?;
        Ok((sha256, size, key))
    };
    Ok(walk(root, limit, progress, &keyed)?
        .into_iter()
        .map(|(path, (sha256, size, key))| (FileEntry { path, sha256, size }, key))
        .unzip())
}

/// The current file list of `root`, re-reading only files whose status could hide a change
/// since `previous` was scanned with `keys` (see [`crate::stat`]; both as [`scan_tree_keyed`]
/// returned them, sorted by path); `started` is when the command started, `trusted` whether
/// the file system's change times can be trusted at all.
pub fn rescan_tree(
    root: &Path,
    limit: usize,
    (previous, keys): (&[FileEntry], &[StatKey]),
    started: std::time::SystemTime,
    trusted: bool,
    progress: &dyn Progress,
) -> Result<Vec<FileEntry>, TreeError> {
    let reuse = |path: &Path| -> std::io::Result<(String, u64)> {
        let relative = path.strip_prefix(root).unwrap_or(path);
        let known = relative.to_str().and_then(|r| {
            previous
                .binary_search_by(|e| e.path.as_bytes().cmp(r.as_bytes()))
                .ok()
        });
        if let Some(i) = known
            && let (Some(entry), Some(key)) = (previous.get(i), keys.get(i))
        {
            let now = StatKey::of(&std::fs::symlink_metadata(path)?);
            if key.proves_unchanged(&now, started, trusted) {
                return Ok((entry.sha256.clone(), entry.size));
            }
        }
        crate::hash::sha256_listed(path)
    };
    Ok(walk(root, limit, progress, &reuse)?
        .into_iter()
        .map(|(path, (sha256, size))| FileEntry { path, sha256, size })
        .collect())
}

type HashOne<'a, H> = dyn Fn(&Path) -> std::io::Result<H> + Sync + 'a;

/// Walks `root` (nothing followed), then hashes the regular files in parallel with `hash_one`.
///
/// Memory is what a million files need: each file is kept as its relative path only until it is
/// hashed (its full path is made when it is opened), the hashes are collected into one vector
/// of known size, and the callers convert it in place.
fn walk<H: Send>(
    root: &Path,
    limit: usize,
    progress: &dyn Progress,
    hash_one: &HashOne<'_, H>,
) -> Result<Vec<(String, H)>, TreeError> {
    let mut found: Vec<String> = Vec::new();
    let mut stack: Vec<(PathBuf, String)> = vec![(root.to_path_buf(), String::new())];
    while let Some((directory, prefix)) = stack.pop() {
        let reader = std::fs::read_dir(&directory).map_err(|e| {
            TreeError(format!(
                "cannot read directory {}: {}",
                if prefix.is_empty() { "." } else { &prefix },
                strerror(&e)
            ))
        })?;
        let mut children = Vec::new();
        for child in reader {
            let child = child.map_err(|e| {
                TreeError(format!(
                    "cannot read directory {}: {}",
                    if prefix.is_empty() { "." } else { &prefix },
                    strerror(&e)
                ))
            })?;
            children.push(child);
        }
        children.sort_by_key(|c| c.file_name());
        for child in children {
            let os_name = child.file_name();
            let Some(name) = os_name.to_str() else {
                return Err(TreeError(format!(
                    "unsupported file name {}: not valid UTF-8",
                    str_repr(&format!("{prefix}{}", os_name.to_string_lossy()))
                )));
            };
            let relative = format!("{prefix}{name}");
            if let Err(e) = validate_relative_path(&relative) {
                return Err(TreeError(format!(
                    "cannot record {}: {e}",
                    str_repr(&relative)
                )));
            }
            let file_type = child.file_type().map_err(|e| {
                TreeError(format!(
                    "cannot read {}: {}",
                    str_repr(&relative),
                    strerror(&e)
                ))
            })?;
            if file_type.is_symlink() {
                return Err(TreeError(format!(
                    "{} is a symbolic link; links inside a declared directory are not supported \
                     (declare the real files instead)",
                    str_repr(&relative)
                )));
            }
            if file_type.is_dir() {
                stack.push((child.path(), format!("{relative}/")));
            } else if file_type.is_file() {
                if found.len() >= limit {
                    return Err(TreeError(format!(
                        "the directory has more than {limit} files; declare a smaller directory \
                         or the individual files that matter"
                    )));
                }
                found.push(relative);
            } else {
                return Err(TreeError(format!(
                    "{} is not a regular file or directory",
                    str_repr(&relative)
                )));
            }
        }
    }
    progress.begin("hashing", found.len() as u64, Unit::Files);
    // An indexed collect: one vector of the exact size (a fallible collect would gather
    // pieces and copy them, twice the memory).
    let mut hashed: Vec<Result<(String, H), TreeError>> = Vec::new();
    found
        .into_par_iter()
        .map(|relative| {
            let result = hash_one(&root.join(&relative));
            progress.advance(1);
            match result {
                Ok(h) => Ok((relative, h)),
                Err(e) => Err(TreeError(format!(
                    "cannot read {}: {}",
                    str_repr(&relative),
                    strerror(&e)
                ))),
            }
        })
        .collect_into_vec(&mut hashed);
    progress.finish();
    let mut entries = hashed.into_iter().collect::<Result<Vec<_>, _>>()?;
    // paths are unique: an unstable sort is exact and needs no extra memory
    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(entries)
}

/// Writes the text the tree digest is the SHA-256 of: one line `<sha256>  <size>  <path>\n`
/// per file of `entries` (in any order; they are sorted by path bytes first). It is also the
/// text of a directory's file list stored beside a manifest
/// ([`crate::manifest::file_list`]).
pub fn write_tree_lines(
    out: &mut dyn std::io::Write,
    entries: &[FileEntry],
) -> std::io::Result<()> {
    use std::io::Write;
    let mut sorted: Vec<&FileEntry> = entries.iter().collect();
    sorted.sort_unstable_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    for e in sorted {
        writeln!(out, "{}  {}  {}", e.sha256, e.size, e.path)?;
    }
    out.flush()
}

/// The tree digest of `entries` (in any order).
pub fn tree_digest(entries: &[FileEntry]) -> String {
    /// Feeds what is written to the hash.
    struct Hashing(Sha256);
    impl std::io::Write for Hashing {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.update(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut hashing = Hashing(Sha256::new());
    write_tree_lines(&mut hashing, entries).expect("hashing does not fail");
    hex::encode(hashing.0.finalize())
}

/// The sum of the sizes of `entries`.
pub fn tree_size(entries: &[FileEntry]) -> u64 {
    entries.iter().map(|e| e.size).sum()
}

/// Which files were added, removed or modified between a recorded and a current file list
/// (each list sorted by path bytes).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TreeDiff {
    /// Files only in the current tree.
    pub added: Vec<String>,
    /// Files only in the recorded tree.
    pub removed: Vec<String>,
    /// Files in both with other content.
    pub modified: Vec<String>,
}

impl TreeDiff {
    /// Compares a recorded file list with the current one.
    pub fn between(recorded: &[FileEntry], current: &[FileEntry]) -> Self {
        use std::collections::BTreeMap;
        let old: BTreeMap<&[u8], &str> = recorded
            .iter()
            .map(|e| (e.path.as_bytes(), e.sha256.as_str()))
            .collect();
        let new: BTreeMap<&[u8], &str> = current
            .iter()
            .map(|e| (e.path.as_bytes(), e.sha256.as_str()))
            .collect();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        TreeDiff {
            added: new
                .keys()
                .filter(|k| !old.contains_key(*k))
                .map(|k| text(k))
                .collect(),
            removed: old
                .keys()
                .filter(|k| !new.contains_key(*k))
                .map(|k| text(k))
                .collect(),
            modified: old
                .iter()
                .filter(|(k, v)| new.get(*k).is_some_and(|n| n != *v))
                .map(|(k, _)| text(k))
                .collect(),
        }
    }

    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.modified.is_empty()
    }

    /// The report form: `added`, `added_count`, `removed`, `removed_count`, `modified`,
    /// `modified_count`, with at most [`MAX_NAMES_IN_DETAIL`] names per kind.
    pub fn to_json(&self) -> Value {
        let mut object = Object::new();
        for (kind, names) in [
            ("added", &self.added),
            ("removed", &self.removed),
            ("modified", &self.modified),
        ] {
            let listed: Vec<Value> = names
                .iter()
                .take(MAX_NAMES_IN_DETAIL)
                .map(Value::from)
                .collect();
            object.insert(kind, Value::Array(listed));
            object.insert(format!("{kind}_count"), names.len());
        }
        Value::Object(object)
    }

    /// One line for people: `1 modified (a.csv); 2 removed (b, c); ...`, at most `shown` names
    /// per kind.
    pub fn describe(&self, shown: usize) -> String {
        let mut parts = Vec::new();
        for (kind, names) in [
            ("modified", &self.modified),
            ("removed", &self.removed),
            ("added", &self.added),
        ] {
            if names.is_empty() {
                continue;
            }
            let listed = names
                .iter()
                .take(shown)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            let more = if names.len() > shown {
                format!(", and {} more", names.len() - shown)
            } else {
                String::new()
            };
            parts.push(format!("{} {kind} ({listed}{more})", names.len()));
        }
        if parts.is_empty() {
            "no difference".into()
        } else {
            parts.join("; ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    #[test]
    fn tree_digest_line_format_matches_the_reference() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        std::fs::create_dir_all(dir.path().join("empty")).unwrap();
        std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
        std::fs::write(dir.path().join("sub/b.txt"), "b\n").unwrap();
        let entries = scan_tree(dir.path(), MAX_TREE_FILES, &NoProgress).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].path, "sub/b.txt");
        // The value the reference computed for the same two files (spec 1.7).
        assert_eq!(
            tree_digest(&entries),
            "349f49336edb42e586b3c561d7eef2dd255310484e3b06f628dca1e2f8e247ea"
        );
        assert_eq!(tree_size(&entries), 4);
        assert_eq!(tree_digest(&[]), crate::hash::sha256_bytes(b""));
    }

    #[test]
    fn links_special_files_and_limits_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), "x").unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("l")).unwrap();
        let err = scan_tree(dir.path(), 10, &NoProgress).unwrap_err();
        assert!(err.0.contains("'l' is a symbolic link"), "{err}");
        std::fs::remove_file(dir.path().join("l")).unwrap();
        std::fs::write(dir.path().join("b"), "y").unwrap();
        let err = scan_tree(dir.path(), 1, &NoProgress).unwrap_err();
        assert!(err.0.contains("more than 1 files"));
        std::fs::write(dir.path().join("AUX.txt"), "y").unwrap();
        let err = scan_tree(dir.path(), 10, &NoProgress).unwrap_err();
        assert!(err.0.contains("cannot record 'AUX.txt'"), "{err}");
    }

    #[test]
    fn fifo_inside_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = scan_tree(dir.path(), 10, &NoProgress).unwrap_err();
        assert!(err.0.contains("'pipe' is not a regular file or directory"));
    }

    #[test]
    fn diff_and_description() {
        let e = |p: &str, h: &str| FileEntry {
            path: p.into(),
            sha256: h.into(),
            size: 1,
        };
        let diff = TreeDiff::between(&[e("a", "1"), e("b", "2")], &[e("a", "9"), e("z", "3")]);
        assert_eq!(
            diff.describe(3),
            "1 modified (a); 1 removed (b); 1 added (z)"
        );
        assert_eq!(TreeDiff::default().describe(3), "no difference");
    }
}
