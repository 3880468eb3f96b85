//! Replacing one file atomically and durably (invariant 2 of the [protocol](super)).

use crate::error::{Error, Result};
use crate::interrupt::Critical;
use std::fs::File;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// `fsync` of a folder, so that the names created, renamed or removed in it are on disk.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    })?
    .sync_all()
}

/// The folder that holds `path` (`.` for a bare file name).
pub fn parent_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The name of a temporary file for `target` (`.sciproof-tmp-NAME-PID-N`) in its folder.
fn temporary_for(target: &Path, n: u64) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    parent_of(target).join(format!(
        "{}tmp-{name}-{}-{n}",
        super::PREFIX,
        std::process::id()
    ))
}

/// Whether `name` is a temporary file of [`write_file`].
pub fn is_temporary(name: &str) -> bool {
    name.starts_with(&format!("{}tmp-", super::PREFIX))
}

/// Takes an exclusive `flock` of `file` without waiting; whether it was free.
pub fn try_flock(file: &File) -> bool {
    // SAFETY: flock on a descriptor we own.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// Bytes after which a file being written is handed to the disk ([`Writeback`]).
const WRITEBACK_STEP: u64 = 16 << 20;

/// A new file that asks the kernel to start writing each [`WRITEBACK_STEP`] bytes to disk as
/// soon as they are written (`sync_file_range`, on Linux), so that the disk works while the
/// rest is produced and the closing `fsync` of a large file waits for its last piece, not for
/// all of it. The request only starts the writing: the `fsync` is still what makes the file
/// durable.
struct Writeback {
    file: File,
    steps: super::steps::Steps,
}

impl Writeback {
    fn new(file: File) -> Writeback {
        Writeback {
            file,
            steps: super::steps::Steps::new(WRITEBACK_STEP),
        }
    }
}

impl Write for Writeback {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        if let Some(range) = self.steps.advance(n) {
            start_writing(&self.file, range);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Asks the kernel to start writing the range (offset, length) of `file` to disk.
#[cfg(target_os = "linux")]
fn start_writing(file: &File, (offset, len): (u64, u64)) {
    // SAFETY: a request about a range of a descriptor we own; its failure only means the
    // writing starts at the fsync instead.
    unsafe {
        libc::sync_file_range(
            file.as_raw_fd(),
            offset as libc::off64_t,
            len as libc::off64_t,
            libc::SYNC_FILE_RANGE_WRITE,
        );
    }
}

/// (elsewhere the writing starts at the fsync)
#[cfg(not(target_os = "linux"))]
fn start_writing(_: &File, _: (u64, u64)) {}

/// Writes `bytes` to `path` atomically (see [`write_file_with`]).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file_with(path, &mut |w| w.write_all(bytes))
}

/// Replaces `path` with what `fill` writes, atomically and durably: a new file beside it
/// (created exclusively and locked, so [`super::evidence::recover_folder`] can tell a live
/// writer's file from a dead one's), `fsync`ed, renamed over `path`, and the folder `fsync`ed.
/// On any failure (a full disk, a signal before the rename) `path` is as it was and the
/// temporary file is removed. Whatever stood at `path` is replaced, never written through.
pub fn write_file_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let _section = Critical::enter().map_err(Error::interrupted)?;
    let write_error = |e: std::io::Error| Error::write(path.display(), e);
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(Error::Write {
            path: path.display().to_string(),
            reason: "it is a directory".into(),
            source: None,
        });
    }
    let (tmp_path, file) = loop {
        let candidate = temporary_for(path, COUNTER.fetch_add(1, Ordering::Relaxed));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(f) => break (candidate, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(write_error(e)),
        }
    };
    try_flock(&file);
    // (a large file is written on a thread of its own while `fill` produces the rest)
    let written = std::thread::scope(|scope| {
        let mut behind = super::write_behind::WriteBehind::new(scope, Writeback::new(file));
        fill(&mut behind)?;
        behind.finish()
    })
    .and_then(|w| {
        w.file.sync_all()?;
        super::failpoint("atomic.synced");
        if let Some(signal) = crate::interrupt::pending() {
            return Err(std::io::Error::other(signal.to_string()));
        }
        std::fs::rename(&tmp_path, path)
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp_path);
        if let Some(signal) = crate::interrupt::pending() {
            return Err(Error::Interrupted {
                signal,
                detail: format!("{} was not changed", path.display()),
            });
        }
        return Err(write_error(e));
    }
    super::failpoint("atomic.renamed");
    sync_dir(parent_of(path)).map_err(write_error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_file_handed_to_the_disk_in_steps_is_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("large.bin");
        let piece: Vec<u8> = (0..=255u8).cycle().take(1_000_003).collect();
        let pieces = (2 * WRITEBACK_STEP as usize) / piece.len() + 3;
        write_file_with(&path, &mut |w| {
            for _ in 0..pieces {
                w.write_all(&piece)?;
            }
            Ok(())
        })
        .unwrap();
        let back = std::fs::read(&path).unwrap();
        assert_eq!(back.len(), piece.len() * pieces);
        assert!(back.chunks(piece.len()).all(|c| c == piece.as_slice()));
    }

    #[test]
    fn replaces_a_file_a_symlink_and_a_fifo_without_following_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("out.json");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        write_file(&link, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_file());
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "new");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !is_temporary(n)), "{names:?}");
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let err = write_file(&sub, b"x").unwrap_err();
        assert!(err.to_string().contains("it is a directory"), "{err}");
    }

    #[test]
    fn a_failed_fill_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("report.json");
        std::fs::write(&target, "old").unwrap();
        let err = write_file_with(&target, &mut |w| {
            w.write_all(b"partial")?;
            Err(std::io::Error::from_raw_os_error(libc::ENOSPC))
        })
        .unwrap_err();
        assert!(err.to_string().contains("No space left on device"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_fill_that_fails_after_pieces_went_to_the_writing_thread_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("graph.json");
        std::fs::write(&target, "old").unwrap();
        let piece = vec![b'x'; 3 << 20];
        let err = write_file_with(&target, &mut |w| {
            w.write_all(&piece)?;
            w.write_all(&piece)?;
            Err(std::io::Error::from_raw_os_error(libc::ENOSPC))
        })
        .unwrap_err();
        assert!(err.to_string().contains("No space left on device"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
