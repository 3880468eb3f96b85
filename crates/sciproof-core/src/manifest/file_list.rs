//! Directory file lists stored beside the manifest, for directories of any size.
//!
//! A manifest lists a directory's files inline up to [`INLINE_TREE_FILES`] (the reference's
//! limit). Past it, or when the manifest would exceed its 16 MiB limit, the list goes to
//! `NAME.sciproof.d/lists/<tree digest>.txt` and the manifest's `files` becomes
//! `{"list": <path>, "count": N}`. The list's text is exactly the text the tree digest is the
//! SHA-256 of (one line `<sha256>  <size>  <path>\n` per file, sorted by the path's bytes; paths
//! hold no control character, so a line cannot be forged inside another). So the directory's
//! `sha256` pins its list, the digest rule is unchanged, and moving a list in or out of the
//! manifest never changes a digest. The reference expects a list for `files` and refuses the
//! object as invalid instead of misreading it.
//!
//! A list is read as a stream, hashed while it is parsed, and must be exactly what the manifest
//! pins: same SHA-256, same count, same total size, paths valid, unique and sorted.

use super::model::{Artifact, FileList, MAX_MANIFEST_BYTES, Manifest};
use crate::error::{Error, Result};
use crate::json::{Number, Object, Value};
use crate::pyfmt::str_repr;
use crate::tree::{FileEntry, INLINE_TREE_FILES};
use num_traits::ToPrimitive;
use sha2::{Digest, Sha256};
use std::io::BufRead;
use std::path::Path;

/// The folder of lists inside a manifest's snapshot folder.
pub const LISTS_FOLDER: &str = "lists";

/// The longest line a list may hold: a digest, a size, a path of at most 4096 bytes.
const MAX_LINE: usize = 64 + 2 + 20 + 2 + 4096 + 1;

fn fail(place: &str, message: impl std::fmt::Display) -> Error {
    Error::Manifest(format!("invalid manifest: {place}: {message}"))
}

/// The path of the list of a directory whose tree digest is `sha256`, for the manifest whose
/// snapshot folder is `snapshot_dir` (`NAME.sciproof.d`).
pub fn list_path(snapshot_dir: &str, sha256: &str) -> String {
    format!("{snapshot_dir}/{LISTS_FOLDER}/{sha256}.txt")
}

/// Writes the text of a list (what the tree digest hashes) to `out`, streamed.
pub use crate::tree::write_tree_lines as write_list;

/// The text of a list, in memory.
#[cfg(test)]
pub fn list_text(files: &[FileEntry]) -> Vec<u8> {
    let mut out = Vec::new();
    write_list(&mut out, files).expect("writing to memory");
    out
}

/// Reads the `files` object of a directory entry at `place`: `list` (a path inside a snapshot
/// folder, `*.sciproof.d/lists/<64 hex>.txt`) and `count`.
pub fn parse_reference(files: &Object, place: &str) -> Result<FileList> {
    for (key, _) in files.iter() {
        if key != "list" && key != "count" {
            return Err(fail(
                place,
                format!(
                    "unexpected key {} (a stored file list has 'list' and 'count')",
                    str_repr(key)
                ),
            ));
        }
    }
    let Some(Value::String(path)) = files.get("list") else {
        return Err(fail(
            &format!("{place}.list"),
            "expected the path of the stored file list",
        ));
    };
    let well_placed = crate::paths::validate_relative_path(path).is_ok() && {
        let parts: Vec<&str> = path.split('/').collect();
        parts.len() == 3
            && parts[0].ends_with(".sciproof.d")
            && parts[1] == LISTS_FOLDER
            && parts[2]
                .strip_suffix(".txt")
                .is_some_and(super::read::is_sha256_hex)
    };
    if !well_placed {
        return Err(fail(
            &format!("{place}.list"),
            format!(
                "{} is not a stored file list (NAME.sciproof.d/{LISTS_FOLDER}/<sha256>.txt)",
                str_repr(path)
            ),
        ));
    }
    let count = match files.get("count") {
        Some(Value::Number(Number::Int(i))) => i.to_u64(),
        _ => None,
    }
    .ok_or_else(|| fail(&format!("{place}.count"), "expected a count of files >= 0"))?;
    Ok(FileList {
        path: path.clone(),
        count,
    })
}

/// Reads the list `list` below `base` for the directory entry at `place` whose digest is
/// `sha256` and whose size is `size`, checking that it is exactly what the manifest pins.
pub fn load(
    base: &Path,
    list: &FileList,
    sha256: &str,
    size: u64,
    place: &str,
) -> Result<Vec<FileEntry>> {
    let at = format!("{place}.files.list");
    if !list.path.contains(&format!("/{sha256}.txt")) {
        return Err(fail(
            &at,
            "the stored list is not named by the directory's digest",
        ));
    }
    let path = base.join(&list.path);
    let (file, _) = crate::untrusted::open(
        &path,
        crate::untrusted::Kind::FileList,
        crate::untrusted::Links::Refuse,
    )
    .map_err(|e| {
        fail(
            &at,
            format!(
                "cannot read the stored file list: {e} (it belongs with the manifest; restore it, or capture again)"
            ),
        )
    })?;
    read_list(
        &mut std::io::BufReader::with_capacity(1 << 20, file),
        list,
        sha256,
        size,
        place,
    )
}

/// Reads a stored list from `reader` (see [`load`]): exactly `list.count` lines, paths valid,
/// unique and sorted, the text's SHA-256 `sha256`, the sizes summing to `size`.
pub fn read_list(
    reader: &mut dyn BufRead,
    list: &FileList,
    sha256: &str,
    size: u64,
    place: &str,
) -> Result<Vec<FileEntry>> {
    let at = format!("{place}.files.list");
    let mut hasher = Sha256::new();
    let mut entries: Vec<FileEntry> = Vec::with_capacity(list.count.min(1 << 24) as usize);
    let mut total = 0u64;
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        let read = std::io::Read::take(&mut *reader, MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| {
                fail(
                    &at,
                    format!(
                        "cannot read the stored file list: {}",
                        crate::error::strerror(&e)
                    ),
                )
            })?;
        if read == 0 {
            break;
        }
        hasher.update(&line);
        let n = entries.len() + 1;
        let entry = parse_line(&line).ok_or_else(|| {
            fail(
                &at,
                format!("line {n} is not '<sha256>  <size>  <path>' with a valid path"),
            )
        })?;
        if let Some(previous) = entries.last()
            && previous.path.as_bytes() >= entry.path.as_bytes()
        {
            return Err(fail(
                &at,
                format!("line {n}: paths must be unique and sorted by their bytes"),
            ));
        }
        if entries.len() as u64 >= list.count {
            return Err(fail(&at, format!("lists more than {} files", list.count)));
        }
        total = total.saturating_add(entry.size);
        entries.push(entry);
    }
    if entries.len() as u64 != list.count {
        return Err(fail(
            &at,
            format!(
                "lists {} files, the manifest says {}",
                entries.len(),
                list.count
            ),
        ));
    }
    if hex::encode(hasher.finalize()) != sha256 {
        return Err(fail(
            &at,
            "the stored list does not match the directory's digest (it was modified)",
        ));
    }
    if total != size {
        return Err(fail(
            &format!("{place}.size"),
            "does not match the sizes of the listed files",
        ));
    }
    Ok(entries)
}

/// One line `<64 hex>  <size>  <path>\n`.
fn parse_line(line: &[u8]) -> Option<FileEntry> {
    let text = std::str::from_utf8(line.strip_suffix(b"\n")?).ok()?;
    let (sha256, rest) = text.split_once("  ")?;
    let (size, path) = rest.split_once("  ")?;
    let hex = super::read::is_sha256_hex(sha256);
    let size_ok = !size.is_empty()
        && size.bytes().all(|b| b.is_ascii_digit())
        && (size == "0" || !size.starts_with('0'));
    if !hex || !size_ok || crate::paths::validate_relative_path(path).is_err() {
        return None;
    }
    Some(FileEntry {
        path: path.to_string(),
        sha256: sha256.to_string(),
        size: size.parse().ok()?,
    })
}

/// Reads every stored list of `manifest` (loaded from the folder `base`).
pub fn load_all(manifest: &mut Manifest, base: &Path) -> Result<()> {
    let inputs = manifest.inputs.iter_mut().enumerate().map(|(i, x)| {
        (
            format!("inputs[{i}]"),
            &mut x.artifact,
            Some(x.sha256.as_str()),
            x.size,
        )
    });
    let outputs = manifest.outputs.iter_mut().enumerate().map(|(i, x)| {
        (
            format!("outputs[{i}]"),
            &mut x.artifact,
            x.sha256.as_deref(),
            x.size,
        )
    });
    for (place, artifact, sha256, size) in inputs.chain(outputs) {
        if let Artifact::Directory {
            files,
            list: Some(list),
        } = artifact
        {
            let Some(sha256) = sha256 else {
                return Err(fail(
                    &place,
                    "a stored file list needs the directory's sha256",
                ));
            };
            *files = load(base, list, sha256, size, &place)?;
        }
    }
    Ok(())
}

/// Decides which directory lists of `manifest` are stored beside it: every list of more than
/// [`INLINE_TREE_FILES`] files, then the largest ones left until the manifest's text fits its
/// limit. `snapshot_dir` is the manifest's snapshot folder. Returns the manifest as JSON and as
/// its text; an error when even without lists it is too large. [`stored_lists`] then says what
/// to write.
pub fn place_lists(
    manifest: &mut Manifest,
    snapshot_dir: &str,
) -> std::result::Result<(Value, String), String> {
    // (input?, index, files) of every directory with files, the largest first
    let mut directories: Vec<(bool, usize, usize)> = Vec::new();
    for (i, x) in manifest.inputs.iter().enumerate() {
        directories.push((true, i, x.artifact.files().len()));
    }
    for (i, x) in manifest.outputs.iter().enumerate() {
        if x.sha256.is_some() {
            directories.push((false, i, x.artifact.files().len()));
        }
    }
    directories.retain(|d| d.2 > 0);
    directories.sort_by_key(|d| std::cmp::Reverse(d.2));
    // Lists past the inline limit go first, without serializing them: they may be millions of
    // lines.
    let mut next = directories
        .iter()
        .take_while(|d| d.2 > INLINE_TREE_FILES)
        .count();
    for &(input, index, _) in &directories[..next] {
        store_beside(manifest, input, index, snapshot_dir);
    }
    loop {
        let value = super::write::to_json(manifest);
        let mut text = crate::json::to_string_pretty(&value);
        text.push('\n');
        if text.len() as u64 <= MAX_MANIFEST_BYTES {
            return Ok((value, text));
        }
        let Some(&(input, index, _)) = directories.get(next) else {
            return Err(format!(
                "the manifest would be {} bytes, more than its limit of {MAX_MANIFEST_BYTES}, even with every directory's file list stored beside it",
                text.len()
            ));
        };
        next += 1;
        store_beside(manifest, input, index, snapshot_dir);
    }
}

/// Marks the list of input (or output) `index` as stored beside the manifest.
fn store_beside(manifest: &mut Manifest, input: bool, index: usize, snapshot_dir: &str) {
    let (artifact, sha256) = if input {
        let x = &mut manifest.inputs[index];
        (&mut x.artifact, x.sha256.as_str())
    } else {
        let x = &mut manifest.outputs[index];
        (&mut x.artifact, x.sha256.as_deref().unwrap_or_default())
    };
    if let Artifact::Directory { files, list } = artifact {
        *list = Some(FileList {
            path: list_path(snapshot_dir, sha256),
            count: files.len() as u64,
        });
    }
}

/// The lists of `manifest` stored beside it, each once: `(path, files)`.
pub fn stored_lists(manifest: &Manifest) -> Vec<(&str, &[FileEntry])> {
    let mut out: Vec<(&str, &[FileEntry])> = Vec::new();
    let artifacts = manifest
        .inputs
        .iter()
        .map(|x| &x.artifact)
        .chain(manifest.outputs.iter().map(|x| &x.artifact));
    for artifact in artifacts {
        if let Artifact::Directory {
            files,
            list: Some(list),
        } = artifact
            && !out.iter().any(|(p, _)| *p == list.path)
        {
            out.push((&list.path, files));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::tree_digest;

    fn entries(n: usize) -> Vec<FileEntry> {
        (0..n)
            .map(|i| FileEntry {
                path: format!("d{}/f{i:06}.txt", i % 7),
                sha256: format!("{:064x}", i * 31),
                size: i as u64,
            })
            .collect()
    }

    #[test]
    fn a_list_is_the_text_the_tree_digest_hashes() {
        let files = entries(50);
        assert_eq!(
            crate::hash::sha256_bytes(&list_text(&files)),
            tree_digest(&files)
        );
    }

    #[test]
    fn a_stored_list_reads_back_exactly_and_refuses_any_change() {
        let dir = tempfile::tempdir().unwrap();
        let mut files = entries(200);
        files.sort_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
        let sha = tree_digest(&files);
        let size: u64 = files.iter().map(|f| f.size).sum();
        let list = FileList {
            path: list_path("r.sciproof.d", &sha),
            count: 200,
        };
        let at = dir.path().join(&list.path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        let text = list_text(&files);
        std::fs::write(&at, &text).unwrap();
        assert_eq!(
            load(dir.path(), &list, &sha, size, "inputs[0]").unwrap(),
            files
        );
        let err = |e: Error| e.to_string();
        // wrong count, wrong size, a changed byte, a missing list
        let wrong = FileList {
            count: 199,
            ..list.clone()
        };
        assert!(
            err(load(dir.path(), &wrong, &sha, size, "inputs[0]").unwrap_err())
                .contains("more than 199")
        );
        assert!(
            err(load(dir.path(), &list, &sha, size + 1, "inputs[0]").unwrap_err())
                .contains("inputs[0].size")
        );
        let mut changed = text.clone();
        changed[3] = if changed[3] == b'0' { b'1' } else { b'0' };
        std::fs::write(&at, &changed).unwrap();
        assert!(
            err(load(dir.path(), &list, &sha, size, "inputs[0]").unwrap_err())
                .contains("it was modified")
        );
        // reordered lines hash differently, and are refused before that
        let mut lines: Vec<&[u8]> = text.split_inclusive(|b| *b == b'\n').collect();
        lines.swap(0, 1);
        std::fs::write(&at, lines.concat()).unwrap();
        assert!(
            err(load(dir.path(), &list, &sha, size, "inputs[0]").unwrap_err())
                .contains("unique and sorted")
        );
        std::fs::remove_file(&at).unwrap();
        assert!(
            err(load(dir.path(), &list, &sha, size, "inputs[0]").unwrap_err())
                .contains("cannot read the stored file list")
        );
    }

    #[test]
    fn lines_are_strict() {
        let sha = "a".repeat(64);
        assert!(parse_line(format!("{sha}  12  a/b.txt\n").as_bytes()).is_some());
        for bad in [
            format!("{sha}  12  a/b.txt"),         // no newline
            format!("{sha} 12  a/b.txt\n"),        // one space
            format!("{sha}  012  a/b.txt\n"),      // a leading zero
            format!("{sha}  -1  a/b.txt\n"),       // a sign
            format!("{}  1  a\n", "A".repeat(64)), // upper case
            format!("{sha}  1  ../a\n"),           // an unsafe path
            format!("{sha}  1  /a\n"),             // absolute
            format!("{sha}  1  \n"),               // empty path
        ] {
            assert!(parse_line(bad.as_bytes()).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn references_must_name_a_list_in_a_snapshot_folder() {
        let sha = "b".repeat(64);
        let reference = |path: &str| Object::new().with("list", path).with("count", 3u64);
        assert!(parse_reference(&reference(&format!("r.sciproof.d/lists/{sha}.txt")), "x").is_ok());
        for bad in [
            format!("../lists/{sha}.txt"),
            format!("r.sciproof.d/{sha}.txt"),
            format!("r/lists/{sha}.txt"),
            "r.sciproof.d/lists/short.txt".to_string(),
            format!("/r.sciproof.d/lists/{sha}.txt"),
        ] {
            assert!(parse_reference(&reference(&bad), "x").is_err(), "{bad}");
        }
        let extra = reference(&format!("r.sciproof.d/lists/{sha}.txt")).with("x", 1u64);
        assert!(parse_reference(&extra, "x").is_err());
    }
}
