//! Paths a manifest may not declare as outputs: a rerun or an update moves every declared
//! output aside before the command runs, so an output that names version-control data or
//! sciproof's own evidence would let a hostile manifest carry those away.

use crate::pyfmt::str_repr;

/// Why `path` may not be declared as an output of the manifest file `manifest_file` whose
/// numeric snapshots lie in `snapshot_folders` (relative to the manifest's folder); `None` when
/// it may.
pub fn reserved_output(
    path: &str,
    manifest_file: &str,
    snapshot_folders: &[&str],
) -> Option<String> {
    let shown = str_repr(path);
    for part in path.split('/') {
        if matches!(part, ".git" | ".hg" | ".svn") {
            return Some(format!(
                "{shown} is version-control data ({part}); it cannot be a declared output"
            ));
        }
        if part.starts_with(crate::commit::PREFIX) {
            return Some(format!(
                "{shown} is one of sciproof's working folders or files ({}...); it cannot be a declared output",
                crate::commit::PREFIX
            ));
        }
        if part.ends_with(".sciproof.json")
            || part.ends_with(".sciproof.json.sig")
            || part.ends_with(".sciproof.d")
        {
            return Some(format!(
                "{shown} is sciproof evidence (a manifest, its signature or its snapshot folder); it cannot be a declared output"
            ));
        }
    }
    let first = path.split('/').next().unwrap_or(path);
    if path == manifest_file
        || path == format!("{manifest_file}.sig")
        || snapshot_folders.contains(&first)
    {
        return Some(format!(
            "{shown} is this manifest's own evidence (the manifest, its signature or its snapshot folder); it cannot be a declared output"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_control_and_evidence_are_reserved() {
        let r = |p| reserved_output(p, "run.json", &["run.sciproof.d"]);
        for bad in [
            ".git",
            "sub/.git/config",
            ".hg",
            ".svn/x",
            "run.json",
            "run.json.sig",
            "run.sciproof.d",
            "run.sciproof.d/0-m.json",
            "other.sciproof.json",
            "x.sciproof.json.sig",
            ".sciproof-rerun-20260101T000000Z",
            ".sciproof-work-run.json",
        ] {
            assert!(r(bad).is_some(), "{bad} should be reserved");
        }
        for good in [
            "out/result.json",
            "git/x",
            "a.sciproof",
            "figures",
            ".gitignore",
        ] {
            assert!(r(good).is_none(), "{good} should be allowed");
        }
        assert_eq!(
            r(".git").unwrap(),
            "'.git' is version-control data (.git); it cannot be a declared output"
        );
    }
}
