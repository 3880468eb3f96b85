//! Telling that a file is unchanged without reading it again.
//!
//! After a capture runs its command, every declared input must be shown unchanged. Re-hashing a
//! large input doubles the cost of a capture, so a file is re-read only when its status could
//! hide a change: it is taken as unchanged when device, inode, size, modification time and
//! change time (`ctime`) are all identical to the status taken before it was hashed, **and** that
//! `ctime` lies at least [`SETTLE_SECONDS`] before the command started. A program can set a
//! file's modification time but not its change time: every write or metadata change sets
//! `ctime` to the current time, so an identical, settled `ctime` proves that nothing wrote to
//! the file. The settling margin covers file systems whose timestamps are coarse (the
//! "racy git" problem): a file changed shortly before the run is always re-hashed.
//!
//! That reasoning holds only where the file system keeps `ctime` faithfully. Network and FUSE
//! file systems may cache or invent it, and FAT has none: on anything but the local POSIX file
//! systems of [`TRUSTED_FILE_SYSTEMS`] (found with `statfs`), every input is re-read.

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A change time must be at least this old, relative to the command's start, to be trusted.
pub const SETTLE_SECONDS: i64 = 2;

/// Local file systems that set `ctime` on every change of content or metadata (`statfs`'s
/// `f_type`): ext2/3/4, XFS, Btrfs, tmpfs, ZFS, F2FS, overlayfs, bcachefs, ramfs, JFS, ReiserFS.
pub const TRUSTED_FILE_SYSTEMS: [(i64, &str); 12] = [
    (0xEF53, "ext2/3/4"),
    (0x5846_5342, "xfs"),
    (0x9123_683E, "btrfs"),
    (0x0102_1994, "tmpfs"),
    (0x2FC1_2FC1, "zfs"),
    (0xF2F5_2010, "f2fs"),
    (0x794C_7630, "overlayfs"),
    (0xCA45_1A4E, "bcachefs"),
    (0x8584_58F6, "ramfs"),
    (0x3153_464A, "jfs"),
    (0x5265_4973, "reiserfs"),
    (0x0102_1997, "v9fs"),
];

/// Whether a file system of type `f_type` (from `statfs`) keeps change times faithfully.
pub fn file_system_trusted(f_type: i64) -> bool {
    // v9fs (9p) forwards another machine's times: not trusted.
    f_type != 0x0102_1997 && TRUSTED_FILE_SYSTEMS.iter().any(|(t, _)| *t == f_type)
}

/// Whether change times of files under `path` can prove them unchanged (see the module
/// documentation). `false` when the file system cannot be asked.
pub fn ctime_trusted(path: &std::path::Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    let mut info: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: statfs fills `info` for a NUL-terminated path.
    if unsafe { libc::statfs(c.as_ptr(), &mut info) } != 0 {
        return false;
    }
    file_system_trusted(info.f_type as i64)
}

/// The status fields that change whenever a file's content can have changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatKey {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl StatKey {
    /// The key of `meta`.
    pub fn of(meta: &Metadata) -> Self {
        StatKey {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Whether a file whose status was `self` before the command started at `started` and is
    /// `now` afterwards certainly has the same content, on a file system whose change times are
    /// `trusted` (see [`ctime_trusted`]).
    pub fn proves_unchanged(&self, now: &StatKey, started: SystemTime, trusted: bool) -> bool {
        let started = started
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        trusted && self == now && self.ctime.0 + SETTLE_SECONDS < started
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_write_changes_the_key_and_a_recent_ctime_is_never_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "a").unwrap();
        let before = StatKey::of(&std::fs::metadata(&path).unwrap());
        let later = SystemTime::now() + Duration::from_secs(10);
        assert!(before.proves_unchanged(&before, later, true));
        // just written: too recent to be trusted
        assert!(!before.proves_unchanged(&before, SystemTime::now(), true));
        std::fs::write(&path, "b").unwrap();
        let after = StatKey::of(&std::fs::metadata(&path).unwrap());
        assert!(!before.proves_unchanged(&after, later, true));
        // a file system that does not keep change times faithfully proves nothing
        assert!(!before.proves_unchanged(&before, later, false));
    }

    #[test]
    fn only_local_posix_file_systems_are_trusted() {
        assert!(file_system_trusted(0xEF53)); // ext4
        assert!(file_system_trusted(0x0102_1994)); // tmpfs
        for untrusted in [
            0x6969,
            0x6573_5546,
            0x4D44,
            0xFF53_4D42,
            0x2011_BAB0,
            0x0102_1997,
        ] {
            // NFS, FUSE, FAT, CIFS, exFAT, 9p
            assert!(!file_system_trusted(untrusted), "{untrusted:#x}");
        }
        assert!(ctime_trusted(std::path::Path::new("/proc")) == file_system_trusted(0x9fa0));
    }
}
