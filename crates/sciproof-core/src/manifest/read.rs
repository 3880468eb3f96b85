//! Reading a manifest: strict JSON, then validation into the typed model with located errors.
//!
//! The order of checks and the messages follow the reference (first failure wins), so that both
//! tools refuse the same manifests with the same explanation. Unknown keys are ignored at every
//! level.

use super::model::*;
use crate::error::{Error, Result, strerror};
use crate::json::{self, Number, Object, Value};
use crate::paths::validate_relative_path;
use crate::pyfmt::str_repr;
use crate::store::object_url::{ObjectUrl, is_object_url};
use crate::tree::{FileEntry, INLINE_TREE_FILES, tree_digest, tree_size};
use num_traits::{Signed, ToPrimitive};
use std::collections::{HashMap, HashSet};
use std::path::Path;

pub(super) fn fail(place: &str, message: impl AsRef<str>) -> Error {
    Error::Manifest(format!("invalid manifest: {place}: {}", message.as_ref()))
}

/// The Python type names a field may have.
#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Str,
    Int,
    Bool,
    List,
    Dict,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Str => "str",
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::List => "list",
            Ty::Dict => "dict",
        }
    }
    fn matches(self, v: &Value) -> bool {
        matches!(
            (self, v),
            (Ty::Str, Value::String(_))
                | (Ty::Int, Value::Number(Number::Int(_)))
                | (Ty::Bool, Value::Bool(_))
                | (Ty::List, Value::Array(_))
                | (Ty::Dict, Value::Object(_))
        )
    }
}

/// The reference's `_get`: a required key of one type (booleans refused where not expected).
fn get<'a>(obj: &'a Object, key: &str, ty: Ty, place: &str) -> Result<&'a Value> {
    let Some(value) = obj.get(key) else {
        return Err(fail(
            place,
            format!("missing required field {}", str_repr(key)),
        ));
    };
    if matches!(value, Value::Bool(_)) && ty != Ty::Bool {
        return Err(fail(&format!("{place}.{key}"), "unexpected boolean"));
    }
    if !ty.matches(value) {
        return Err(fail(
            &format!("{place}.{key}"),
            format!("expected {}, got {}", ty.name(), value.py_type_name()),
        ));
    }
    Ok(value)
}

fn get_str<'a>(obj: &'a Object, key: &str, place: &str) -> Result<&'a str> {
    Ok(get(obj, key, Ty::Str, place)?.as_str().unwrap_or_default())
}

fn get_object<'a>(obj: &'a Object, key: &str, place: &str) -> Result<&'a Object> {
    match get(obj, key, Ty::Dict, place)? {
        Value::Object(o) => Ok(o),
        _ => unreachable!("checked by get"),
    }
}

pub(super) fn as_object<'a>(value: Option<&'a Value>, place: &str) -> Result<&'a Object> {
    match value {
        Some(Value::Object(o)) => Ok(o),
        other => Err(fail(
            place,
            format!(
                "expected an object, got {}",
                other.map_or("NoneType", Value::py_type_name)
            ),
        )),
    }
}

fn size(obj: &Object, place: &str) -> Result<u64> {
    let Value::Number(Number::Int(i)) = get(obj, "size", Ty::Int, place)? else {
        unreachable!()
    };
    if i.is_negative() {
        return Err(fail(&format!("{place}.size"), "expected a size >= 0"));
    }
    i.to_u64().ok_or_else(|| {
        fail(
            &format!("{place}.size"),
            "expected a size that fits 64 bits",
        )
    })
}

fn sha(value: Option<&Value>, place: &str) -> Result<String> {
    match value {
        Some(Value::String(s))
            if s.len() == 64
                && s.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) =>
        {
            Ok(s.clone())
        }
        _ => Err(fail(
            place,
            "expected a lowercase 64-character hex SHA-256 digest",
        )),
    }
}

/// Reads `{place}.path` as a relative path (see [`rel_path`]) and refuses one that `taken` says
/// is already declared, with the located error "duplicate path '...'".
fn unique_path(obj: &Object, place: &str, taken: impl FnOnce(&str) -> bool) -> Result<String> {
    unique_checked(obj, place, taken, rel_path)
}

/// [`unique_path`] for a declared input or output, which may also be an object address
/// (see [`artifact_path`]).
fn unique_artifact_path(
    obj: &Object,
    place: &str,
    taken: impl FnOnce(&str) -> bool,
) -> Result<String> {
    unique_checked(obj, place, taken, artifact_path)
}

fn unique_checked(
    obj: &Object,
    place: &str,
    taken: impl FnOnce(&str) -> bool,
    check: fn(Option<&Value>, &str) -> Result<String>,
) -> Result<String> {
    let at = format!("{place}.path");
    let path = check(obj.get("path"), &at)?;
    if taken(&path) {
        return Err(fail(&at, format!("duplicate path {}", str_repr(&path))));
    }
    Ok(path)
}

/// A manifest path: a string that passes [`validate_relative_path`] (safe, relative,
/// `/`-separated); the error names `place`.
pub(super) fn rel_path(value: Option<&Value>, place: &str) -> Result<String> {
    let text = match value {
        Some(Value::String(s)) => s.as_str(),
        other => {
            let shown = match other {
                None | Some(Value::Null) => "None".to_string(),
                Some(v) => json::to_string_compact(v),
            };
            return Err(fail(
                place,
                format!("path must be a non-empty string, got {shown}"),
            ));
        }
    };
    validate_relative_path(text).map_err(|e| fail(place, e.0))?;
    Ok(text.to_string())
}

/// The path of a declared input or output: a relative path (see [`rel_path`]) or an object
/// address (`s3://`, `gs://`, `az://`) in its stored form, checked as strictly.
fn artifact_path(value: Option<&Value>, place: &str) -> Result<String> {
    if let Some(Value::String(text)) = value
        && is_object_url(text)
    {
        let url = ObjectUrl::parse(text).map_err(|e| fail(place, e))?;
        if url.stored() != *text {
            return Err(fail(
                place,
                format!(
                    "an object address is stored without a trailing '/': {}",
                    str_repr(&url.stored())
                ),
            ));
        }
        return Ok(text.clone());
    }
    rel_path(value, place)
}

/// One pin (`{"etag", "version"}`, each a string or null).
fn object_pin(value: Option<&Value>, place: &str) -> Result<ObjectPin> {
    let pin = as_object(value, place)?;
    let field = |key: &str| -> Result<Option<String>> {
        match pin.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s))
                if !s.is_empty() && s.len() <= 1024 && !s.chars().any(char::is_control) =>
            {
                Ok(Some(s.clone()))
            }
            Some(_) => Err(fail(
                &format!("{place}.{key}"),
                "expected null or 1 to 1024 characters without control characters",
            )),
        }
    };
    Ok(ObjectPin {
        etag: field("etag")?,
        version: field("version")?,
    })
}

/// The pins of an artifact at an object address: `object` for an object, `objects` (one per
/// listed file, in order) for a prefix. `None` for a local path.
fn check_remote(
    item: &Object,
    place: &str,
    path: &str,
    artifact: &Artifact,
) -> Result<Option<Remote>> {
    if !is_object_url(path) {
        return Ok(None);
    }
    let pins = match artifact {
        Artifact::File => match item.get("object") {
            None | Some(Value::Null) => Vec::new(),
            value => vec![object_pin(value, &format!("{place}.object"))?],
        },
        Artifact::Directory { list: Some(_), .. } => {
            return Err(fail(
                &format!("{place}.files"),
                "the objects of a prefix are listed in the manifest itself",
            ));
        }
        Artifact::Directory { files, .. } => {
            let at = format!("{place}.objects");
            let list = match item.get("objects") {
                Some(Value::Array(list)) => list,
                _ => return Err(fail(&at, "expected a list of object pins")),
            };
            if list.len() != files.len() {
                return Err(fail(&at, "expected one pin per listed file"));
            }
            list.iter()
                .enumerate()
                .map(|(i, v)| object_pin(Some(v), &format!("{at}[{i}]")))
                .collect::<Result<_>>()?
        }
    };
    Ok(Some(Remote { pins }))
}

/// The reference's `_finite_nonneg`: a number (not bool), finite, >= 0, representable as f64.
pub(super) fn finite_nonneg(value: Option<&Value>, place: &str) -> Result<f64> {
    let bad = || fail(place, "expected a finite number >= 0");
    match value {
        Some(Value::Number(Number::Int(i))) => {
            if i.is_negative() {
                return Err(bad());
            }
            i.to_f64().filter(|f| f.is_finite()).ok_or_else(bad)
        }
        Some(Value::Number(Number::Float(f))) => {
            if f.is_finite() && *f >= 0.0 {
                Ok(*f)
            } else {
                Err(bad())
            }
        }
        _ => Err(fail(place, "expected a number")),
    }
}

pub(super) fn is_finite_number(value: &Value) -> bool {
    match value {
        Value::Number(Number::Int(_)) => true,
        Value::Number(Number::Float(f)) => f.is_finite(),
        _ => false,
    }
}

/// Whether `s` is a SHA-256 digest as manifests write it: 64 lowercase hex digits.
pub(super) fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A directory file entry that passes every rule, or `None` (then the located checks run).
fn well_formed_entry(entry: &Value) -> Option<FileEntry> {
    let o = entry.as_object()?;
    let path = o.get("path")?.as_str()?;
    validate_relative_path(path).ok()?;
    let sha256 = o.get("sha256")?.as_str().filter(|s| is_sha256_hex(s))?;
    let Value::Number(Number::Int(size)) = o.get("size")? else {
        return None;
    };
    Some(FileEntry {
        path: path.to_string(),
        sha256: sha256.to_string(),
        size: size.to_u64()?,
    })
}

fn check_kind(
    item: &Object,
    place: &str,
    minor: u64,
    present: bool,
    sha256: Option<&str>,
    total: u64,
) -> Result<Artifact> {
    let kind = item.get("kind");
    match kind {
        None => {}
        Some(Value::String(k)) if k == "file" => {}
        Some(Value::String(k)) if k == "directory" => {
            if minor < 1 {
                return Err(fail(
                    &format!("{place}.kind"),
                    "directory entries need schema_version 1.1 or later",
                ));
            }
            let files = item.get("files");
            if !present {
                let non_empty = match files {
                    None | Some(Value::Null) => false,
                    Some(Value::Array(a)) => !a.is_empty(),
                    Some(Value::Object(o)) => !o.is_empty(),
                    Some(Value::String(s)) => !s.is_empty(),
                    Some(Value::Bool(b)) => *b,
                    Some(Value::Number(_)) => true,
                };
                if non_empty {
                    return Err(fail(
                        &format!("{place}.files"),
                        "must be empty when the directory is not present",
                    ));
                }
                return Ok(Artifact::directory(Vec::new()));
            }
            let list = match files {
                Some(Value::Array(list)) => list,
                // stored beside the manifest: read by `load`, which knows the folder
                Some(Value::Object(reference)) => {
                    let list =
                        super::file_list::parse_reference(reference, &format!("{place}.files"))?;
                    return Ok(Artifact::Directory {
                        files: Vec::new(),
                        list: Some(list),
                    });
                }
                _ => return Err(fail(&format!("{place}.files"), "expected a list of files")),
            };
            if list.len() > INLINE_TREE_FILES {
                return Err(fail(
                    &format!("{place}.files"),
                    format!("more than {INLINE_TREE_FILES} files"),
                ));
            }
            let mut seen = HashSet::new();
            let mut entries = Vec::with_capacity(list.len());
            for (index, entry) in list.iter().enumerate() {
                // Fast path without building location strings: most entries are valid.
                if let Some(e) = well_formed_entry(entry).filter(|e| !seen.contains(&e.path)) {
                    seen.insert(e.path.clone());
                    entries.push(e);
                    continue;
                }
                let inner = format!("{place}.files[{index}]");
                let entry = as_object(Some(entry), &inner)?;
                let path = unique_path(entry, &inner, |p| !seen.insert(p.to_owned()))?;
                let digest = sha(entry.get("sha256"), &format!("{inner}.sha256"))?;
                let size = size(entry, &inner)?;
                entries.push(FileEntry {
                    path,
                    sha256: digest,
                    size,
                });
            }
            if Some(tree_digest(&entries).as_str()) != sha256 {
                return Err(fail(
                    &format!("{place}.sha256"),
                    "does not match the digest of the listed files",
                ));
            }
            if tree_size(&entries) != total {
                return Err(fail(
                    &format!("{place}.size"),
                    "does not match the sizes of the listed files",
                ));
            }
            return Ok(Artifact::directory(entries));
        }
        Some(other) => {
            let shown = match other {
                Value::String(s) => str_repr(s),
                v => json::to_string_compact(v),
            };
            return Err(fail(
                &format!("{place}.kind"),
                format!("expected 'file' or 'directory', got {shown}"),
            ));
        }
    }
    if item.contains_key("files") {
        return Err(fail(
            &format!("{place}.files"),
            "only a directory has a list of files",
        ));
    }
    Ok(Artifact::File)
}

fn check_hardware(value: Option<&Value>, minor: u64) -> Result<Option<Hardware>> {
    let Some(value) = value.filter(|v| !matches!(v, Value::Null)) else {
        return Ok(None);
    };
    let place = "environment.hardware";
    if minor < 1 {
        return Err(fail(place, "hardware needs schema_version 1.1 or later"));
    }
    let hw = as_object(Some(value), place)?;
    let cpu_err = || {
        fail(
            &format!("{place}.cpu_count"),
            "expected a positive integer or null",
        )
    };
    let cpu_count = match hw.get("cpu_count") {
        None => return Err(cpu_err()),
        Some(Value::Null) => None,
        Some(Value::Number(Number::Int(i))) if i.is_positive() => {
            Some(i.to_u64().ok_or_else(cpu_err)?)
        }
        Some(_) => return Err(cpu_err()),
    };
    let processor = match hw.get("processor") {
        Some(Value::String(s)) if s.chars().count() <= 200 => s.clone(),
        _ => {
            return Err(fail(
                &format!("{place}.processor"),
                "expected a string of at most 200 characters",
            ));
        }
    };
    let gpu_probe = match hw.get("gpu_probe") {
        Some(Value::String(s)) if ["nvidia-smi", "none", "failed"].contains(&s.as_str()) => {
            s.clone()
        }
        _ => {
            return Err(fail(
                &format!("{place}.gpu_probe"),
                "expected 'nvidia-smi', 'none' or 'failed'",
            ));
        }
    };
    let gpus = match hw.get("gpus") {
        Some(Value::Array(a)) if a.len() <= MAX_GPUS => a,
        _ => {
            return Err(fail(
                &format!("{place}.gpus"),
                format!("expected a list of at most {MAX_GPUS} GPUs"),
            ));
        }
    };
    let mut list = Vec::new();
    for (index, gpu) in gpus.iter().enumerate() {
        let gplace = format!("{place}.gpus[{index}]");
        let gpu = as_object(Some(gpu), &gplace)?;
        let text = |key: &str, limit: usize| match gpu.get(key) {
            Some(Value::String(s)) if s.chars().count() <= limit => Ok(s.clone()),
            _ => Err(fail(
                &format!("{gplace}.{key}"),
                format!("expected a string of at most {limit}"),
            )),
        };
        let name = text("name", 100)?;
        let driver = text("driver", 40)?;
        let memory_mib = match gpu.get("memory_mib") {
            None | Some(Value::Null) => None,
            Some(Value::Number(Number::Int(i))) if !i.is_negative() => i.to_u64(),
            _ => {
                return Err(fail(
                    &format!("{gplace}.memory_mib"),
                    "expected a non-negative integer or null",
                ));
            }
        };
        list.push(Gpu {
            name,
            driver,
            memory_mib,
        });
    }
    Ok(Some(Hardware {
        cpu_count,
        processor,
        gpu_probe,
        gpus: list,
    }))
}

fn check_note(value: Option<&Value>, minor: u64) -> Result<Option<String>> {
    let Some(value) = value.filter(|v| !matches!(v, Value::Null)) else {
        return Ok(None);
    };
    if minor < 1 {
        return Err(fail("note", "a note needs schema_version 1.1 or later"));
    }
    match value {
        Value::String(s) if s.contains('\0') => Err(fail(
            "note",
            "contains a NUL character (\\u0000), which no note may hold; remove it",
        )),
        Value::String(s)
            if !s.trim_matches(crate::pyfmt::is_py_space).is_empty()
                && s.chars().count() <= MAX_NOTE_LENGTH =>
        {
            Ok(Some(s.clone()))
        }
        _ => Err(fail(
            "note",
            format!("expected 1 to {MAX_NOTE_LENGTH} characters of text"),
        )),
    }
}

fn validate_stream(value: Option<&Value>, place: &str) -> Result<Stream> {
    let stream = as_object(value, place)?;
    let sha256 = sha(stream.get("sha256"), &format!("{place}.sha256"))?;
    let size = size(stream, place)?;
    let truncated = matches!(
        get(stream, "truncated", Ty::Bool, place)?,
        Value::Bool(true)
    );
    let text = get_str(stream, "text", place)?.to_string();
    Ok(Stream {
        sha256,
        size,
        truncated,
        text,
    })
}

/// The reference's nesting rule: no declared path lies inside another declared directory.
///
/// The error is the reference's: the first path (in declared order) that lies inside a
/// directory, with the first such directory (in declared order). Each path's ancestors are
/// looked up in a table of the declared directories, so the work is linear in the number of
/// path components instead of quadratic in the number of paths.
pub fn check_nesting(declared: &[(&str, bool)]) -> std::result::Result<(), String> {
    let mut directories: HashMap<&str, usize> = HashMap::new();
    for (index, (path, is_dir)) in declared.iter().enumerate() {
        if *is_dir {
            directories.entry(path).or_insert(index);
        }
    }
    if directories.is_empty() {
        return Ok(());
    }
    for (path, _) in declared {
        let mut first: Option<(usize, &str)> = None;
        for (at, _) in path.match_indices('/') {
            let ancestor = &path[..at];
            if let Some(&index) = directories.get(ancestor)
                && first.is_none_or(|(i, _)| index < i)
            {
                first = Some((index, ancestor));
            }
        }
        if let Some((_, directory)) = first {
            return Err(format!(
                "{} lies inside the declared directory {}; declare either the directory or the file",
                str_repr(path),
                str_repr(directory)
            ));
        }
    }
    Ok(())
}

/// The declared paths seen so far (inputs, then outputs): each with whether it is a directory,
/// for the nesting rule, and the inputs' paths, which no output may repeat.
#[derive(Default)]
struct Declared {
    paths: Vec<(String, bool)>,
    inputs: HashSet<String>,
}

/// `schema` and `schema_version`: returns the version and its minor number.
fn check_schema(manifest: &Object) -> Result<(&str, u64)> {
    match manifest.get("schema") {
        Some(Value::String(s)) if s == SCHEMA => {}
        other => {
            let shown = match other {
                None | Some(Value::Null) => "None".into(),
                Some(Value::String(s)) => str_repr(s),
                Some(v) => json::to_string_compact(v),
            };
            return Err(fail(
                "schema",
                format!("expected {}, got {shown}", str_repr(SCHEMA)),
            ));
        }
    }
    let version = get_str(manifest, "schema_version", "manifest")?;
    let parsed = version.split_once('.').and_then(|(a, b)| {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        (digits(a) && digits(b)).then(|| (a.parse::<u64>().ok(), b.parse::<u64>().ok()))
    });
    let Some((Some(major), Some(minor))) = parsed else {
        return Err(fail(
            "schema_version",
            format!("cannot parse version {}", str_repr(version)),
        ));
    };
    if major != SUPPORTED_MAJOR {
        return Err(Error::Manifest(format!(
            "unsupported manifest version {}; this SciProof reads major version {SUPPORTED_MAJOR}.x",
            str_repr(version)
        )));
    }
    Ok((version, minor))
}

/// `name` and `created_at`.
fn check_identity(manifest: &Object) -> Result<(&str, &str)> {
    let name = get_str(manifest, "name", "manifest")?;
    if !is_valid_name(name) {
        return Err(fail(
            "name",
            format!("{} is not a valid experiment name", str_repr(name)),
        ));
    }
    let created_at = get_str(manifest, "created_at", "manifest")?;
    match crate::timestamp::parse(created_at) {
        Ok(_) => {}
        Err(crate::timestamp::TimestampError::NotIso) => {
            return Err(fail(
                "manifest.created_at",
                format!("not an ISO 8601 timestamp: {}", str_repr(created_at)),
            ));
        }
        Err(crate::timestamp::TimestampError::NoOffset) => {
            return Err(fail(
                "manifest.created_at",
                format!("missing a timezone offset: {}", str_repr(created_at)),
            ));
        }
    }

    Ok((name, created_at))
}

/// `command`: a non-empty argv run in the manifest's folder.
fn check_command(manifest: &Object) -> Result<Vec<String>> {
    let command = get_object(manifest, "command", "manifest")?;
    let argv_value = get(command, "argv", Ty::List, "command")?;
    let argv_list = argv_value.as_array().unwrap_or_default();
    let mut argv = Vec::new();
    for item in argv_list {
        match item {
            Value::String(s) if !s.contains('\0') => argv.push(s.clone()),
            _ => return Err(fail("command.argv", "expected a non-empty list of strings")),
        }
    }
    if argv.is_empty() {
        return Err(fail("command.argv", "expected a non-empty list of strings"));
    }
    if argv[0].is_empty() {
        return Err(fail("command.argv[0]", "executable must not be empty"));
    }
    if get_str(command, "cwd", "command")? != "." {
        return Err(fail(
            "command.cwd",
            "only '.' (the manifest directory) is supported",
        ));
    }

    Ok(argv)
}

/// `environment`: the Python interpreter, platform, allow-listed variables and hardware.
fn check_environment(manifest: &Object, minor: u64) -> Result<Environment> {
    let environment = get_object(manifest, "environment", "manifest")?;
    let python = get_object(environment, "python", "environment")?;
    get(python, "version", Ty::Str, "environment.python")?;
    let platform = get_object(environment, "platform", "environment")?;
    let env_vars = get_object(environment, "env_vars", "environment")?;
    let hardware = check_hardware(environment.get("hardware"), minor)?;
    Ok(Environment {
        source: environment
            .get("source")
            .and_then(Value::as_str)
            .map(str::to_string),
        python: python.clone(),
        platform: platform.clone(),
        env_vars: env_vars.clone(),
        hardware,
    })
}

/// `dependencies`: name and version of each package.
fn check_dependencies(manifest: &Object) -> Result<Vec<Dependency>> {
    let mut dependencies = Vec::new();
    for (index, dep) in get(manifest, "dependencies", Ty::List, "manifest")?
        .as_array()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let place = format!("dependencies[{index}]");
        let dep = as_object(Some(dep), &place)?;
        let name = get_str(dep, "name", &place)?.to_string();
        let version = get_str(dep, "version", &place)?.to_string();
        dependencies.push(Dependency { name, version });
    }

    Ok(dependencies)
}

/// `git`: commit, branch and whether the tree was dirty, or nothing.
fn check_git(manifest: &Object) -> Result<Option<GitState>> {
    Ok(match manifest.get("git") {
        None | Some(Value::Null) => None,
        Some(value) => {
            let git = as_object(Some(value), "git")?;
            let commit = get_str(git, "commit", "git")?.to_string();
            let dirty = matches!(get(git, "dirty", Ty::Bool, "git")?, Value::Bool(true));
            let branch = git
                .get("branch")
                .and_then(Value::as_str)
                .map(str::to_string);
            Some(GitState {
                commit,
                branch,
                dirty,
            })
        }
    })
}

/// `inputs`: unique paths with their digests and kinds.
fn check_inputs(manifest: &Object, minor: u64, declared: &mut Declared) -> Result<Vec<Input>> {
    let mut inputs = Vec::new();
    for (index, item) in get(manifest, "inputs", Ty::List, "manifest")?
        .as_array()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let place = format!("inputs[{index}]");
        let item = as_object(Some(item), &place)?;
        let path = unique_artifact_path(item, &place, |p| !declared.inputs.insert(p.to_owned()))?;
        let digest = sha(item.get("sha256"), &format!("{place}.sha256"))?;
        let total = size(item, &place)?;
        let artifact = check_kind(item, &place, minor, true, Some(&digest), total)?;
        let remote = check_remote(item, &place, &path, &artifact)?;
        declared.paths.push((path.clone(), artifact.is_directory()));
        inputs.push(Input {
            path,
            sha256: digest,
            size: total,
            artifact,
            remote,
        });
    }

    Ok(inputs)
}

/// `execution`: exit code, duration, and the bounded standard streams.
fn check_execution(manifest: &Object) -> Result<Execution> {
    let execution = get_object(manifest, "execution", "manifest")?;
    let Value::Number(Number::Int(code)) = get(execution, "exit_code", Ty::Int, "execution")?
    else {
        unreachable!()
    };
    let exit_code = code.to_i64().ok_or_else(|| {
        fail(
            "execution.exit_code",
            "expected an exit code that fits 64 bits",
        )
    })?;
    let duration_seconds = finite_nonneg(
        execution.get("duration_seconds"),
        "execution.duration_seconds",
    )?;
    let stdout = validate_stream(execution.get("stdout"), "execution.stdout")?;
    let stderr = validate_stream(execution.get("stderr"), "execution.stderr")?;
    Ok(Execution {
        exit_code,
        duration_seconds,
        stdout,
        stderr,
    })
}

/// What the claims check needs of each output: whether it is a directory, and present.
type OutputInfo = HashMap<String, (bool, bool)>;

/// `outputs`: unique paths (none an input's) with presence, digests, kinds and comparison.
fn check_outputs(
    manifest: &Object,
    minor: u64,
    declared: &mut Declared,
) -> Result<(Vec<Output>, OutputInfo)> {
    let mut seen_outputs = HashSet::new();
    let mut output_info = HashMap::new();
    let mut outputs = Vec::new();
    for (index, item) in get(manifest, "outputs", Ty::List, "manifest")?
        .as_array()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let place = format!("outputs[{index}]");
        let item = as_object(Some(item), &place)?;
        let path = unique_artifact_path(item, &place, |p| {
            declared.inputs.contains(p) || !seen_outputs.insert(p.to_owned())
        })?;
        let present = matches!(get(item, "present", Ty::Bool, &place)?, Value::Bool(true));
        let (digest, total) = if present {
            (
                Some(sha(item.get("sha256"), &format!("{place}.sha256"))?),
                size(item, &place)?,
            )
        } else {
            if !matches!(item.get("sha256"), None | Some(Value::Null)) {
                return Err(fail(
                    &format!("{place}.sha256"),
                    "must be null when the output is not present",
                ));
            }
            let total = match item.get("size") {
                Some(Value::Number(Number::Int(i))) => i.to_u64().unwrap_or(0),
                _ => 0,
            };
            (None, total)
        };
        let compare_obj = as_object(
            Some(get(item, "compare", Ty::Dict, &place)?),
            &format!("{place}.compare"),
        )?;
        let compare = check_compare(compare_obj, &place, present)?;
        let artifact = check_kind(item, &place, minor, present, digest.as_deref(), total)?;
        if artifact.is_directory() && compare != Compare::Exact {
            return Err(fail(
                &format!("{place}.compare.mode"),
                "a directory can only be compared exactly",
            ));
        }
        let remote = if present {
            check_remote(item, &place, &path, &artifact)?
        } else {
            is_object_url(&path).then(Remote::default)
        };
        declared.paths.push((path.clone(), artifact.is_directory()));
        output_info.insert(path.clone(), (artifact.is_directory(), present));
        outputs.push(Output {
            path,
            present,
            sha256: digest,
            size: total,
            artifact,
            compare,
            remote,
        });
    }

    Ok((outputs, output_info))
}

/// `outputs[i].compare`: `exact`, or `numeric` with tolerances and a snapshot (only for a
/// present output).
fn check_compare(compare_obj: &Object, place: &str, present: bool) -> Result<Compare> {
    Ok(match compare_obj.get("mode") {
        Some(Value::String(m)) if m == "numeric" => {
            let rtol = finite_nonneg(compare_obj.get("rtol"), &format!("{place}.compare.rtol"))?;
            let atol = finite_nonneg(compare_obj.get("atol"), &format!("{place}.compare.atol"))?;
            let snap = as_object(
                compare_obj.get("snapshot"),
                &format!("{place}.compare.snapshot"),
            )?;
            let snap_path = rel_path(snap.get("path"), &format!("{place}.compare.snapshot.path"))?;
            let snap_sha = sha(
                snap.get("sha256"),
                &format!("{place}.compare.snapshot.sha256"),
            )?;
            if !present {
                return Err(fail(place, "a numeric output must be present"));
            }
            Compare::Numeric {
                rtol,
                atol,
                snapshot: Snapshot {
                    path: snap_path,
                    sha256: snap_sha,
                },
            }
        }
        Some(Value::String(m)) if m == "exact" => Compare::Exact,
        other => {
            let shown = match other {
                None | Some(Value::Null) => "None".into(),
                Some(Value::String(s)) => str_repr(s),
                Some(v) => json::to_string_compact(v),
            };
            return Err(fail(
                &format!("{place}.compare.mode"),
                format!("expected 'exact' or 'numeric', got {shown}"),
            ));
        }
    })
}

/// Validates a parsed document and returns the typed manifest.
pub fn validate(data: &Value) -> Result<Manifest> {
    let manifest = as_object(Some(data), "manifest")?;
    let (version, minor) = check_schema(manifest)?;
    let (name, created_at) = check_identity(manifest)?;
    let argv = check_command(manifest)?;
    let environment = check_environment(manifest, minor)?;
    let note = check_note(manifest.get("note"), minor)?;
    let trace = check_trace(manifest.get("trace"))?;
    let dependencies = check_dependencies(manifest)?;
    let git = check_git(manifest)?;
    let mut declared = Declared::default();
    let inputs = check_inputs(manifest, minor, &mut declared)?;
    let execution = check_execution(manifest)?;
    let (outputs, output_info) = check_outputs(manifest, minor, &mut declared)?;
    let claims = super::read_claims::check_claims(manifest.get("claims"), minor, &output_info)?;
    let pairs: Vec<(&str, bool)> = declared
        .paths
        .iter()
        .map(|(p, d)| (p.as_str(), *d))
        .collect();
    check_nesting(&pairs).map_err(|message| fail("manifest", message))?;
    Ok(Manifest {
        schema_version: version.to_string(),
        minor,
        name: name.to_string(),
        created_at: created_at.to_string(),
        tool: manifest.get("tool").cloned().unwrap_or(Value::Null),
        command: CommandLine { argv },
        environment,
        dependencies,
        git,
        inputs,
        execution,
        outputs,
        claims,
        note,
        trace,
    })
}

/// `trace`: sciproof's record of a traced capture (absent or null: none).
fn check_trace(value: Option<&Value>) -> Result<Option<TraceRecord>> {
    let Some(value) = value.filter(|v| !matches!(v, Value::Null)) else {
        return Ok(None);
    };
    let o = as_object(Some(value), "trace")?;
    let method = get_str(o, "method", "trace")?.to_string();
    let complete = matches!(get(o, "complete", Ty::Bool, "trace")?, Value::Bool(true));
    let Value::Number(Number::Int(n)) = get(o, "processes", Ty::Int, "trace")? else {
        unreachable!("checked by get")
    };
    let processes = n
        .to_u64()
        .ok_or_else(|| fail("trace.processes", "expected a count >= 0"))?;
    let list = |key: &str| -> Result<Vec<String>> {
        let Value::Array(items) = get(o, key, Ty::List, "trace")? else {
            unreachable!("checked by get")
        };
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| fail(&format!("trace.{key}[{i}]"), "expected a string"))
            })
            .collect()
    };
    Ok(Some(TraceRecord {
        method,
        complete,
        processes,
        undeclared_reads: list("undeclared_reads")?,
        unread_inputs: list("unread_inputs")?,
    }))
}

/// Parses and validates manifest text.
pub fn parse_manifest(text: &str) -> Result<Manifest> {
    let value = json::parse(text)
        .map_err(|e| Error::Manifest(format!("manifest is not valid JSON: {e}")))?;
    validate(&value)
}

/// Which file a manifest was read from, to tell later whether it was replaced meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    /// Device.
    pub dev: u64,
    /// Inode.
    pub ino: u64,
    /// Size in bytes.
    pub size: u64,
    /// Modification time in nanoseconds.
    pub mtime_ns: i128,
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        }
    }
    /// The identity of what is at `path` now (`None` when nothing is).
    pub fn now(path: &Path) -> Option<Identity> {
        std::fs::metadata(path).ok().map(|m| Identity::of(&m))
    }
}

/// A manifest read once: its exact bytes (what a signature covers and a claim graph hashes),
/// the validated model, and where it is. Every command works on this one read.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The path as given.
    pub path: std::path::PathBuf,
    /// The manifest's folder (resolved): declared paths are relative to it.
    pub base: std::path::PathBuf,
    /// The file's name (`NAME.sciproof.json`).
    pub file_name: String,
    /// The exact bytes read.
    pub bytes: Vec<u8>,
    /// The manifest.
    pub manifest: Manifest,
    /// The file the bytes came from.
    pub identity: Identity,
}

impl Loaded {
    /// SHA-256 of the bytes.
    pub fn sha256(&self) -> String {
        crate::hash::sha256_bytes(&self.bytes)
    }
}

/// Reads and validates the manifest at `path` once (see [`load_manifest`] for the rules).
pub fn load(path: &Path) -> Result<Loaded> {
    use crate::untrusted::Kind;
    let shown = crate::escape::terminal::safe_text(&path.display().to_string(), 300);
    let resolved = crate::paths::resolve_base(path);
    let (file, meta) =
        crate::untrusted::open(path, Kind::Manifest, crate::untrusted::Links::Follow)
            .map_err(|e| Error::Manifest(manifest_problem(&shown, &e.problem, e.to_string())))?;
    if meta.len() > MAX_MANIFEST_BYTES {
        return Err(Error::Manifest(format!(
            "manifest is larger than {MAX_MANIFEST_BYTES} bytes: {shown}"
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_MANIFEST_BYTES + 1),
        &mut bytes,
    )
    .map_err(|e| Error::Manifest(format!("cannot read manifest {shown}: {}", strerror(&e))))?;
    if bytes.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(Error::Manifest(format!(
            "manifest is larger than {MAX_MANIFEST_BYTES} bytes: {shown}"
        )));
    }
    let text = crate::untrusted::into_text(path, Kind::Manifest, bytes)
        .map_err(|e| Error::Manifest(manifest_problem(&shown, &e.problem, e.to_string())))?;
    let located = |e: Error| match e {
        Error::Manifest(m) => Error::Manifest(format!(
            "{m} (in {shown}; restore the manifest as it was published, or capture again)"
        )),
        other => other,
    };
    let mut manifest = parse_manifest(&text).map_err(located)?;
    let base = resolved
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| std::path::PathBuf::from("/"));
    super::file_list::load_all(&mut manifest, &base).map_err(located)?;
    let file_name = resolved
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    check_reserved(&manifest, &file_name).map_err(located)?;
    let bytes = text.into_bytes();
    Ok(Loaded {
        path: path.to_path_buf(),
        base,
        file_name,
        bytes,
        manifest,
        identity: Identity::of(&meta),
    })
}

/// The reference's wording for a manifest that cannot be read, with what it is instead.
fn manifest_problem(shown: &str, problem: &crate::untrusted::Problem, other: String) -> String {
    use crate::untrusted::Problem;
    match problem {
        Problem::NotFound => format!(
            "manifest not found: {shown} (check the path; manifests are named NAME.sciproof.json)"
        ),
        Problem::NotRegular(kind) => {
            format!("manifest is not a regular file: {shown} (it is {kind})")
        }
        Problem::NotUtf8(offset) => {
            format!("manifest is not valid UTF-8: {shown}: invalid byte at offset {offset}")
        }
        Problem::ByteOrderMark => format!(
            "manifest is not valid JSON: {shown} starts with a byte-order mark (U+FEFF); remove it (save the file as UTF-8 without a BOM)"
        ),
        Problem::TooLarge(limit) => format!("manifest is larger than {limit} bytes: {shown}"),
        Problem::Io(_) => other,
    }
}

/// Refuses outputs that name version-control data or sciproof evidence (see
/// [`super::reserved_output`]).
fn check_reserved(manifest: &Manifest, file_name: &str) -> Result<()> {
    let folders: Vec<&str> = manifest
        .outputs
        .iter()
        .filter_map(|o| match &o.compare {
            Compare::Numeric { snapshot, .. } => snapshot.path.split('/').next(),
            Compare::Exact => None,
        })
        .collect();
    for (i, output) in manifest.outputs.iter().enumerate() {
        if let Some(why) = super::reserved_output(&output.path, file_name, &folders) {
            return Err(fail(&format!("outputs[{i}].path"), why));
        }
    }
    Ok(())
}

/// Reads and validates the manifest at `path`: it must exist, be a regular file of at most
/// 16 MiB, be UTF-8, be strict JSON (no repeated key) and pass validation. Never follows a
/// FIFO or device (it is refused before it is opened).
pub fn load_manifest(path: &Path) -> Result<Manifest> {
    load(path).map(|l| l.manifest)
}

#[cfg(test)]
mod nesting_tests {
    use super::check_nesting;
    use proptest::prelude::*;

    /// The rule as the reference states it: every pair.
    fn pairwise(declared: &[(&str, bool)]) -> Result<(), String> {
        for (path, _) in declared {
            for (directory, is_dir) in declared {
                if *is_dir && path != directory && path.starts_with(&format!("{directory}/")) {
                    return Err(format!(
                        "{} lies inside the declared directory {}; declare either the directory or the file",
                        crate::pyfmt::str_repr(path),
                        crate::pyfmt::str_repr(directory)
                    ));
                }
            }
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn the_linear_rule_is_the_pairwise_rule(
            paths in proptest::collection::vec(("[ab]{1,2}(/[ab]{1,2}){0,3}", any::<bool>()), 0..12)
        ) {
            let declared: Vec<(&str, bool)> = paths.iter().map(|(p, d)| (p.as_str(), *d)).collect();
            prop_assert_eq!(check_nesting(&declared), pairwise(&declared));
        }
    }
}
