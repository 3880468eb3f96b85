//! `sciproof verify` (integrity) driven through the real binary.

use crate::util::*;
use predicates::prelude::*;
use sciproof_core::json::Value;

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
    let saved = sciproof_core::json::parse(&p.read("report.json")).unwrap();
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

// ---- Rules of the verification report seed (../shared/seeds/verification-report.txt) ----

fn rerun_report(p: &Project, manifest: &str, extra: &[&str]) -> (i32, sciproof_core::json::Value) {
    let out = p
        .cmd()
        .args(["verify", manifest, "--rerun", "--yes", "--json"])
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (
        out.status.code().unwrap(),
        sciproof_core::json::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}")),
    )
}

#[test]
fn seed_report_exit_code_evidence_names_recorded_and_rerun() {
    let p = Project::new();
    p.write("run.sh", "echo x > o.txt; exit 0\n");
    p.cmd()
        .args([
            "capture", "--name", "e", "--output", "o.txt", "--", "sh", "run.sh",
        ])
        .assert()
        .success();
    p.write("run.sh", "echo x > o.txt; exit 4\n");
    let (_, r) = rerun_report(&p, "e.sciproof.json", &[]);
    let c = check_for(&r, "exit code");
    assert_eq!(field(&c, "status").as_str(), Some("FAIL"));
    let ev = field(&c, "evidence");
    assert_eq!(field(ev, "kind").as_str(), Some("exit_code"));
    assert_eq!(field(ev, "recorded").as_f64(), Some(0.0));
    assert_eq!(field(ev, "rerun").as_f64(), Some(4.0));
}

#[test]
fn seed_report_signature_fields_are_null_unless_good_and_unreadable_is_unavailable() {
    let p = Project::new();
    p.capture("run");
    p.write("allowed", "");
    // A signature that cannot be read (a directory where the file should be): unavailable.
    std::fs::create_dir(p.join("run.sciproof.json.sig")).unwrap();
    let out = p
        .cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--allowed-signers",
            "allowed",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let signature = field(&r, "signature");
    assert_eq!(field(signature, "status").as_str(), Some("unavailable"));
    for key in ["principal", "key_type", "fingerprint"] {
        assert_eq!(
            field(signature, key),
            &sciproof_core::json::Value::Null,
            "{key}"
        );
        assert_eq!(
            field(field(&check_for(&r, "manifest signature"), "evidence"), key),
            &sciproof_core::json::Value::Null,
            "{key}"
        );
    }
}

#[test]
fn seed_report_nan_and_infinity_are_strings_in_difference_details() {
    let p = Project::new();
    p.write("run.sh", "printf '{\"a\": 1.0, \"b\": 2.0}' > n.json\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "n",
            "--output-numeric",
            "n.json",
            "--",
            "sh",
            "run.sh",
        ])
        .assert()
        .success();
    p.write(
        "run.sh",
        "printf '{\"a\": NaN, \"b\": Infinity}' > n.json\n",
    );
    let (code, r) = rerun_report(&p, "n.sciproof.json", &[]);
    assert_eq!(code, 1);
    let check = check_for(&r, "rerun output n.json");
    let details = field(field(&check, "evidence"), "difference_details");
    let text = sciproof_core::json::to_string_compact(details);
    assert!(
        text.contains("\"found\": \"NaN\"") && text.contains("\"found\": \"Infinity\""),
        "{text}"
    );
    assert!(
        !text.contains("NaN,") && !text.contains(": NaN"),
        "a bare NaN is not strict JSON: {text}"
    );
}

#[test]
fn seed_report_markdown_has_a_table_of_numeric_differences() {
    let p = Project::new();
    p.write("run.sh", "printf '{\"a\": 1.0}' > n.json\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "m",
            "--output-numeric",
            "n.json",
            "--",
            "sh",
            "run.sh",
        ])
        .assert()
        .success();
    p.write("run.sh", "printf '{\"a\": 1.5}' > n.json\n");
    let out = p
        .cmd()
        .args([
            "verify",
            "m.sciproof.json",
            "--rerun",
            "--yes",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    let table = md
        .lines()
        .skip_while(|l| !l.to_lowercase().contains("numeric differences"))
        .collect::<Vec<_>>();
    assert!(!table.is_empty(), "{md}");
    assert!(
        table
            .iter()
            .any(|l| l.starts_with('|') && l.contains("$.a") && l.contains("1.5")),
        "{md}"
    );
}

#[test]
fn seed_report_a_directory_difference_names_at_most_ten_files_per_list() {
    let p = Project::new();
    for i in 0..3 {
        p.write(&format!("d/keep{i}"), "k");
    }
    p.cmd()
        .args(["capture", "--name", "d", "--output", "d", "--", "true"])
        .assert()
        .success();
    for i in 0..25 {
        p.write(&format!("d/new{i:02}"), "n");
    }
    let (code, r) = p.verify_json("d.sciproof.json");
    assert_eq!(code, 1);
    let check = check_for(&r, "output d");
    let tree = field(field(&check, "evidence"), "tree");
    assert_eq!(field(tree, "added").as_array().unwrap().len(), 10);
    assert_eq!(field(tree, "added_count").as_f64(), Some(25.0));
}

#[test]
fn seed_report_a_symlink_inside_a_directory_is_a_problem() {
    let p = Project::new();
    p.write("d/a", "a");
    p.cmd()
        .args(["capture", "--name", "s", "--output", "d", "--", "true"])
        .assert()
        .success();
    std::os::unix::fs::symlink("a", p.join("d/link")).unwrap();
    let (code, r) = p.verify_json("s.sciproof.json");
    assert_eq!(code, 1);
    let c = check_for(&r, "output d");
    assert_eq!(field(&c, "status").as_str(), Some("FAIL"));
    let ev = field(&c, "evidence");
    let problem = field(ev, "problem").as_str().expect("a problem string");
    assert!(problem.contains("link"), "{problem}");
    assert!(
        field(&c, "message")
            .as_str()
            .unwrap()
            .starts_with("cannot be checked: ")
    );
    assert_eq!(field(ev, "tree"), &sciproof_core::json::Value::Null);
}

#[test]
fn seed_report_a_dirty_git_tree_is_a_warning() {
    let p = Project::new();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(p.path())
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.org")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.org")
            .output()
            .expect("git is needed (./test installs it)")
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "data.json", "train.sh"]);
    git(&["commit", "-q", "-m", "first"]);
    p.write("untracked-change.txt", "not committed\n");
    p.capture("run");
    let (_, r) = p.verify_json("run.sciproof.json");
    let warnings = sciproof_core::json::to_string_compact(field(&r, "warnings"));
    assert!(
        warnings.contains("captured from a Git working tree with uncommitted changes"),
        "{warnings}"
    );
    // Only sciproof's own files changed: clean.
    std::fs::remove_file(p.join("untracked-change.txt")).unwrap();
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "outputs"]);
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--force",
            "--input",
            "data.json",
            "--output",
            "out/log.txt",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success();
    let (_, r) = p.verify_json("run.sciproof.json");
    let warnings = sciproof_core::json::to_string_compact(field(&r, "warnings"));
    assert!(!warnings.contains("uncommitted"), "{warnings}");
}

#[test]
fn seed_report_a_rerun_that_modifies_an_input_fails() {
    let p = Project::new();
    p.capture_without_script("run");
    p.write("train.sh", "echo changed >> data.json\nmkdir -p out; echo x > out/log.txt; echo '{\"value\": 42.5, \"label\": \"ok\"}' > out/result.json\n");
    let (code, r) = rerun_report(&p, "run.sciproof.json", &[]);
    assert_eq!(code, 1);
    let c = check_for(&r, "input data.json");
    let failing: Vec<_> = field(&r, "checks")
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            field(c, "subject").as_str() == Some("input data.json")
                && field(c, "status").as_str() == Some("FAIL")
        })
        .collect();
    assert_eq!(failing.len(), 1, "{c:?}");
    assert_eq!(
        field(failing[0], "message").as_str(),
        Some("was modified or removed by the rerun (inputs must be read-only)")
    );
}

#[test]
fn seed_report_an_output_absent_as_recorded_passes() {
    let p = Project::new();
    p.write("run.sh", "exit 3\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "a",
            "--output",
            "never.txt",
            "--",
            "sh",
            "run.sh",
        ])
        .assert()
        .code(1);
    let (code, r) = p.verify_json("a.sciproof.json");
    assert_eq!(code, 0);
    assert_eq!(
        field(&check_for(&r, "output never.txt"), "message").as_str(),
        Some("still absent, as recorded")
    );
    let (_, r) = rerun_report(&p, "a.sciproof.json", &[]);
    assert_eq!(
        field(&check_for(&r, "rerun output never.txt"), "message").as_str(),
        Some("absent, as recorded")
    );
}
