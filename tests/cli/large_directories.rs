//! Directories past the inline limit of 10,000 files, through the real binary: the file list is
//! stored beside the manifest (pinned by the directory's digest), read back by every command,
//! refused when it was changed or lost, and refused as invalid by the reference.

use crate::util::*;
use sciproof_core::json::Value;
use sciproof_core::tree::INLINE_TREE_FILES;

/// Writes `n` small files below `folder` (spread over 16 subfolders).
fn many_files(p: &Project, folder: &str, n: usize) {
    for i in 0..n {
        let sub = p.join(&format!("{folder}/s{:02}", i % 16));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(format!("f{i}.txt")), format!("{i}\n")).unwrap();
    }
}

fn capture(p: &Project, name: &str, extra: &[&str]) {
    p.cmd()
        .args(["capture", "--name", name, "--input", "data"])
        .args(extra)
        .args([
            "--output",
            "out.txt",
            "--",
            "sh",
            "-c",
            "ls -R data | wc -l > out.txt",
        ])
        .assert()
        .success();
}

fn manifest(p: &Project, name: &str) -> Value {
    sciproof_core::json::parse(&p.read(&format!("{name}.sciproof.json"))).unwrap()
}

/// The `files` of the first input.
fn stored_files(p: &Project, name: &str) -> Value {
    let m = manifest(p, name);
    field(&field(&m, "inputs").as_array().unwrap()[0], "files").clone()
}

fn verify(p: &Project, name: &str) -> (i32, String, String) {
    let out = p
        .cmd()
        .args(["verify", &format!("{name}.sciproof.json")])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_directory_past_the_inline_limit_is_listed_beside_the_manifest_and_verifies() {
    let p = Project::new();
    let n = INLINE_TREE_FILES + 1;
    many_files(&p, "data", n);
    capture(&p, "run", &[]);
    let files = stored_files(&p, "run");
    let m = manifest(&p, "run");
    let digest = field(&field(&m, "inputs").as_array().unwrap()[0], "sha256")
        .as_str()
        .unwrap()
        .to_string();
    let list = field(&files, "list").as_str().unwrap().to_string();
    assert_eq!(list, format!("run.sciproof.d/lists/{digest}.txt"));
    assert_eq!(field(&files, "count").as_f64(), Some(n as f64));
    // the list is the text the tree digest hashes: its SHA-256 is the directory's digest
    let bytes = std::fs::read(p.join(&list)).unwrap();
    assert_eq!(sciproof_core::hash::sha256_bytes(&bytes), digest);
    assert_eq!(bytes.iter().filter(|b| **b == b'\n').count(), n);

    let (code, out, _) = verify(&p, "run");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!(
            "[PASS] input data: unchanged ({n} files, tree SHA-256 matches)"
        )),
        "{out}"
    );

    // a change is found and named, like in any directory
    std::fs::write(p.join("data/s03/f3.txt"), "changed\n").unwrap();
    std::fs::write(p.join("data/new.txt"), "new\n").unwrap();
    std::fs::remove_file(p.join("data/s05/f5.txt")).unwrap();
    let (code, out, _) = verify(&p, "run");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("1 modified (s03/f3.txt); 1 removed (s05/f5.txt); 1 added (new.txt)"),
        "{out}"
    );

    // list and export read the manifest too
    p.cmd().args(["list", "."]).assert().success();
    let out = p
        .cmd()
        .args(["export", "run.sciproof.json", "--format", "in-toto"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let statement = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    // every file of the directory is a material, named by its path and digest
    let materials = field(field(&statement, "predicate"), "materials")
        .as_array()
        .unwrap();
    assert_eq!(materials.len(), n, "the files as recorded");
    assert!(
        materials
            .iter()
            .any(|m| field(m, "name").as_str() == Some("data/s03/f3.txt"))
    );
    // OpenLineage names the directory as one dataset
    let out = p
        .cmd()
        .args(["export", "run.sciproof.json", "--format", "openlineage"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("\"name\": \"data\"")
    );
}

#[test]
fn a_stored_list_that_was_changed_or_lost_makes_the_manifest_invalid() {
    let p = Project::new();
    many_files(&p, "data", INLINE_TREE_FILES + 5);
    capture(&p, "run", &[]);
    let list = field(&stored_files(&p, "run"), "list")
        .as_str()
        .unwrap()
        .to_string();
    let original = std::fs::read(p.join(&list)).unwrap();

    // one byte changed: the digest no longer matches
    let mut changed = original.clone();
    let at = changed.iter().position(|b| *b == b'\n').unwrap() - 1;
    changed[at] = if changed[at] == b'a' { b'b' } else { b'a' };
    std::fs::write(p.join(&list), &changed).unwrap();
    let (code, _, err) = verify(&p, "run");
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("invalid manifest: inputs[0].files.list: line 1 is not")
            || err.contains("does not match the directory's digest"),
        "{err}"
    );
    assert!(
        err.contains("restore the manifest as it was published, or capture again"),
        "{err}"
    );

    // a line appended, a list lost, a link instead of the list
    let mut longer = original.clone();
    longer.extend_from_slice(format!("{}  1  zzz.txt\n", "0".repeat(64)).as_bytes());
    std::fs::write(p.join(&list), &longer).unwrap();
    let (code, _, err) = verify(&p, "run");
    assert_eq!(code, 3);
    assert!(err.contains("lists more than"), "{err}");
    std::fs::remove_file(p.join(&list)).unwrap();
    let (code, _, err) = verify(&p, "run");
    assert_eq!(code, 3);
    assert!(err.contains("cannot read the stored file list"), "{err}");
    assert!(err.contains("restore it, or capture again"), "{err}");
    std::fs::write(p.join("elsewhere.txt"), &original).unwrap();
    std::os::unix::fs::symlink(p.join("elsewhere.txt"), p.join(&list)).unwrap();
    let (code, _, err) = verify(&p, "run");
    assert_eq!(code, 3, "{err}");

    // put back, it verifies again
    std::fs::remove_file(p.join(&list)).unwrap();
    std::fs::write(p.join(&list), &original).unwrap();
    assert_eq!(verify(&p, "run").0, 0);
}

#[test]
fn diff_and_update_work_on_stored_lists() {
    let p = Project::new();
    many_files(&p, "data", INLINE_TREE_FILES + 1);
    capture(&p, "old", &[]);
    std::fs::write(p.join("data/s07/f7.txt"), "changed\n").unwrap();
    capture(&p, "new", &[]);
    let out = p
        .cmd()
        .args(["diff", "old.sciproof.json", "new.sciproof.json"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("1 modified (s07/f7.txt)"), "{text}");

    // update records the directory again: a new list, the old one gone with the old evidence
    let before = field(&stored_files(&p, "old"), "list")
        .as_str()
        .unwrap()
        .to_string();
    p.cmd()
        .args(["update", "old.sciproof.json", "--yes"])
        .assert()
        .success();
    let after = field(&stored_files(&p, "old"), "list")
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(before, after);
    assert!(!p.join(&before).exists());
    assert!(p.join(&after).exists());
    assert_eq!(verify(&p, "old").0, 0);
}

#[test]
fn a_manifest_that_would_pass_its_size_limit_stores_its_largest_lists_beside_it() {
    // two directories under the inline limit whose lists would make a manifest of about 20 MB
    let p = Project::new();
    let deep: String = (0..6).map(|i| format!("{}{i}/", "d".repeat(240))).collect();
    for (folder, n) in [("data", 6_000), ("more", 5_500)] {
        let at = p.join(&format!("{folder}/{deep}"));
        std::fs::create_dir_all(&at).unwrap();
        for i in 0..n {
            std::fs::write(at.join(format!("{i}")), b"x").unwrap();
        }
    }
    capture(&p, "run", &["--input", "more"]);
    let size = std::fs::metadata(p.join("run.sciproof.json"))
        .unwrap()
        .len();
    assert!(size <= 16 * 1024 * 1024, "{size}");
    let m = manifest(&p, "run");
    let inputs = field(&m, "inputs").as_array().unwrap();
    // the larger list is stored beside it; the other one fits
    assert!(field(&inputs[0], "files").as_object().is_some());
    assert!(field(&inputs[1], "files").as_array().is_some());
    assert_eq!(verify(&p, "run").0, 0);
}

#[test]
fn the_reference_refuses_a_manifest_with_a_stored_list_instead_of_misreading_it() {
    let p = Project::new();
    many_files(&p, "data", INLINE_TREE_FILES + 1);
    capture(&p, "run", &[]);
    let out = reference_cmd(p.path())
        .args(["verify", "run.sciproof.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("invalid manifest: inputs[0].files: expected a list of files"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
