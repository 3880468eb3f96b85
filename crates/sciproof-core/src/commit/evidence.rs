//! Operations on one evidence (a manifest, its snapshot folder and the declared outputs), under
//! its lock and its journal: moving outputs aside and restoring them (rerun, update), staging
//! and committing new evidence (capture, update), and recovering what an earlier process left.
//! See the [protocol](super) for the invariants this module keeps.

use super::atomic::{parent_of, sync_dir};
use super::failpoint;
use super::journal::{Aside, Journal, Op, Phase, Was};
use super::lock::{self, Lock, Wait};
use crate::error::{Error, Result, strerror};
use crate::interrupt::{self, Critical};
use crate::manifest::MANIFEST_SUFFIX;
use std::path::{Path, PathBuf};

/// The work folder of the evidence whose manifest file is `file_name`.
pub fn work_name(file_name: &str) -> String {
    format!("{}work-{file_name}", super::PREFIX)
}

/// Whether something (anything, a dangling link included) is at `path`.
fn lexists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Removes whatever is at `path` (a folder with its content; a link, not its target).
pub fn remove_any(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Renames `from` to `to`, creating `to`'s missing parent folders first.
fn move_to(from: &Path, to: &Path) -> std::io::Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::rename(from, to)
}

/// Where an evidence lives.
#[derive(Debug, Clone)]
struct Place {
    /// The manifest's folder (resolved).
    base: PathBuf,
    /// `NAME.sciproof.json` (or whatever the manifest file is called).
    file_name: String,
    /// `base/.sciproof-work-FILE`.
    work: PathBuf,
}

impl Place {
    fn of(manifest: &Path) -> Place {
        let resolved = crate::paths::resolve_base(manifest);
        let base = parent_of(&resolved).to_path_buf();
        let file_name = resolved
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let work = base.join(work_name(&file_name));
        Place {
            base,
            file_name,
            work,
        }
    }
    fn manifest(&self) -> PathBuf {
        self.base.join(&self.file_name)
    }
    /// `NAME.sciproof.d` for `NAME.sciproof.json`.
    fn snapshot_name(&self) -> String {
        let stem = self
            .file_name
            .strip_suffix(MANIFEST_SUFFIX)
            .unwrap_or(&self.file_name);
        crate::manifest::snapshot_dir_name(stem)
    }
    fn aside(&self, index: usize) -> PathBuf {
        self.work.join("aside").join(index.to_string())
    }
    fn io(&self, path: &Path) -> impl Fn(std::io::Error) -> Error + use<> {
        let path = path.display().to_string();
        move |e| Error::write(path.clone(), e)
    }
    fn make_work(&self) -> Result<()> {
        if !lexists(&self.work) {
            std::fs::create_dir(&self.work).map_err(self.io(&self.work))?;
            sync_dir(&self.base).map_err(self.io(&self.base))?;
        }
        Ok(())
    }
}

/// What to do with something a run produced at a declared output path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Product {
    /// Keep it in the products folder (`.sciproof-rerun-STAMP/PATH`).
    Keep,
    /// Remove it (it is identical to the original).
    Discard,
}

/// The result of putting originals back.
#[derive(Debug, Default)]
pub struct Restored {
    /// Declared outputs put back as they were.
    pub restored: Vec<String>,
    /// The products folder, when something was kept in it.
    pub products: Option<String>,
    /// What could not be done; the work folder is then kept, and each message says where the
    /// original is.
    pub failures: Vec<String>,
}

/// Puts every original back (undo, invariant 4), deciding with `decide` what happens to what
/// the run produced; removes the work folder only when everything was put back.
///
/// The first `moved` originals are known to have been moved aside by this process: one of them
/// missing from the work folder was removed by someone else (the command), which is said.
/// A recovery passes 0: a missing original may have been put back before the crash.
fn roll_back(
    place: &Place,
    journal: Option<&Journal>,
    moved: usize,
    decide: &mut dyn FnMut(usize, &Path) -> Product,
) -> Restored {
    let mut out = Restored::default();
    let mut kept_any = false;
    if let Some(j) = journal {
        for (index, aside) in j.asides.iter().enumerate() {
            let target = place.base.join(&aside.path);
            let original = place.aside(index);
            let has_original = lexists(&original);
            let kept = original
                .strip_prefix(&place.base)
                .unwrap_or(&original)
                .display();
            if let Some(folder) = crate::paths::folder_leading_outside(&place.base, &aside.path) {
                // The command replaced a folder on the way with a link out of the evidence's
                // folder: whatever is beyond it is not ours to move or remove, and the original
                // must not land there.
                out.failures.push(format!(
                    "could not restore {}: its folder {folder} now leads outside {} (the run replaced it with a link), and nothing is moved or removed through it{}",
                    aside.path,
                    place.base.display(),
                    if has_original {
                        format!(
                            "; the original is kept in {kept}: remove the link {folder}, then run `sciproof recover` to put it back"
                        )
                    } else {
                        String::new()
                    }
                ));
                continue;
            }
            if index < moved && aside.was == Was::Present && !has_original {
                // Nothing is moved to the products folder: what stands there now is the only
                // copy of anything.
                out.failures.push(format!(
                    "{}, so it cannot be put back; {}",
                    gone_message(&aside.path, &kept.to_string()),
                    if lexists(&target) {
                        format!("{} is what the run left there", aside.path)
                    } else {
                        format!("nothing stands at {} now", aside.path)
                    }
                ));
                continue;
            }
            if lexists(&target) && (has_original || aside.was == Was::Absent) {
                let product = format!("{}/{}", j.products, aside.path);
                let cleared = match decide(index, &target) {
                    Product::Keep => match crate::paths::link_on_the_way(&place.base, &product) {
                        // A products folder from an archive, with a link in it.
                        Some(link) => Err(std::io::Error::other(format!(
                            "{link} is a link, and nothing is moved through one"
                        ))),
                        None => {
                            kept_any = true;
                            move_to(&target, &place.base.join(&product))
                        }
                    },
                    Product::Discard => remove_any(&target),
                };
                failpoint("restore.product_moved");
                if let Err(e) = cleared {
                    out.failures.push(format!(
                        "could not move what the run produced at {} aside: {}{}",
                        aside.path,
                        strerror(&e),
                        if has_original {
                            format!("; the original is kept in {kept}")
                        } else {
                            String::new()
                        }
                    ));
                    continue;
                }
            }
            if has_original {
                match move_to(&original, &target) {
                    Ok(()) => out.restored.push(aside.path.clone()),
                    Err(e) => out.failures.push(format!(
                        "could not restore {}: {}; the original is kept in {kept}",
                        aside.path,
                        strerror(&e),
                    )),
                }
                failpoint("restore.original_back");
            }
        }
        let mut created: Vec<&String> = j.created_dirs.iter().collect();
        created.sort_by_key(|d| std::cmp::Reverse(d.matches('/').count()));
        for dir in created {
            // Only an empty folder of ours, never one beyond a link the run put on the way.
            if crate::paths::folder_leading_outside(&place.base, dir).is_none() {
                let _ = std::fs::remove_dir(place.base.join(dir));
            }
        }
        if kept_any && lexists(&place.base.join(&j.products)) {
            out.products = Some(j.products.clone());
        }
    }
    if out.failures.is_empty()
        && let Err(e) = remove_work(place)
    {
        out.failures.push(format!(
            "could not remove {}: {}",
            place.work.display(),
            strerror(&e)
        ));
    }
    let _ = sync_dir(&place.base);
    out
}

/// Installs the staged evidence (redo, invariant 4). Every step is decided from what exists,
/// so it can be repeated after a crash at any point.
fn roll_forward(place: &Place, journal: &Journal) -> std::io::Result<()> {
    let staged_manifest = place.work.join(&place.file_name);
    let staged_snapshots = place.work.join(place.snapshot_name());
    let old_snapshots = place.work.join("old.d");
    let live_snapshots = place.base.join(place.snapshot_name());
    if lexists(&staged_manifest) {
        let staged = lexists(&staged_snapshots);
        if lexists(&live_snapshots) && !lexists(&old_snapshots) && (staged || !journal.snapshots) {
            std::fs::rename(&live_snapshots, &old_snapshots)?;
            failpoint("commit.old_aside");
        }
        if staged {
            std::fs::rename(&staged_snapshots, &live_snapshots)?;
            failpoint("commit.snapshots_in");
        }
        std::fs::rename(&staged_manifest, place.manifest())?;
        sync_dir(&place.base)?;
        failpoint("commit.manifest_in");
    }
    if let Some(keep) = &journal.keep_old {
        // The command of an update failed: the previous evidence and outputs are kept.
        let kept_at = |path: &str| -> std::io::Result<PathBuf> {
            let rel = format!("{keep}/{path}");
            match crate::paths::link_on_the_way(&place.base, &rel) {
                Some(link) => Err(std::io::Error::other(format!(
                    "{link} is a link, and nothing is moved through one"
                ))),
                None => Ok(place.base.join(rel)),
            }
        };
        for (index, aside) in journal.asides.iter().enumerate() {
            let original = place.aside(index);
            if lexists(&original) {
                move_to(&original, &kept_at(&aside.path)?)?;
            }
        }
        if lexists(&old_snapshots) {
            move_to(&old_snapshots, &kept_at(&place.snapshot_name())?)?;
        }
        let old_manifest = place.work.join("old.json");
        if lexists(&old_manifest) {
            move_to(&old_manifest, &kept_at(&place.file_name)?)?;
        }
        sync_dir(&place.base)?;
        failpoint("commit.kept_old");
    }
    remove_work(place)
}

/// Whether `path` is a folder itself, not a link to one.
fn real_folder(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// What is said of an original that this process moved aside to `kept` (shown relative to the
/// evidence's folder) and that is no longer there.
fn gone_message(path: &str, kept: &str) -> String {
    format!(
        "the original of {path} is gone: something removed {kept} while the command ran (a `git clean -x`, an `rm -rf .sciproof-*`?)"
    )
}

/// Removes the work folder: its journal last, so a crash meanwhile leaves a journal that can
/// still be followed, or no journal and nothing that needs one.
fn remove_work(place: &Place) -> std::io::Result<()> {
    if lexists(&place.work) && !real_folder(&place.work) {
        // Its entries would be another folder's: never emptied.
        return Err(std::io::Error::other(
            "it is not a folder but a link or a file",
        ));
    }
    let entries = match std::fs::read_dir(&place.work) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        if entry.file_name() != "journal.json" {
            remove_any(&entry.path())?;
        }
    }
    failpoint("work.emptied");
    remove_any(&place.work.join("journal.json"))?;
    std::fs::remove_dir(&place.work)?;
    sync_dir(&place.base)
}

fn by_whom(journal: &Journal) -> String {
    if journal.started_at.is_empty() {
        format!("process {}", journal.pid)
    } else {
        format!("process {}, started {}", journal.pid, journal.started_at)
    }
}

/// Completes or undoes what an earlier process left in the work folder of `place`, whose lock
/// the caller holds; the one-line account of what was done, if anything was.
fn recover_locked(place: &Place) -> Result<Option<String>> {
    remove_stale_temporaries(place);
    if !lexists(&place.work) {
        return Ok(None);
    }
    let shown = crate::escape::terminal::safe_text(&place.file_name, 200);
    let work_shown = crate::escape::terminal::safe_text(&work_name(&place.file_name), 200);
    // sciproof makes its work folder and the folder of originals in it itself: a link in their
    // place (from an archive someone sent) would make a recovery move or remove files wherever
    // it leads.
    for folder in [place.work.clone(), place.work.join("aside")] {
        if lexists(&folder) && !real_folder(&folder) {
            let name = folder.strip_prefix(&place.base).unwrap_or(&folder);
            return Err(Error::Manifest(format!(
                "{} is not a folder but a link or a file, so it is not an interrupted operation of sciproof on {shown}; nothing was followed or changed: remove it",
                crate::escape::terminal::safe_text(&name.to_string_lossy(), 200)
            )));
        }
    }
    let journal = Journal::read(&place.work).map_err(|reason| {
        Error::Manifest(format!(
            "{work_shown} holds an interrupted operation on {shown} whose journal cannot be read ({reason}); it was left as it is: look inside (your originals are under aside/), move back what you need, then remove the folder"
        ))
    })?;
    let _section = Critical::enter_anyway();
    match journal {
        Some(j) if j.phase == Phase::Commit => {
            roll_forward(place, &j).map_err(|e| {
                Error::Manifest(format!(
                    "could not complete the interrupted {} of {shown} ({}): {}; the new evidence is in {work_shown}",
                    j.op.as_str(),
                    by_whom(&j),
                    strerror(&e)
                ))
            })?;
            let kept = j
                .keep_old
                .as_ref()
                .map(|k| format!("; the previous evidence and outputs are in {k}/"))
                .unwrap_or_default();
            Ok(Some(format!(
                "completed an interrupted {} of {shown} ({}): the new evidence is in place{kept}",
                j.op.as_str(),
                by_whom(&j)
            )))
        }
        journal => {
            let restored = roll_back(place, journal.as_ref(), 0, &mut |_, _| Product::Keep);
            if !restored.failures.is_empty() {
                return Err(Error::Manifest(format!(
                    "could not undo an interrupted operation on {shown}: {}",
                    restored.failures.join("; ")
                )));
            }
            let Some(j) = journal else {
                return Ok(Some(format!(
                    "removed the unfinished files of an interrupted capture of {shown}; the evidence is as it was"
                )));
            };
            let mut message = format!(
                "undid an interrupted {} of {shown} ({}): ",
                j.op.as_str(),
                by_whom(&j)
            );
            if restored.restored.is_empty() {
                message.push_str("nothing had been moved; the evidence is as it was");
            } else {
                message.push_str(&format!(
                    "put back {} as {} before",
                    restored.restored.join(", "),
                    if restored.restored.len() == 1 {
                        "it was"
                    } else {
                        "they were"
                    }
                ));
            }
            if let Some(products) = restored.products {
                message.push_str(&format!("; what it had produced is in {products}/"));
            }
            Ok(Some(message))
        }
    }
}

/// Removes temporary files of the manifest and its signature whose writer died.
fn remove_stale_temporaries(place: &Place) {
    let prefixes = [
        format!("{}tmp-{}-", super::PREFIX, place.file_name),
        format!("{}tmp-{}.sig-", super::PREFIX, place.file_name),
    ];
    let Ok(entries) = std::fs::read_dir(&place.base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if prefixes.iter().any(|p| name.starts_with(p)) {
            remove_if_dead(&entry.path());
        }
    }
}

/// Removes a temporary file unless its writer still holds its lock. Only a regular file of
/// that name is looked at, opened without following a link or waiting: a FIFO planted under
/// the name would otherwise block the open for ever.
fn remove_if_dead(path: &Path) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY)
        .open(path)
    {
        Ok(file)
            if file.metadata().is_ok_and(|m| m.is_file()) && super::atomic::try_flock(&file) =>
        {
            std::fs::remove_file(path).is_ok()
        }
        _ => false,
    }
}

/// Whether a writer holds (or held, before it died) the evidence of `place`, or left work.
fn busy(place: &Place) -> bool {
    lexists(&place.work) || lexists(&lock::lock_path(&place.manifest())) || has_temporaries(place)
}

/// Settles what another process is doing or left undone for the manifest at `manifest`:
/// nothing to do is the common case and costs a few `lstat`s; otherwise the lock is taken
/// (waiting for a live writer as `wait` says) and an interrupted operation is completed or
/// undone. Returns the one-line account.
pub fn settle(manifest: &Path, wait: Wait) -> Result<Option<String>> {
    let place = Place::of(manifest);
    if !busy(&place) {
        return Ok(None);
    }
    let _lock = lock::lock(&place.manifest(), "recover", wait)?;
    recover_locked(&place)
}

/// [`settle`] for a caller that holds the lock of `manifest` already.
pub fn settle_locked(manifest: &Path) -> Result<Option<String>> {
    recover_locked(&Place::of(manifest))
}

fn has_temporaries(place: &Place) -> bool {
    let prefix = format!("{}tmp-{}", super::PREFIX, place.file_name);
    std::fs::read_dir(&place.base).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(&prefix))
    })
}

/// Whether an operation on the manifest at `manifest` is under way or was interrupted (its work
/// folder or its lock file exists).
pub fn in_progress(manifest: &Path) -> bool {
    busy(&Place::of(manifest))
}

/// `sciproof recover DIR`: settles every interrupted operation in `dir` (and below it when
/// `recursive`, not following links), removes temporary files and lock files whose writer
/// died. Returns one line per thing done.
pub fn recover_folder(dir: &Path, recursive: bool, wait: Wait) -> Result<Vec<String>> {
    let mut done = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let entries = std::fs::read_dir(&folder).map_err(|e| {
            Error::Folder(format!(
                "cannot read {}: {}",
                folder.display(),
                strerror(&e)
            ))
        })?;
        let mut names: Vec<(String, std::fs::FileType)> = entries
            .flatten()
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.file_type().ok()?)))
            .collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind) in &names {
            let path = folder.join(name);
            let shown = || crate::escape::terminal::safe_text(&path.display().to_string(), 300);
            if let Some(file) = name.strip_prefix(&work_name("")) {
                // Not only folders: a link or file by that name is refused by name, not
                // skipped in silence.
                if let Some(message) = settle(&folder.join(file), wait)? {
                    done.push(message);
                }
            } else if super::atomic::is_temporary(name) {
                if kind.is_file() && remove_if_dead(&path) {
                    done.push(format!(
                        "removed {}, a file whose writer was interrupted",
                        shown()
                    ));
                }
            } else if kind.is_dir() && recursive && name != ".git" {
                stack.push(path);
            }
        }
        for (name, kind) in &names {
            if lock::is_lock_file(name) && kind.is_file() {
                lock::remove_stale(&folder.join(name));
            }
        }
    }
    Ok(done)
}

/// An operation on one evidence, holding its lock. Dropped unfinished, it undoes what it did.
pub struct Transaction {
    place: Place,
    journal: Journal,
    /// Whether a journal was written (the work folder then exists).
    journaled: bool,
    /// How many of the journal's originals this process has moved aside (in order).
    moved: usize,
    finished: bool,
    _lock: Lock,
    _section: Critical,
}

impl Transaction {
    /// Locks the evidence of the manifest at `manifest` for `op` and settles what an earlier
    /// process left (the account of that is returned). Refused when a signal is pending.
    pub fn open(manifest: &Path, op: Op, wait: Wait) -> Result<(Transaction, Option<String>)> {
        let section = Critical::enter().map_err(Error::interrupted)?;
        let place = Place::of(manifest);
        let lock = lock::lock(&place.manifest(), op.as_str(), wait)?;
        failpoint("lock.acquired");
        let recovered = recover_locked(&place)?;
        let stamp = crate::timestamp::format_stamp(crate::timestamp::now_unix());
        let mut products = format!(
            "{}{}-{stamp}",
            super::PREFIX,
            match op {
                Op::Update => "update",
                _ => "rerun",
            }
        );
        let mut n = 1;
        while lexists(&place.base.join(&products)) {
            products = format!(
                "{}{}-{stamp}-{n}",
                super::PREFIX,
                match op {
                    Op::Update => "update",
                    _ => "rerun",
                }
            );
            n += 1;
        }
        Ok((
            Transaction {
                journal: Journal {
                    op,
                    phase: Phase::Aside,
                    pid: std::process::id(),
                    started_at: crate::timestamp::now_utc(),
                    asides: Vec::new(),
                    created_dirs: Vec::new(),
                    products,
                    snapshots: false,
                    keep_old: None,
                },
                place,
                journaled: false,
                moved: 0,
                finished: false,
                _lock: lock,
                _section: section,
            },
            recovered,
        ))
    }

    /// The manifest's folder.
    pub fn base(&self) -> &Path {
        &self.place.base
    }

    /// The folder (in the manifest's folder) that receives what a run produced.
    pub fn products_name(&self) -> &str {
        &self.journal.products
    }

    /// Moves whatever stands at each declared output path (a file, a link, a folder, a FIFO, a
    /// socket: never followed) into the work folder, after a journal listing them is durable.
    /// Paths must be safe manifest paths inside the folder (the caller checked them).
    pub fn move_aside(&mut self, outputs: &[String]) -> Result<()> {
        interrupt::check().map_err(Error::interrupted)?;
        let mut created = Vec::new();
        self.journal.asides = outputs
            .iter()
            .map(|path| {
                for ancestor in Path::new(path).ancestors().skip(1) {
                    let text = ancestor.to_string_lossy().into_owned();
                    if !text.is_empty()
                        && !lexists(&self.place.base.join(ancestor))
                        && !created.contains(&text)
                    {
                        created.push(text);
                    }
                }
                Aside {
                    path: path.clone(),
                    was: if lexists(&self.place.base.join(path)) {
                        Was::Present
                    } else {
                        Was::Absent
                    },
                }
            })
            .collect();
        self.journal.created_dirs = created;
        self.place.make_work()?;
        let aside_dir = self.place.work.join("aside");
        std::fs::create_dir_all(&aside_dir).map_err(self.place.io(&aside_dir))?;
        self.journal.write(&self.place.work)?;
        self.journaled = true;
        failpoint("aside.journal");
        for (index, aside) in self.journal.asides.iter().enumerate() {
            if aside.was == Was::Present {
                let target = self.place.base.join(&aside.path);
                std::fs::rename(&target, self.place.aside(index))
                    .map_err(self.place.io(&target))?;
                self.moved = index + 1;
                failpoint("aside.moved");
            }
        }
        sync_dir(&aside_dir).map_err(self.place.io(&aside_dir))?;
        Ok(())
    }

    /// What is said of each original this process moved aside that is no longer in the work
    /// folder (the command removed it).
    pub fn gone(&self) -> Vec<String> {
        self.journal
            .asides
            .iter()
            .enumerate()
            .take(self.moved)
            .filter(|(index, aside)| {
                aside.was == Was::Present && !lexists(&self.place.aside(*index))
            })
            .map(|(index, aside)| {
                let original = self.place.aside(index);
                let kept = original.strip_prefix(&self.place.base).unwrap_or(&original);
                gone_message(&aside.path, &kept.display().to_string())
            })
            .collect()
    }

    /// Where the original of declared output `index` is while it is aside (`None` when nothing
    /// stood there).
    pub fn original(&self, index: usize) -> Option<PathBuf> {
        let aside = self.journal.asides.get(index)?;
        (aside.was == Was::Present).then(|| self.place.aside(index))
    }

    /// Puts every original back; `decide` says what happens to what the run produced at each
    /// path. The lock is released when `self` is dropped.
    pub fn restore(mut self, decide: &mut dyn FnMut(usize, &Path) -> Product) -> Restored {
        self.finished = true;
        let journal = self.journaled.then_some(&self.journal);
        roll_back(&self.place, journal, self.moved, decide)
    }

    /// The folder in which new snapshots are staged (created on first use).
    pub fn staged_snapshots(&mut self) -> Result<PathBuf> {
        self.place.make_work()?;
        let dir = self.place.work.join(self.place.snapshot_name());
        if !lexists(&dir) {
            std::fs::create_dir(&dir).map_err(self.place.io(&dir))?;
        }
        Ok(dir)
    }

    /// Copies `source` into the staged snapshot folder as `name`, durably.
    pub fn stage_snapshot(&mut self, source: &Path, name: &str) -> Result<PathBuf> {
        let target = self.staged_snapshots()?.join(name);
        let io = self.place.io(&target);
        let (mut from, _) = crate::untrusted::open(
            source,
            crate::untrusted::Kind::NumericJson,
            crate::untrusted::Links::Follow,
        )
        .map_err(|e| Error::Capture(e.to_string()))?;
        let mut to = std::fs::File::create(&target).map_err(&io)?;
        std::io::copy(&mut from, &mut to).map_err(&io)?;
        to.sync_all().map_err(&io)?;
        failpoint("stage.snapshot");
        Ok(target)
    }

    /// Writes a directory's file list into the staged snapshot folder, durably; `path` is the
    /// manifest's path of the list (`NAME.sciproof.d/lists/<digest>.txt`).
    pub fn stage_file_list(
        &mut self,
        path: &str,
        files: &[crate::tree::FileEntry],
    ) -> Result<PathBuf> {
        let inside = path
            .split_once('/')
            .map(|(_, rest)| rest)
            .filter(|rest| !rest.is_empty())
            .ok_or_else(|| Error::Capture(format!("internal error: file list path {path}")))?;
        let target = self.staged_snapshots()?.join(inside);
        let io = self.place.io(&target);
        if let Some(folder) = target.parent() {
            std::fs::create_dir_all(folder).map_err(self.place.io(folder))?;
        }
        let mut to = std::fs::File::create(&target).map_err(&io)?;
        crate::manifest::file_list::write_list(&mut to, files).map_err(&io)?;
        to.sync_all().map_err(&io)?;
        if let Some(folder) = target.parent() {
            sync_dir(folder).map_err(self.place.io(folder))?;
        }
        failpoint("stage.file_list");
        Ok(target)
    }

    /// A folder `name` for the operation's own working copies, inside the work folder: it goes
    /// with the work folder when the originals are put back, or when the next sciproof puts
    /// them back after a crash, so a killed operation leaves nothing behind (a folder in the
    /// system's temporary directory would stay there).
    pub fn scratch(&mut self, name: &str) -> Result<PathBuf> {
        self.place.make_work()?;
        let dir = self.place.work.join(name);
        if !lexists(&dir) {
            std::fs::create_dir(&dir).map_err(self.place.io(&dir))?;
        }
        Ok(dir)
    }

    /// The staged folder the new manifest and snapshots will be installed from: a manifest's
    /// relative snapshot paths resolve there exactly as they will in the live folder.
    pub fn staging_base(&mut self) -> Result<PathBuf> {
        self.place.make_work()?;
        Ok(self.place.work.clone())
    }

    /// Commits: writes the staged manifest, makes everything durable, and — unless a signal
    /// arrived before this point, which undoes everything instead — writes the journal in
    /// state `commit` and installs the new evidence. `keep_old` (an update whose command
    /// failed) keeps the previous manifest (`old_manifest`), snapshots and outputs in a folder
    /// instead of removing them; its name is returned.
    pub fn commit(
        mut self,
        manifest_text: &str,
        old_manifest: Option<&[u8]>,
        keep_old: bool,
    ) -> Result<Option<String>> {
        let single_rename = !self.journaled
            && !lexists(&self.place.work)
            && !lexists(&self.place.base.join(self.place.snapshot_name()));
        if single_rename {
            // Nothing staged, nothing aside, no snapshot folder to replace: the commit is one
            // atomic replacement of the manifest, which needs no journal.
            self.finished = true;
            return super::atomic::write_file(&self.place.manifest(), manifest_text.as_bytes())
                .map(|()| None);
        }
        let work = self.staging_base()?;
        let staged_manifest = work.join(&self.place.file_name);
        let write = |path: &Path, bytes: &[u8]| -> Result<()> {
            let io = self.place.io(path);
            let mut file = std::fs::File::create(path).map_err(&io)?;
            std::io::Write::write_all(&mut file, bytes).map_err(&io)?;
            file.sync_all().map_err(&io)
        };
        write(&staged_manifest, manifest_text.as_bytes())?;
        if keep_old && let Some(old) = old_manifest {
            write(&work.join("old.json"), old)?;
        }
        let staged_snapshots = work.join(self.place.snapshot_name());
        self.journal.snapshots = lexists(&staged_snapshots);
        if self.journal.snapshots {
            sync_dir(&staged_snapshots).map_err(self.place.io(&staged_snapshots))?;
        }
        sync_dir(&work).map_err(self.place.io(&work))?;
        failpoint("commit.staged");
        if let Some(signal) = interrupt::pending() {
            let restored = self.undo();
            return Err(Error::Interrupted {
                signal,
                detail: describe_undo(&restored),
            });
        }
        // The commit point.
        let _finish = Critical::enter_anyway();
        self.journal.phase = Phase::Commit;
        if keep_old {
            let stamp = crate::timestamp::format_stamp(crate::timestamp::now_unix());
            let mut name = format!("{}update-{stamp}-previous", super::PREFIX);
            let mut n = 1;
            while lexists(&self.place.base.join(&name)) {
                name = format!("{}update-{stamp}-previous-{n}", super::PREFIX);
                n += 1;
            }
            self.journal.keep_old = Some(name);
        }
        self.journal.write(&work)?;
        self.journaled = true;
        self.finished = true;
        failpoint("commit.journal");
        roll_forward(&self.place, &self.journal).map_err(|e| {
            Error::Write {
                path: self.place.manifest().display().to_string(),
                reason: format!(
                    "{} while installing the new evidence; it is complete in {}, and the next sciproof command on this manifest (or `sciproof recover`) installs it",
                    strerror(&e),
                    work_name(&self.place.file_name)
                ),
                source: Some(e),
            }
        })?;
        Ok(self.journal.keep_old.clone())
    }

    /// Undoes everything (keeping what a run produced in the products folder).
    pub fn undo(&mut self) -> Restored {
        self.finished = true;
        let journal = self.journaled.then_some(&self.journal);
        roll_back(&self.place, journal, self.moved, &mut |_, _| Product::Keep)
    }
}

/// "nothing was changed", or what was put back, where the products are and what could not be
/// put back (and where its original is kept).
pub fn describe_undo(restored: &Restored) -> String {
    // "nothing was changed" only when everything went back.
    let mut text = if restored.failures.is_empty() {
        "nothing was changed".to_string()
    } else {
        "not everything could be put back".to_string()
    };
    if !restored.restored.is_empty() {
        text.push_str(&format!(
            ": {} {} put back as before",
            restored.restored.join(", "),
            if restored.restored.len() == 1 {
                "was"
            } else {
                "were"
            }
        ));
    }
    if let Some(p) = &restored.products {
        text.push_str(&format!("; what the command had produced is in {p}/"));
    }
    if !restored.failures.is_empty() {
        text.push_str(&format!("; {}", restored.failures.join("; ")));
    }
    text
}

impl Drop for Transaction {
    fn drop(&mut self) {
        if !self.finished {
            let restored = self.undo();
            for failure in restored.failures {
                eprintln!(
                    "warning: {}",
                    crate::escape::terminal::safe_text(&failure, 2000)
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn aside_and_restore_keep_every_kind_of_entry_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        write(&base.join("out/a.txt"), "original a");
        write(&base.join("victim.txt"), "do not touch");
        std::os::unix::fs::symlink(base.join("victim.txt"), base.join("link.txt")).unwrap();
        std::fs::create_dir(base.join("folder")).unwrap();
        let manifest = base.join("run.sciproof.json");
        let outputs: Vec<String> = ["out/a.txt", "link.txt", "folder", "new/b.txt"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (mut ev, recovered) = Transaction::open(&manifest, Op::Rerun, Wait::No).unwrap();
        assert!(recovered.is_none());
        ev.move_aside(&outputs).unwrap();
        assert!(!lexists(&base.join("out/a.txt")));
        assert!(!lexists(&base.join("link.txt")));
        // the "run" writes through nothing and produces new files
        write(&base.join("out/a.txt"), "rerun a");
        write(&base.join("link.txt"), "rerun link");
        write(&base.join("new/b.txt"), "rerun b");
        let products = ev.products_name().to_string();
        let restored = ev.restore(&mut |_, _| Product::Keep);
        assert!(restored.failures.is_empty(), "{:?}", restored.failures);
        assert_eq!(
            std::fs::read_to_string(base.join("out/a.txt")).unwrap(),
            "original a"
        );
        assert!(
            std::fs::symlink_metadata(base.join("link.txt"))
                .unwrap()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(base.join("victim.txt")).unwrap(),
            "do not touch"
        );
        assert!(base.join("folder").is_dir());
        assert!(
            !lexists(&base.join("new")),
            "a folder the run created is removed"
        );
        assert_eq!(restored.products.as_deref(), Some(products.as_str()));
        assert_eq!(
            std::fs::read_to_string(base.join(&products).join("new/b.txt")).unwrap(),
            "rerun b"
        );
        assert!(!lexists(&base.join(work_name("run.sciproof.json"))));
        assert!(!lexists(&lock::lock_path(&manifest)));
    }

    #[test]
    fn a_crash_after_the_move_is_undone_by_the_next_settle() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        write(&base.join("out.txt"), "original");
        let manifest = base.join("run.sciproof.json");
        let (mut ev, _) = Transaction::open(&manifest, Op::Rerun, Wait::No).unwrap();
        ev.move_aside(&["out.txt".to_string()]).unwrap();
        write(&base.join("out.txt"), "half-written by the rerun");
        ev.finished = true; // as if the process died here
        drop(ev);
        let message = settle(&manifest, Wait::No).unwrap().unwrap();
        assert!(
            message.starts_with("undid an interrupted rerun of run.sciproof.json"),
            "{message}"
        );
        assert!(
            message.contains("put back out.txt as it was before"),
            "{message}"
        );
        assert_eq!(
            std::fs::read_to_string(base.join("out.txt")).unwrap(),
            "original"
        );
        assert!(settle(&manifest, Wait::No).unwrap().is_none());
    }

    #[test]
    fn a_commit_installs_manifest_and_snapshots_and_a_crash_after_its_journal_is_completed() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        let manifest = base.join("run.sciproof.json");
        write(&manifest, "old manifest");
        write(&base.join("run.sciproof.d/0-m.json"), "old snapshot");
        write(&base.join("m.json"), "new snapshot");
        let (mut ev, _) = Transaction::open(&manifest, Op::Capture, Wait::No).unwrap();
        ev.stage_snapshot(&base.join("m.json"), "0-m.json").unwrap();
        assert!(ev.commit("new manifest", None, false).unwrap().is_none());
        assert_eq!(std::fs::read_to_string(&manifest).unwrap(), "new manifest");
        assert_eq!(
            std::fs::read_to_string(base.join("run.sciproof.d/0-m.json")).unwrap(),
            "new snapshot"
        );
        // A journal in state commit, left by a process that died before installing anything.
        let place = Place::of(&manifest);
        std::fs::create_dir_all(place.work.join("run.sciproof.d")).unwrap();
        write(
            &place.work.join("run.sciproof.d/0-m.json"),
            "newer snapshot",
        );
        write(&place.work.join("run.sciproof.json"), "newer manifest");
        let journal = Journal {
            op: Op::Update,
            phase: Phase::Commit,
            pid: 1,
            started_at: String::new(),
            asides: vec![],
            created_dirs: vec![],
            products: ".sciproof-update-x".into(),
            snapshots: true,
            keep_old: None,
        };
        journal.write(&place.work).unwrap();
        let message = settle(&manifest, Wait::No).unwrap().unwrap();
        assert!(
            message.starts_with("completed an interrupted update"),
            "{message}"
        );
        assert_eq!(
            std::fs::read_to_string(&manifest).unwrap(),
            "newer manifest"
        );
        assert_eq!(
            std::fs::read_to_string(base.join("run.sciproof.d/0-m.json")).unwrap(),
            "newer snapshot"
        );
        assert!(!lexists(&place.work));
    }
}
