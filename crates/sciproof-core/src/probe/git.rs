//! Best-effort Git state of the base directory. No Git or no repository is not an error.

use crate::manifest::GitState;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(15);

fn git(cwd: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let mut command = Command::new("git");
    command.args(args).current_dir(cwd).stdin(Stdio::null());
    let output = crate::runner::output_with_timeout(command, TIMEOUT)?;
    output.status.success().then_some(output.stdout)
}

/// Whether a path is one SciProof writes next to the experiment (manifests, signatures,
/// snapshot folders, rerun folders): such changes never make the tree dirty.
pub fn is_sciproof_artifact(path: &str) -> bool {
    path.replace('\\', "/").split('/').any(|part| {
        part.ends_with(".sciproof.json")
            || part.ends_with(".sciproof.json.sig")
            || part.ends_with(".sciproof.d")
            || part.starts_with(".sciproof-rerun-")
    })
}

/// Whether `git status --porcelain=v1 -z` output shows a change outside SciProof's own files.
/// An unreadable status (`None`) counts as dirty: "clean" is never claimed without evidence.
pub fn is_dirty(status: Option<&[u8]>) -> bool {
    let Some(status) = status else { return true };
    let text = String::from_utf8_lossy(status);
    let entries: Vec<&str> = text.split('\0').collect();
    let mut index = 0;
    while index < entries.len() {
        let entry = entries[index];
        index += 1;
        if entry.len() < 4 {
            continue;
        }
        let mut paths = vec![&entry[3..]];
        if entry.starts_with(['R', 'C']) {
            paths.push(entries.get(index).copied().unwrap_or(""));
            index += 1;
        }
        if !paths
            .iter()
            .filter(|p| !p.is_empty())
            .all(|p| is_sciproof_artifact(p))
        {
            return true;
        }
    }
    false
}

/// `{commit, branch, dirty}` of the repository containing `cwd`, or `None` outside one (or
/// before its first commit, or without `git`).
pub fn git_state(cwd: &Path) -> Option<GitState> {
    let commit = git(cwd, &["rev-parse", "HEAD"])?;
    let status = git(
        cwd,
        &["status", "--porcelain=v1", "-z", "--untracked-files=all"],
    );
    let branch = git(cwd, &["rev-parse", "--abbrev-ref", "HEAD"]);
    Some(GitState {
        commit: String::from_utf8_lossy(&commit).trim().to_string(),
        branch: branch.map(|b| String::from_utf8_lossy(&b).trim().to_string()),
        dirty: is_dirty(status.as_deref()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sciproof_artifacts_never_make_the_tree_dirty() {
        assert!(!is_dirty(Some(
            b"?? run.sciproof.json\0?? run.sciproof.d/1-m.json\0"
        )));
        assert!(!is_dirty(Some(
            b"?? .sciproof-rerun-20260101T000000Z/x\0 M a.sciproof.json.sig\0"
        )));
        assert!(is_dirty(Some(b" M train.py\0")));
        assert!(is_dirty(Some(b"R  new.py\0old.sciproof.json\0")));
        assert!(!is_dirty(Some(b"R  b.sciproof.json\0a.sciproof.json\0")));
        assert!(is_dirty(None));
        assert!(!is_dirty(Some(b"")));
    }
}
