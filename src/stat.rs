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

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A change time must be at least this old, relative to the command's start, to be trusted.
pub const SETTLE_SECONDS: i64 = 2;

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
    /// `now` afterwards certainly has the same content.
    pub fn proves_unchanged(&self, now: &StatKey, started: SystemTime) -> bool {
        let started = started
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        self == now && self.ctime.0 + SETTLE_SECONDS < started
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
        assert!(before.proves_unchanged(&before, later));
        // just written: too recent to be trusted
        assert!(!before.proves_unchanged(&before, SystemTime::now()));
        std::fs::write(&path, "b").unwrap();
        let after = StatKey::of(&std::fs::metadata(&path).unwrap());
        assert!(!before.proves_unchanged(&after, later));
    }
}
