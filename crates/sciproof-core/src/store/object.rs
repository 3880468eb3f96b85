//! Object storage (S3 and S3-compatible stores, Google Cloud Storage, Azure Blob Storage),
//! through Apache Arrow's `object_store` crate.
//!
//! An object is its SHA-256, always computed here by streaming its bytes (a store's own
//! checksum or ETag is never trusted as one); a prefix is a directory whose files are the
//! objects below it, with the local tree digest rule. Capture pins each object's ETag and,
//! where the bucket keeps versions, its version ID; verify reads exactly the pinned version
//! (or the current object when none was pinned) and says when the current object differs.
//!
//! A store that cannot be asked (down, missing or refused credentials, a pinned object that is
//! gone) makes the artifact *unavailable*: never a PASS or a FAIL.
//!
//! Many objects are fetched concurrently ([`concurrency`], `SCIPROOF_OBJECT_CONCURRENCY`),
//! each streamed and hashed as it arrives, so memory stays bounded whatever the sizes.

use super::object_config::{self, ConfigProblem, Env};
use super::object_url::ObjectUrl;
use super::{ArtifactStore, Location, State};
use crate::manifest::{Artifact, ObjectPin, Remote};
use crate::progress::{Progress, Unit};
use crate::tree::{FileEntry, TreeDiff, tree_digest, tree_size};
use futures::{StreamExt, TryStreamExt};
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, ObjectStore};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// Objects fetched at once unless `SCIPROOF_OBJECT_CONCURRENCY` says otherwise.
pub const DEFAULT_CONCURRENCY: usize = 32;
/// The most objects one prefix may hold (their pins are listed in the manifest).
pub const MAX_PREFIX_OBJECTS: usize = crate::tree::INLINE_TREE_FILES;

/// How many objects are fetched at once: `SCIPROOF_OBJECT_CONCURRENCY` (1 to 1024), or
/// [`DEFAULT_CONCURRENCY`].
pub fn concurrency() -> usize {
    std::env::var("SCIPROOF_OBJECT_CONCURRENCY")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|n| (1..=1024).contains(n))
        .unwrap_or(DEFAULT_CONCURRENCY)
}

/// Why an object could not be read. Each says which, so a report can tell a user what to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unavailable {
    /// The store did not answer (down, wrong endpoint, network).
    Unreachable(String),
    /// No credentials, or the store refused them.
    Credentials(String),
    /// The object (or its pinned version) is not there.
    Absent(String),
    /// The configuration cannot be used.
    Configuration(String),
    /// A termination signal arrived while objects were read (see [`crate::interrupt`]).
    Interrupted(String),
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unavailable::Unreachable(m) => write!(f, "the store is unreachable: {m}"),
            Unavailable::Credentials(m) => write!(f, "credentials: {m}"),
            Unavailable::Absent(m) => f.write_str(m),
            Unavailable::Configuration(m) => write!(f, "invalid configuration: {m}"),
            Unavailable::Interrupted(signal) => write!(f, "stopped by {signal}"),
        }
    }
}

/// `text` on one line, at most 300 characters (store errors can be long and multi-line).
pub fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut short: String = flat.chars().take(300).collect();
    if flat.chars().count() > 300 {
        short.push('…');
    }
    short
}

fn from_store_error(e: object_store::Error, what: &str) -> Unavailable {
    use object_store::Error as E;
    match e {
        E::NotFound { .. } => Unavailable::Absent(format!("{what} does not exist")),
        E::PermissionDenied { source, .. } | E::Unauthenticated { source, .. } => {
            Unavailable::Credentials(format!(
                "the store refused them: {}",
                one_line(&source.to_string())
            ))
        }
        other => {
            let text = other.to_string();
            let lower = text.to_ascii_lowercase();
            // No credentials were configured, so object_store asked the instance metadata
            // service, which is not there (or refused).
            if lower.contains("169.254.169.254") || lower.contains("metadata.google.internal") {
                return Unavailable::Credentials(format!(
                    "none found in the environment or the profile files, and the cloud's instance metadata service gave none ({})",
                    one_line(&text)
                ));
            }
            // S3 reports a bad key as 403 inside a generic error.
            if status_403(&lower)
                || lower.contains("accessdenied")
                || lower.contains("invalidaccesskeyid")
                || lower.contains("signaturedoesnotmatch")
            {
                Unavailable::Credentials(format!("the store refused them: {}", one_line(&text)))
            } else {
                Unavailable::Unreachable(one_line(&text))
            }
        }
    }
}

/// Whether an error's text gives the HTTP status 403: the number on its own, not part of a
/// longer number or a port (`127.0.0.1:44403` is a store that cannot be reached, not one that
/// refused the credentials).
fn status_403(text: &str) -> bool {
    text.match_indices("403").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + 3..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit() || c == ':' || c == '.')
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

fn runtime() -> Result<&'static tokio::runtime::Runtime, Unavailable> {
    static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("sciproof-object-store")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| Unavailable::Configuration(format!("cannot start the I/O runtime: {e}")))
}

/// The client of the bucket of `url` (one per bucket and process).
fn client(url: &ObjectUrl) -> Result<Arc<dyn ObjectStore>, Unavailable> {
    type Clients = Mutex<HashMap<(String, String), Result<Arc<dyn ObjectStore>, ConfigProblem>>>;
    static CLIENTS: OnceLock<Clients> = OnceLock::new();
    static ENV: OnceLock<Env> = OnceLock::new();
    let env = ENV.get_or_init(object_config::process_env);
    let key = (url.scheme.prefix().to_string(), url.bucket.clone());
    let mut clients = CLIENTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let entry = clients
        .entry(key)
        .or_insert_with(|| object_config::client(url, env));
    entry.clone().map_err(|e| match e {
        ConfigProblem::NoCredentials(m) => Unavailable::Credentials(format!("none found: {m}")),
        ConfigProblem::Invalid(m) => Unavailable::Configuration(m),
    })
}

fn object_path(key: &str) -> Result<ObjectPath, Unavailable> {
    ObjectPath::parse(key).map_err(|e| {
        Unavailable::Configuration(format!("key {key:?}: {}", one_line(&e.to_string())))
    })
}

fn stop_if_interrupted() -> Result<(), Unavailable> {
    match crate::interrupt::pending() {
        Some(signal) => Err(Unavailable::Interrupted(signal.to_string())),
        None => Ok(()),
    }
}

/// What was read of one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// SHA-256 of its bytes, computed while they streamed in.
    pub sha256: String,
    /// Its size.
    pub size: u64,
    /// What identifies it.
    pub pin: ObjectPin,
}

/// Streams the object `key` (at `version`, or the current one) through SHA-256, and into
/// `copy` when given.
async fn fetch(
    store: &dyn ObjectStore,
    url: &ObjectUrl,
    key: &str,
    version: Option<&str>,
    progress: &dyn Progress,
    mut copy: Option<&mut dyn std::io::Write>,
) -> Result<Fetched, Unavailable> {
    let shown = || match version {
        Some(v) => format!("version {v} of {}{}/{key}", url.scheme.prefix(), url.bucket),
        None => format!("{}{}/{key}", url.scheme.prefix(), url.bucket),
    };
    let options = GetOptions {
        version: version.map(str::to_string),
        ..GetOptions::default()
    };
    let result = store
        .get_opts(&object_path(key)?, options)
        .await
        .map_err(|e| from_store_error(e, &shown()))?;
    let meta = result.meta.clone();
    let mut hasher = Sha256::new();
    let mut size = 0u64;
    let mut stream = result.into_stream();
    while let Some(chunk) = stream.next().await {
        // A termination signal during a critical section stops a long download at once.
        stop_if_interrupted()?;
        let chunk = chunk.map_err(|e| from_store_error(e, &shown()))?;
        hasher.update(&chunk);
        if let Some(copy) = copy.as_mut() {
            copy.write_all(&chunk).map_err(|e| {
                Unavailable::Configuration(format!(
                    "cannot write a local copy: {}",
                    crate::error::strerror(&e)
                ))
            })?;
        }
        size += chunk.len() as u64;
        progress.advance(chunk.len() as u64);
    }
    Ok(Fetched {
        sha256: hex::encode(hasher.finalize()),
        size,
        pin: ObjectPin {
            etag: meta.e_tag,
            version: meta.version.or_else(|| version.map(str::to_string)),
        },
    })
}

/// The current object at `key`, `None` when there is none (metadata only).
async fn head(
    store: &dyn ObjectStore,
    url: &ObjectUrl,
    key: &str,
) -> Result<Option<object_store::ObjectMeta>, Unavailable> {
    if key.is_empty() {
        return Ok(None);
    }
    let options = GetOptions {
        head: true,
        ..GetOptions::default()
    };
    match store.get_opts(&object_path(key)?, options).await {
        Ok(r) => Ok(Some(r.meta)),
        Err(object_store::Error::NotFound { .. }) => Ok(None),
        Err(e) => Err(from_store_error(e, &url.stored())),
    }
}

/// Every object below the prefix `url`, as (path relative to the prefix, metadata), sorted by
/// path. An object key that could not be a relative manifest path is refused by name.
async fn list(
    store: &dyn ObjectStore,
    url: &ObjectUrl,
) -> Result<Vec<(String, object_store::ObjectMeta)>, Unavailable> {
    let prefix = (!url.key.is_empty())
        .then(|| object_path(&url.key))
        .transpose()?;
    let metas: Vec<object_store::ObjectMeta> = store
        .list(prefix.as_ref())
        .try_collect()
        .await
        .map_err(|e| from_store_error(e, &url.stored()))?;
    let strip = if url.key.is_empty() {
        String::new()
    } else {
        format!("{}/", url.key)
    };
    let mut objects = Vec::with_capacity(metas.len());
    for meta in metas {
        let key = meta.location.to_string();
        let Some(relative) = key.strip_prefix(&strip) else {
            continue;
        };
        objects.push((relative.to_string(), meta));
    }
    objects.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    // Folder markers: empty objects whose key ends with `/`, which consoles and some tools
    // make to show folders. object_store lists `dir/` as `dir`, a key that then cannot be read;
    // they hold no data and are not files of the tree. An empty entry is one when objects lie
    // below it, or when its listed key does not exist as an object.
    let has_children = |relative: &str| {
        // Sorted by bytes, the objects below `relative/` follow each other from here.
        let below = format!("{relative}/");
        let first = objects.partition_point(|(p, _)| p.as_bytes() < below.as_bytes());
        objects
            .get(first)
            .is_some_and(|(p, _)| p.starts_with(&below))
    };
    let empty: Vec<(usize, bool, String)> = objects
        .iter()
        .enumerate()
        .filter(|(_, (_, meta))| meta.size == 0)
        .map(|(i, (relative, meta))| (i, has_children(relative), meta.location.to_string()))
        .collect();
    let lookups = futures::stream::iter(empty.into_iter().map(|(i, parent, key)| async move {
        if parent {
            return Ok::<_, Unavailable>(Some(i));
        }
        Ok(head(store, url, &key).await?.is_none().then_some(i))
    }))
    .buffered(concurrency())
    .try_collect::<Vec<Option<usize>>>()
    .await?;
    let markers: std::collections::HashSet<usize> = lookups.into_iter().flatten().collect();
    if !markers.is_empty() {
        let mut index = 0;
        objects.retain(|_| {
            index += 1;
            !markers.contains(&(index - 1))
        });
    }
    Ok(objects)
}

/// Fetches `keys` (each at its version) concurrently; results in the order of `keys`.
async fn fetch_all(
    store: &dyn ObjectStore,
    url: &ObjectUrl,
    keys: &[(String, Option<String>)],
    progress: &dyn Progress,
) -> Vec<Result<Fetched, Unavailable>> {
    futures::stream::iter(
        keys.iter()
            .map(|(key, version)| fetch(store, url, key, version.as_deref(), progress, None)),
    )
    .buffered(concurrency())
    .collect()
    .await
}

/// An artifact in object storage as capture records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Captured {
    /// An object, or a prefix with its objects as files.
    pub artifact: Artifact,
    /// SHA-256 of the object, or the tree digest of the prefix.
    pub sha256: String,
    /// Bytes in all.
    pub size: u64,
    /// The pins.
    pub remote: Remote,
}

/// Reads the artifact at `url` for capture: the object at its key, or (with a trailing `/`,
/// or when no object has the key) every object below it. `Ok(None)` when there is nothing.
pub fn capture(url: &ObjectUrl, progress: &dyn Progress) -> Result<Option<Captured>, String> {
    let describe = |e: Unavailable| format!("{url}: {e}");
    let store = client(url).map_err(describe)?;
    let rt = runtime().map_err(describe)?;
    rt.block_on(async {
        if !url.prefix
            && let Some(meta) = head(store.as_ref(), url, &url.key).await.map_err(describe)?
        {
            progress.begin(&url.stored(), meta.size, Unit::Bytes);
            let fetched = fetch(store.as_ref(), url, &url.key, None, progress, None).await;
            progress.finish();
            let fetched = fetched.map_err(describe)?;
            return Ok(Some(Captured {
                artifact: Artifact::File,
                sha256: fetched.sha256,
                size: fetched.size,
                remote: Remote {
                    pins: vec![fetched.pin],
                },
            }));
        }
        let objects = list(store.as_ref(), url).await.map_err(describe)?;
        if objects.is_empty() {
            return Ok(None);
        }
        if objects.len() > MAX_PREFIX_OBJECTS {
            return Err(format!(
                "{url}: more than {MAX_PREFIX_OBJECTS} objects below this prefix; declare smaller prefixes"
            ));
        }
        for (relative, _) in &objects {
            crate::paths::validate_relative_path(relative).map_err(|e| {
                format!("{url}: the object {relative:?} below it cannot be recorded: {e}")
            })?;
        }
        let keys: Vec<(String, Option<String>)> = objects
            .iter()
            .map(|(relative, _)| (url.child_key(relative), None))
            .collect();
        let total = objects.iter().map(|(_, m)| m.size).sum();
        progress.begin(
            &format!("{url} ({} objects)", objects.len()),
            total,
            Unit::Bytes,
        );
        let fetched = fetch_all(store.as_ref(), url, &keys, progress).await;
        progress.finish();
        let mut files = Vec::with_capacity(objects.len());
        let mut pins = Vec::with_capacity(objects.len());
        for ((relative, _), result) in objects.into_iter().zip(fetched) {
            let f = result.map_err(describe)?;
            files.push(FileEntry {
                path: relative,
                sha256: f.sha256,
                size: f.size,
            });
            pins.push(f.pin);
        }
        Ok(Some(Captured {
            sha256: tree_digest(&files),
            size: tree_size(&files),
            artifact: Artifact::directory(files),
            remote: Remote { pins },
        }))
    })
}

/// The digest of what is at `url` now (`None` when nothing is), for the outputs' "was it
/// changed by the run" note at capture.
pub fn current_digest(url: &ObjectUrl, progress: &dyn Progress) -> Result<Option<String>, String> {
    capture(url, progress).map(|c| c.map(|c| c.sha256))
}

/// Whether a remote input is still exactly what capture read. An object whose version was
/// pinned is unchanged when the current object is still that version (a version's bytes never
/// change), which a metadata request shows without reading it again; anything else is read
/// again and must have the same bytes and, where versions were pinned, the same versions.
pub fn unchanged(
    url: &ObjectUrl,
    recorded: &str,
    remote: &Remote,
    progress: &dyn Progress,
) -> bool {
    if let (
        false,
        [
            ObjectPin {
                version: Some(pinned),
                ..
            },
        ],
    ) = (url.prefix, remote.pins.as_slice())
        && let (Ok(store), Ok(rt)) = (client(url), runtime())
        && let Ok(Some(meta)) = rt.block_on(head(store.as_ref(), url, &url.key))
        && meta.version.as_deref() == Some(pinned.as_str())
    {
        return true;
    }
    capture(url, progress).is_ok_and(|now| {
        now.is_some_and(|now| {
            now.sha256 == recorded
                && now
                    .remote
                    .pins
                    .iter()
                    .zip(&remote.pins)
                    .all(|(a, b)| a.version == b.version)
        })
    })
}

/// Streams the object at `url` (at `version`, or the current one) into the file `dest` while
/// hashing it; its SHA-256 must be `expected` when given (an object that changed between two
/// reads is refused, never compared). Returns what was read.
pub fn download(
    url: &ObjectUrl,
    version: Option<&str>,
    expected: Option<&str>,
    dest: &Path,
    progress: &dyn Progress,
) -> Result<Fetched, Unavailable> {
    let store = client(url)?;
    let rt = runtime()?;
    let io = |e: std::io::Error| {
        Unavailable::Configuration(format!(
            "cannot write a local copy at {}: {}",
            dest.display(),
            crate::error::strerror(&e)
        ))
    };
    let mut file =
        std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(dest).map_err(io)?);
    progress.begin(&url.stored(), 0, Unit::Bytes);
    let fetched = rt.block_on(fetch(
        store.as_ref(),
        url,
        &url.key,
        version,
        progress,
        Some(&mut file),
    ));
    progress.finish();
    let fetched = fetched?;
    std::io::Write::flush(&mut file).map_err(io)?;
    if expected.is_some_and(|e| e != fetched.sha256) {
        return Err(Unavailable::Absent(format!(
            "{url} changed while it was being read (SHA-256 {}); nothing was compared",
            fetched.sha256
        )));
    }
    Ok(fetched)
}

/// The object at `url` (at `version`, or the current one) in a new scratch folder, under its
/// own file name (so its format is known by its extension), for a numeric comparison or a
/// recorded copy; `expected` as in [`download`].
pub fn download_to_scratch(
    url: &ObjectUrl,
    version: Option<&str>,
    expected: Option<&str>,
    progress: &dyn Progress,
) -> Result<(tempfile::TempDir, std::path::PathBuf, Fetched), Unavailable> {
    let dir = tempfile::Builder::new()
        .prefix("sciproof-object-")
        .tempdir()
        .map_err(|e| Unavailable::Configuration(format!("cannot make a scratch folder: {e}")))?;
    let name = url.key.rsplit('/').next().unwrap_or("object");
    let path = dir.path().join(name);
    let fetched = download(url, version, expected, &path, progress)?;
    Ok((dir, path, fetched))
}

/// Object storage as an [`ArtifactStore`].
pub struct ObjectStorage;

impl ArtifactStore for ObjectStorage {
    fn name(&self) -> &'static str {
        "object storage"
    }
    fn holds(&self, declared: &str) -> bool {
        super::object_url::is_object_url(declared)
    }
    fn locate(&self, _base: &Path, declared: &str) -> Result<Location, String> {
        ObjectUrl::parse(declared).map(Location::Object)
    }
    fn state(
        &self,
        location: &Location,
        artifact: &Artifact,
        recorded: Option<&str>,
        remote: Option<&Remote>,
        label: &str,
        progress: &dyn Progress,
    ) -> State {
        let Location::Object(url) = location else {
            return State::unavailable(artifact.is_directory(), "not an object address".into());
        };
        let pins = remote.map(|r| r.pins.as_slice()).unwrap_or_default();
        let result = match artifact {
            Artifact::File => object_state(url, pins.first(), label, progress),
            Artifact::Directory { files, .. } => {
                prefix_state(url, files, recorded, pins, label, progress)
            }
        };
        result.unwrap_or_else(|e| State::unavailable(artifact.is_directory(), e.to_string()))
    }
}

fn pin_words(pin: &ObjectPin) -> String {
    match (&pin.version, &pin.etag) {
        (Some(v), Some(e)) => format!("version {v}, ETag {e}"),
        (Some(v), None) => format!("version {v}"),
        (None, Some(e)) => format!("ETag {e}"),
        (None, None) => "no version or ETag".into(),
    }
}

fn object_state(
    url: &ObjectUrl,
    pin: Option<&ObjectPin>,
    label: &str,
    progress: &dyn Progress,
) -> Result<State, Unavailable> {
    let store = client(url)?;
    let rt = runtime()?;
    let version = pin.and_then(|p| p.version.as_deref());
    rt.block_on(async {
        let current = head(store.as_ref(), url, &url.key).await?;
        if version.is_none() && current.is_none() {
            return Ok(State::absent(false));
        }
        progress.begin(label, current.as_ref().map_or(0, |m| m.size), Unit::Bytes);
        let fetched = fetch(store.as_ref(), url, &url.key, version, progress, None).await;
        progress.finish();
        let fetched = match fetched {
            Err(Unavailable::Absent(_)) if version.is_some() => {
                return Err(Unavailable::Absent(format!(
                    "the pinned version {} of {url} no longer exists{}",
                    version.unwrap_or_default(),
                    if current.is_some() {
                        " (the current object is not the one that was captured)"
                    } else {
                        " and there is no current object"
                    }
                )));
            }
            other => other?,
        };
        let mut state = State::present_file(fetched.sha256.clone());
        if version.is_some() {
            let current_pin = current.as_ref().map(|m| ObjectPin {
                etag: m.e_tag.clone(),
                version: m.version.clone(),
            });
            state.note = match current_pin {
                None => Some(format!(
                    "the pinned version was read; the object has since been deleted ({})",
                    pin.map(pin_words).unwrap_or_default()
                )),
                Some(now) if now.version.as_deref() != version => Some(format!(
                    "the pinned version was read; the current object differs from it ({}; pinned {})",
                    pin_words(&now),
                    pin.map(pin_words).unwrap_or_default()
                )),
                Some(_) => None,
            };
        }
        Ok(state)
    })
}

fn prefix_state(
    url: &ObjectUrl,
    files: &[FileEntry],
    recorded: Option<&str>,
    pins: &[ObjectPin],
    label: &str,
    progress: &dyn Progress,
) -> Result<State, Unavailable> {
    let store = client(url)?;
    let rt = runtime()?;
    let versioned = !pins.is_empty() && pins.iter().all(|p| p.version.is_some());
    rt.block_on(async {
        let objects = list(store.as_ref(), url).await?;
        // Versions pinned: read exactly what was captured. Otherwise: what is there now.
        let (paths, keys): (Vec<String>, Vec<(String, Option<String>)>) = if versioned {
            files
                .iter()
                .zip(pins)
                .map(|(f, p)| (f.path.clone(), (url.child_key(&f.path), p.version.clone())))
                .unzip()
        } else {
            if objects.is_empty() {
                return Ok(State::absent(true));
            }
            objects
                .iter()
                .map(|(relative, _)| (relative.clone(), (url.child_key(relative), None)))
                .unzip()
        };
        let total = if versioned {
            files.iter().map(|f| f.size).sum()
        } else {
            objects.iter().map(|(_, m)| m.size).sum()
        };
        progress.begin(&format!("{label} ({} objects)", keys.len()), total, Unit::Bytes);
        let fetched = fetch_all(store.as_ref(), url, &keys, progress).await;
        progress.finish();
        let mut entries = Vec::with_capacity(keys.len());
        for (path, result) in paths.into_iter().zip(fetched) {
            let f = result?;
            entries.push(FileEntry {
                path,
                sha256: f.sha256,
                size: f.size,
            });
        }
        let digest = tree_digest(&entries);
        let diff = (Some(digest.as_str()) != recorded).then(|| TreeDiff::between(files, &entries));
        let mut state = State::present_directory(digest, entries.len(), diff);
        if versioned {
            // A listing shows each current object's ETag (not its version): a different ETag,
            // or none, means the object was replaced or deleted after capture.
            let now: HashMap<&str, Option<&str>> = objects
                .iter()
                .map(|(p, m)| (p.as_str(), m.e_tag.as_deref()))
                .collect();
            let changed = files
                .iter()
                .zip(pins)
                .filter(|(f, p)| now.get(f.path.as_str()) != Some(&p.etag.as_deref()))
                .count();
            let added = objects
                .iter()
                .filter(|(p, _)| files.binary_search_by(|f| f.path.as_str().cmp(p)).is_err())
                .count();
            if changed + added > 0 {
                state.note = Some(format!(
                    "the pinned versions were read; below the prefix now, {changed} of the {} objects were replaced or deleted and {added} were added",
                    files.len()
                ));
            }
        }
        Ok(state)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_403_status_is_told_from_a_port_or_a_longer_number() {
        for (text, refused) in [
            ("client error with status 403 forbidden: <error>", true),
            ("http status 403", true),
            ("(403)", true),
            (
                "error performing head http://127.0.0.1:44403/b/in.txt in 457ms - http error: error sending request",
                false,
            ),
            ("http://127.0.0.1:403/b", false),
            ("took 40312 ms", false),
            ("version 1.403", false),
        ] {
            assert_eq!(super::status_403(text), refused, "{text}");
        }
    }
}
