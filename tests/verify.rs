//! `sciproof verify` (integrity) driven through the real binary.

mod common;
use common::*;
use predicates::prelude::*;
use sciproof::json::Value;

#[test]
fn untouched_evidence_passes_with_the_reference_report_shape() {
    let p = Project::new();
    p.capture("run");
    let (code, r) = p.verify_json("run.sciproof.json");
    assert_eq!(code, 0);
    let keys: Vec<&str> = r.as_object().unwrap().iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        [
            "schema",
            "schema_version",
            "name",
            "result",
            "reason",
            "counts",
            "rerun_requested",
            "rerun_executed",
            "clean_env",
            "env_passed",
            "signature",
            "policy",
            "checks",
            "not_checked",
            "warnings",
            "notes",
            "rerun_outputs_dir"
        ]
    );
    assert_eq!(field(&r, "result").as_str(), Some("PASS"));
    assert_eq!(statuses(&r).len(), 4);
    let evidence = field(&field(&r, "checks").as_array().unwrap()[0], "evidence");
    assert_eq!(field(evidence, "kind").as_str(), Some("input_integrity"));
    assert_eq!(
        field(&r, "not_checked").as_array().unwrap()[0].as_str(),
        Some("reproducibility: the recorded command was not executed")
    );
}

#[test]
fn a_modified_output_fails_and_names_the_digests() {
    let p = Project::new();
    p.capture("run");
    p.write("out/log.txt", "tampered\n");
    let (code, r) = p.verify_json("run.sciproof.json");
    assert_eq!(code, 1);
    let check = check_for(&r, "output out/log.txt");
    assert_eq!(field(&check, "status").as_str(), Some("FAIL"));
    assert_eq!(
        field(&check, "message").as_str(),
        Some("modified since capture (SHA-256 differs)")
    );
    let ev = field(&check, "evidence");
    assert_eq!(field(ev, "actual_sha256").as_str().map(str::len), Some(64));
    assert!(
        field(&r, "reason")
            .as_str()
            .unwrap()
            .starts_with("FAIL because 1 (output out/log.txt)")
    );
}

#[test]
fn a_missing_input_is_inconclusive_and_missing_evidence_never_passes() {
    let p = Project::new();
    p.capture("run");
    std::fs::remove_file(p.join("data.json")).unwrap();
    let (code, r) = p.verify_json("run.sciproof.json");
    assert_eq!(code, 2);
    assert!(statuses(&r).contains(&("INCONCLUSIVE".into(), "input data.json".into())));
    std::fs::remove_dir_all(p.join("run.sciproof.d")).unwrap();
    let (_, r) = p.verify_json("run.sciproof.json");
    assert!(statuses(&r).contains(&(
        "INCONCLUSIVE".into(),
        "output out/result.json snapshot".into()
    )));
}

#[test]
fn directory_changes_are_named_with_counts() {
    let p = Project::new();
    p.write("data/a.txt", "a");
    p.write("data/b.txt", "b");
    p.cmd()
        .args(["capture", "--name", "d", "--input", "data", "--", "true"])
        .assert()
        .success();
    p.write("data/a.txt", "changed");
    std::fs::remove_file(p.join("data/b.txt")).unwrap();
    p.write("data/z.txt", "new");
    let (code, r) = p.verify_json("d.sciproof.json");
    assert_eq!(code, 1);
    let check = &field(&r, "checks").as_array().unwrap()[0];
    assert_eq!(
        field(check, "message").as_str(),
        Some(
            "modified since capture (SHA-256 differs): 1 modified (a.txt); 1 removed (b.txt); 1 added (z.txt)"
        )
    );
    let tree = field(field(check, "evidence"), "tree");
    assert_eq!(field(tree, "added_count"), &Value::from(1usize));
    assert_eq!(
        field(field(check, "evidence"), "files_expected"),
        &Value::from(2usize)
    );
    assert_eq!(
        field(field(check, "evidence"), "artifact").as_str(),
        Some("directory")
    );
}

#[test]
fn verify_resolves_paths_against_the_manifest_folder_not_the_cwd() {
    let p = Project::new();
    p.capture("run");
    let elsewhere = tempfile::tempdir().unwrap();
    sciproof(elsewhere.path())
        .args(["verify", p.join("run.sciproof.json").to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("RESULT: PASS"));
}

#[test]
fn text_report_escapes_control_characters_from_the_manifest() {
    let p = Project::new();
    p.capture("run");
    // ESC in fields that are shown: the command line, the platform, a claim-free note.
    let original = p.read("run.sciproof.json");
    let text = original
        .replace(
            "\"sh\",\n      \"train.sh\"",
            "\"sh\",\n      \"train\\u001b[2J.sh\"",
        )
        .replace(
            "\"platform\": \"Linux-",
            "\"platform\": \"Li\\u001b]0;x\\u0007nux-",
        );
    assert_ne!(text, original, "the edit happened");
    assert_eq!(text.matches("\\u001b").count(), 2, "both edits happened");
    p.write("run.sciproof.json", &text);
    let out = p
        .cmd()
        .args(["inspect", "run.sciproof.json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{7}'),
        "{shown}"
    );
    assert!(
        shown.contains("train\\x1b[2J.sh"),
        "the escaped form is shown: {shown}"
    );
    assert!(shown.contains("Li\\x1b]0;x\\x07nux"), "{shown}");
    // verify shows the inputs it checks; an input named like this cannot exist (path rules),
    // so the report's own text is checked for the same guarantee.
    let out = p
        .cmd()
        .args(["verify", "run.sciproof.json"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\u{1b}'));
}

#[test]
fn a_path_that_escapes_through_a_symlink_is_an_unsafe_path_failure() {
    let p = Project::new();
    p.capture("run");
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(outside.path().join("o")).unwrap();
    std::fs::write(outside.path().join("o/log.txt"), "log 21\n").unwrap();
    std::fs::remove_dir_all(p.join("out")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("o"), p.join("out")).unwrap();
    let (code, r) = p.verify_json("run.sciproof.json");
    assert_eq!(code, 1);
    let check = check_for(&r, "output out/log.txt");
    assert!(
        field(&check, "message")
            .as_str()
            .unwrap()
            .starts_with("unsafe path: path 'out/log.txt' resolves outside of")
    );
    assert_eq!(field(&check, "evidence"), &Value::Null);
}

#[test]
fn save_json_writes_the_report_beside_the_text() {
    let p = Project::new();
    p.capture("run");
    p.cmd()
        .args(["verify", "run.sciproof.json", "--save-json", "report.json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("RESULT: PASS"));
    let saved = sciproof::json::parse(&p.read("report.json")).unwrap();
    assert_eq!(field(&saved, "schema").as_str(), Some("sciproof.report"));
    p.cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--save-json",
            "no/such/dir/r.json",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("RESULT: PASS"))
        .stderr(predicate::str::contains("cannot write no/such/dir/r.json"));
}

#[test]
fn format_flags() {
    let p = Project::new();
    p.capture("run");
    p.cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--format",
            "text",
            "--format",
            "json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("{"));
    p.cmd()
        .args(["verify", "run.sciproof.json", "--form", "json"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("{"));
    p.cmd()
        .args(["verify", "run.sciproof.json", "--json", "--format", "text"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "--json conflicts with --format text",
        ));
}
