//! `sciproof demo` and the top-level CLI.

use crate::util::*;
use predicates::prelude::*;

#[test]
fn demo_shows_pass_fail_pass_and_can_run_again_in_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..2 {
        sciproof(dir.path())
            .arg("demo")
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "Verified the untouched evidence: PASS",
            ))
            .stdout(predicate::str::contains("verified again: FAIL"))
            .stdout(predicate::str::contains(
                "[FAIL] output results/table.csv: modified since capture",
            ))
            .stdout(predicate::str::contains("verified once more: PASS"));
    }
    let manifest = dir.path().join("sciproof-demo/demo.sciproof.json");
    sciproof(dir.path())
        .args(["verify", manifest.to_str().unwrap()])
        .assert()
        .success();
}

#[test]
fn demo_into_a_named_new_folder() {
    let dir = tempfile::tempdir().unwrap();
    sciproof(dir.path())
        .args(["demo", "nested/new"])
        .assert()
        .success();
    assert!(dir.path().join("nested/new/demo.sciproof.json").exists());
}

#[test]
fn version_help_and_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    sciproof(dir.path())
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("sciproof "));
    sciproof(dir.path())
        .args(["verify", "--help"])
        .assert()
        .success();
    sciproof(dir.path()).assert().code(3);
    sciproof(dir.path()).args(["verify"]).assert().code(3);
    sciproof(dir.path()).args(["frobnicate"]).assert().code(3);
}

#[test]
fn a_python_command_gets_its_interpreter_probed() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--name",
            "py",
            "--input",
            "data.json",
            "--",
            "python3",
            "-c",
            "print(1)",
        ])
        .assert()
        .success();
    let m = sciproof_core::manifest::load_manifest(&p.join("py.sciproof.json")).unwrap();
    assert_eq!(m.environment.source.as_deref(), Some("command-interpreter"));
    assert!(m.environment.python_version().starts_with("3."));
    assert!(
        m.dependencies.iter().any(|d| d.name == "pip"),
        "the venv/system packages are listed"
    );
    // A script whose name only looks similar is never run as the probe.
    p.write("python_train.sh", "#!/bin/sh\ntouch probed\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "sh",
            "--input",
            "data.json",
            "--",
            "sh",
            "python_train.sh",
        ])
        .assert()
        .success();
    let m = sciproof_core::manifest::load_manifest(&p.join("sh.sciproof.json")).unwrap();
    assert_eq!(m.environment.source.as_deref(), Some("not-python"));
}
