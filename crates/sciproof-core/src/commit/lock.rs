//! One writer at a time (invariant 1 of the [protocol](super)): an advisory `flock` on
//! `.sciproof-lock-FILE` beside the file it protects.
//!
//! The lock file holds the holder's process ID and operation, for the message a waiting
//! process prints. It is removed when the lock is released (removed while still held, and an
//! acquirer checks that the file it locked is still the one at the path, so removal never lets
//! two processes hold "the" lock). A holder killed with SIGKILL leaves the file behind; the
//! kernel has released its lock, so the next acquirer simply takes it.

use crate::error::{Error, Result, strerror};
use crate::interrupt;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What to do when another process holds the lock.
#[derive(Clone, Copy)]
pub enum Wait<'a> {
    /// Refuse at once (`--no-wait`): [`Error::Busy`].
    No,
    /// Wait; the function is called once with a message when waiting begins.
    Yes(&'a dyn Fn(&str)),
}

/// A held lock; released (and its file removed) when dropped.
pub struct Lock {
    path: PathBuf,
    file: Option<File>,
}

/// `.sciproof-lock-NAME` beside `target`.
pub fn lock_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    super::atomic::parent_of(target).join(format!("{}lock-{name}", super::PREFIX))
}

/// Whether `name` is a lock file.
pub fn is_lock_file(name: &str) -> bool {
    name.starts_with(&format!("{}lock-", super::PREFIX))
}

fn open(path: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
        .open(path)
}

fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Locks `target` (a manifest, a claim graph) for the operation `what` (`capture`, `rerun`,
/// ...), waiting or not as `wait` says. A signal while waiting ends the wait with
/// [`Error::Interrupted`].
pub fn lock(target: &Path, what: &str, wait: Wait) -> Result<Lock> {
    let path = lock_path(target);
    let io = |e: std::io::Error| Error::Write {
        path: path.display().to_string(),
        reason: format!(
            "{} (the lock file of {}; remove it if it is not sciproof's)",
            strerror(&e),
            target.display()
        ),
        source: Some(e),
    };
    let mut told = false;
    let mut polls = 0u32;
    loop {
        let mut file = open(&path).map_err(io)?;
        if !file.metadata().map_err(io)?.is_file() {
            return Err(io(std::io::Error::other("not a regular file")));
        }
        if super::atomic::try_flock(&file) {
            if !same_file(&file, &path) {
                continue; // removed by its previous holder meanwhile: lock the new one
            }
            let _ = file.set_len(0);
            let _ = file.write_all(format!("{} {what}\n", std::process::id()).as_bytes());
            interrupt::remove_on_exit(&path);
            return Ok(Lock {
                path,
                file: Some(file),
            });
        }
        let mut holder = String::new();
        let _ = file.rewind();
        let _ = file.take(200).read_to_string(&mut holder);
        let holder = match holder.trim().split_once(' ') {
            Some((pid, op)) => format!(
                "process {pid}, {}",
                crate::escape::terminal::safe_text(op, 40)
            ),
            None => "another process".to_string(),
        };
        match wait {
            Wait::No => {
                return Err(Error::Busy(format!(
                    "{} is in use by another sciproof ({holder}); try again when it has finished, or leave out --no-wait to wait for it",
                    target.display()
                )));
            }
            Wait::Yes(notify) => {
                if !told {
                    notify(&format!(
                        "waiting for another sciproof ({holder}) to finish with {}...",
                        target.display()
                    ));
                    told = true;
                }
                if let Some(signal) = interrupt::pending() {
                    return Err(Error::interrupted(signal));
                }
                // Poll often at first: a writer that releases the lock is often followed by
                // another that takes it within milliseconds.
                polls += 1;
                std::thread::sleep(Duration::from_millis(if polls < 400 { 5 } else { 50 }));
            }
        }
    }
}

impl Lock {
    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            interrupt::forget_on_exit(&self.path);
            if same_file(&file, &self.path) {
                let _ = std::fs::remove_file(&self.path);
            }
            // SAFETY: unlock a descriptor we own (closing would release it too).
            unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
        }
    }
}

/// Removes a lock file left by a holder that died (nobody holds it). Returns whether it was
/// removed.
pub fn remove_stale(path: &Path) -> bool {
    let Ok(file) = open(path) else {
        return false;
    };
    if super::atomic::try_flock(&file) && same_file(&file, path) {
        return std::fs::remove_file(path).is_ok();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_locker_is_refused_without_waiting_and_the_file_goes_with_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("run.sciproof.json");
        let first = lock(&target, "capture", Wait::No).unwrap();
        assert!(lock_path(&target).is_file());
        let err = lock(&target, "update", Wait::No).err().unwrap();
        let message = err.to_string();
        assert!(
            message.contains(&format!("process {}, capture", std::process::id())),
            "{message}"
        );
        assert!(matches!(err, Error::Busy(_)));
        drop(first);
        assert!(!lock_path(&target).exists());
        let again = lock(&target, "sign", Wait::No).unwrap();
        drop(again);
    }

    #[test]
    fn a_stale_lock_file_is_taken_over_and_a_symlink_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("claims.json");
        std::fs::write(lock_path(&target), "99999 capture\n").unwrap();
        let held = lock(&target, "graph", Wait::No).unwrap();
        drop(held);
        std::os::unix::fs::symlink("/etc/passwd", lock_path(&target)).unwrap();
        let err = lock(&target, "graph", Wait::No).err().unwrap();
        assert!(err.to_string().contains("lock file"), "{err}");
    }
}
