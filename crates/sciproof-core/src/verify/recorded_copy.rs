//! A numeric output's recorded copy that matched its SHA-256 before a rerun, and whether it is
//! still that copy when the rerun's comparison is done.
//!
//! The copy is hashed before the command runs and read again to compare the new output with
//! it. A command that rewrites it meanwhile (a hostile one, or one that normalises every CSV
//! under its folder) would be compared against its own numbers and pass. Hashing the copy a
//! second time would cost another full read; instead its status is kept from when it was
//! hashed and looked at again afterwards, by the rule a capture uses for its inputs
//! ([`crate::stat`]: a rename over it changes the inode, a write changes the change time, which
//! no program can set; a change time under two seconds old, or one on a file system that does
//! not keep change times faithfully, proves nothing, and the copy is then hashed again).

use crate::progress::NoProgress;
use crate::stat::{StatKey, ctime_trusted};
use crate::store::local::file_digest;
use std::path::PathBuf;
use std::time::SystemTime;

/// A recorded copy whose content matched `sha256` when it was hashed.
#[derive(Debug, Clone)]
pub struct RecordedCopy {
    /// Where it is.
    pub path: PathBuf,
    sha256: String,
    /// Its status right after it was hashed (`None`: it could not be read, so it is hashed
    /// again), and when that was.
    key: Option<StatKey>,
    taken: SystemTime,
    /// Whether its file system keeps change times faithfully.
    trusted: bool,
}

impl RecordedCopy {
    /// The copy at `path`, just hashed to `sha256`.
    pub fn hashed(path: PathBuf, sha256: &str) -> RecordedCopy {
        RecordedCopy {
            key: key_of(&path),
            taken: SystemTime::now(),
            trusted: ctime_trusted(&path),
            path,
            sha256: sha256.to_string(),
        }
    }

    /// Whether it is still the content that was hashed: by its status, or, when that cannot
    /// tell, by hashing it again.
    pub fn unchanged(&self) -> bool {
        let (Some(before), Some(now)) = (self.key, key_of(&self.path)) else {
            return false;
        };
        if before != now {
            return false;
        }
        before.proves_unchanged(&now, self.taken, self.trusted)
            || file_digest(&self.path, "", &NoProgress).is_ok_and(|d| d == self.sha256)
    }
}

fn key_of(path: &std::path::Path) -> Option<StatKey> {
    std::fs::metadata(path).ok().map(|m| StatKey::of(&m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_copy_replaced_or_rewritten_after_it_was_hashed_is_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("copy.csv");
        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        let digest = file_digest(&path, "", &NoProgress).unwrap();
        let copy = RecordedCopy::hashed(path.clone(), &digest);
        // Just written: its status proves nothing, so it is hashed again.
        assert!(copy.unchanged());
        // Rewritten in place with content of the same size: within the same clock tick its
        // status may not show it, the second hash does.
        std::fs::write(&path, "a,b\n1,9\n").unwrap();
        assert!(!copy.unchanged());
        // A copy hashed long after its last change: its status alone is trusted, so even a
        // wrong digest is not looked at.
        let old = RecordedCopy {
            taken: SystemTime::now() + Duration::from_secs(10),
            ..RecordedCopy::hashed(path.clone(), "not its digest")
        };
        assert_eq!(old.unchanged(), ctime_trusted(&path));
        // Replaced by a rename: another inode.
        let other = dir.path().join("other.csv");
        std::fs::write(&other, "a,b\n1,9\n").unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert!(!old.unchanged());
        // Removed.
        std::fs::remove_file(&path).unwrap();
        assert!(!old.unchanged());
    }
}
