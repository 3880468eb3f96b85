//! The one way sciproof reads a file it did not just write: bounded, never blocking, never
//! mistaking a special file for data.
//!
//! [`open`] opens with `O_NONBLOCK` (a FIFO cannot make the open wait for a writer) and, where a
//! link must not be followed, `O_NOFOLLOW`; it then `fstat`s the *opened* descriptor (no window
//! between a check and the open) and refuses anything but a regular file, naming what it is.
//! [`read`] reads at most the [`Kind`]'s limit, checked against the size before reading and
//! again while reading (a file that grows meanwhile is still refused).

use std::fs::{File, Metadata};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// What a file is for; each kind has its size limit (documented in the README).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A manifest: 16 MiB, as the reference.
    Manifest,
    /// A claim-graph document: 2 GiB (a million claims is about 1 GB).
    ClaimGraph,
    /// A claim-check crate's metadata (`ro-crate-metadata.json`): 100 MiB.
    Crate,
    /// A verification policy: 64 KiB, as the reference.
    Policy,
    /// An allowed-signers file: 4 MiB.
    AllowedSigners,
    /// A signature (`.sig`): 64 KiB.
    Signature,
    /// An OpenSSH private key: 64 KiB.
    Key,
    /// A journal of the commit protocol: 16 MiB.
    Journal,
    /// A JSON numeric output or claim target: 256 MiB.
    NumericJson,
    /// A directory's file list stored beside its manifest: 16 GiB (about 100 bytes per file).
    FileList,
}

impl Kind {
    /// The size limit in bytes.
    pub fn limit(self) -> u64 {
        const MIB: u64 = 1 << 20;
        match self {
            Kind::Manifest | Kind::Journal => 16 * MIB,
            Kind::ClaimGraph => 2048 * MIB,
            Kind::Crate => 100 * MIB,
            Kind::Policy => 64 * 1024,
            Kind::AllowedSigners => 4 * MIB,
            Kind::Signature | Kind::Key => 64 * 1024,
            Kind::NumericJson => 256 * MIB,
            Kind::FileList => 16384 * MIB,
        }
    }
    /// What the file is, in messages.
    pub fn what(self) -> &'static str {
        match self {
            Kind::Manifest => "manifest",
            Kind::ClaimGraph => "claim graph",
            Kind::Crate => "crate metadata",
            Kind::Policy => "policy",
            Kind::AllowedSigners => "allowed signers file",
            Kind::Signature => "signature file",
            Kind::Key => "key",
            Kind::Journal => "journal",
            Kind::NumericJson => "JSON file",
            Kind::FileList => "directory file list",
        }
    }
}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Nothing at the path.
    NotFound,
    /// Something that is not a regular file: `a FIFO`, `a directory`, ...
    NotRegular(&'static str),
    /// Larger than the limit.
    TooLarge(u64),
    /// Not UTF-8 at this byte offset (text reads only).
    NotUtf8(usize),
    /// Starts with a UTF-8 byte-order mark (text reads only).
    ByteOrderMark,
    /// The operating system's reason.
    Io(String),
}

/// A file that could not be read, with a complete message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The file.
    pub path: PathBuf,
    /// What it was read as.
    pub kind: Kind,
    /// What went wrong.
    pub problem: Problem,
}

impl ReadError {
    /// Whether nothing is at the path.
    pub fn is_not_found(&self) -> bool {
        self.problem == Problem::NotFound
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = crate::escape::terminal::safe_text(&self.path.display().to_string(), 300);
        let what = self.kind.what();
        match &self.problem {
            Problem::NotFound => write!(f, "{what} not found: {path}"),
            Problem::NotRegular(k) => write!(
                f,
                "{what} {path} is {k}, not a regular file; name a regular file"
            ),
            Problem::TooLarge(limit) => write!(
                f,
                "{what} {path} is larger than {limit} bytes, the limit for a {what}"
            ),
            Problem::NotUtf8(offset) => write!(
                f,
                "{what} {path} is not valid UTF-8: invalid byte at offset {offset}"
            ),
            Problem::ByteOrderMark => write!(
                f,
                "{what} {path} starts with a byte-order mark (U+FEFF); remove it (save the file as UTF-8 without a BOM)"
            ),
            Problem::Io(reason) => write!(f, "cannot read {what} {path}: {reason}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// What a non-regular file is, for messages.
pub fn describe(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Whether a link at the path is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// Follow links.
    Follow,
    /// The path itself must be a regular file (`O_NOFOLLOW`).
    Refuse,
}

/// Opens `path` for reading as a regular file (see the module documentation); returns the file
/// and its status, taken from the open descriptor.
pub fn open(path: &Path, kind: Kind, links: Links) -> Result<(File, Metadata), ReadError> {
    let fail = |problem| ReadError {
        path: path.to_path_buf(),
        kind,
        problem,
    };
    let mut flags = libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY;
    if links == Links::Refuse {
        flags |= libc::O_NOFOLLOW;
    }
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(fail(Problem::NotFound)),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) && links == Links::Refuse => {
            return Err(fail(Problem::NotRegular("a symbolic link")));
        }
        Err(e) => {
            // A socket cannot be opened at all; say what it is rather than "No such device".
            if let Ok(meta) = std::fs::metadata(path)
                && !meta.is_file()
            {
                return Err(fail(Problem::NotRegular(describe(&meta))));
            }
            return Err(fail(Problem::Io(crate::error::strerror(&e))));
        }
    };
    let meta = file
        .metadata()
        .map_err(|e| fail(Problem::Io(crate::error::strerror(&e))))?;
    if !meta.is_file() {
        return Err(fail(Problem::NotRegular(describe(&meta))));
    }
    Ok((file, meta))
}

/// Opens a declared file for hashing: never blocks on a FIFO and refuses anything but a
/// regular file (with what it is in the error's text). Links are followed, as declared paths
/// were resolved inside the manifest's folder before.
pub fn open_regular(path: &Path) -> std::io::Result<(File, Metadata)> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "it is {}, not a regular file",
            describe(&meta)
        )));
    }
    Ok((file, meta))
}

/// Reads the whole of `path`, at most `kind.limit()` bytes.
pub fn read(path: &Path, kind: Kind) -> Result<Vec<u8>, ReadError> {
    read_limited(path, kind, Links::Follow, kind.limit())
}

/// [`read`] with an explicit link rule and limit.
pub fn read_limited(
    path: &Path,
    kind: Kind,
    links: Links,
    limit: u64,
) -> Result<Vec<u8>, ReadError> {
    let (file, meta) = open(path, kind, links)?;
    let fail = |problem| ReadError {
        path: path.to_path_buf(),
        kind,
        problem,
    };
    if meta.len() > limit {
        return Err(fail(Problem::TooLarge(limit)));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(Problem::Io(crate::error::strerror(&e))))?;
    if bytes.len() as u64 > limit {
        return Err(fail(Problem::TooLarge(limit)));
    }
    Ok(bytes)
}

/// A reader that fails once more than `limit` bytes were read from it, for documents read as a
/// stream (a claim graph of a gigabyte is never held whole, but is still bounded).
pub struct Bounded<R> {
    inner: R,
    left: u64,
    limit: u64,
    what: &'static str,
}

impl<R> Bounded<R> {
    /// Bounds `inner` to the limit of `kind`.
    pub fn new(inner: R, kind: Kind) -> Self {
        Bounded {
            inner,
            left: kind.limit(),
            limit: kind.limit(),
            what: kind.what(),
        }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(std::io::Error::other(format!(
                "larger than {} bytes, the limit for a {}",
                self.limit, self.what
            )));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Checks that `bytes` read from `path` are UTF-8 text without a byte-order mark.
pub fn into_text(path: &Path, kind: Kind, bytes: Vec<u8>) -> Result<String, ReadError> {
    let fail = |problem| ReadError {
        path: path.to_path_buf(),
        kind,
        problem,
    };
    if bytes.starts_with(b"\xef\xbb\xbf") {
        return Err(fail(Problem::ByteOrderMark));
    }
    String::from_utf8(bytes).map_err(|e| fail(Problem::NotUtf8(e.utf8_error().valid_up_to())))
}

/// [`read`], as UTF-8 text without a byte-order mark.
pub fn read_text(path: &Path, kind: Kind) -> Result<String, ReadError> {
    let bytes = read(path, kind)?;
    into_text(path, kind, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifos_devices_directories_and_big_files_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("ff");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read(&fifo, Kind::ClaimGraph).unwrap_err();
        assert_eq!(e.problem, Problem::NotRegular("a FIFO"));
        assert!(
            e.to_string().contains("is a FIFO, not a regular file"),
            "{e}"
        );
        let e = read(Path::new("/dev/zero"), Kind::ClaimGraph).unwrap_err();
        assert_eq!(e.problem, Problem::NotRegular("a character device"));
        let e = read(dir.path(), Kind::Policy).unwrap_err();
        assert_eq!(e.problem, Problem::NotRegular("a directory"));
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'x'; 70_000]).unwrap();
        let e = read(&big, Kind::Signature).unwrap_err();
        assert_eq!(e.problem, Problem::TooLarge(65536));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&big, &link).unwrap();
        let e = read_limited(&link, Kind::Journal, Links::Refuse, 10).unwrap_err();
        assert_eq!(e.problem, Problem::NotRegular("a symbolic link"));
        assert!(
            read(&dir.path().join("none"), Kind::Key)
                .unwrap_err()
                .is_not_found()
        );
    }

    #[test]
    fn text_refuses_a_bom_and_invalid_utf8_with_the_place() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        std::fs::write(&p, b"\xef\xbb\xbf{}").unwrap();
        let e = read_text(&p, Kind::Manifest).unwrap_err();
        assert!(e.to_string().contains("byte-order mark"), "{e}");
        std::fs::write(&p, b"{\"a\": \"\xff\"}").unwrap();
        let e = read_text(&p, Kind::Manifest).unwrap_err();
        assert_eq!(e.problem, Problem::NotUtf8(7));
    }
}
