//! `sciproof diff` through the real binary.

use crate::util::*;
use assert_cmd::Command;
use predicates::prelude::*;

/// A `capture` of the standard run: `in.txt` in, `m.json` out (numeric) with the claim
/// `$.v > threshold`, then `extra` flags and the command after `--`.
fn capture(p: &Project, name: &str, threshold: u32, extra: &[&str], command: &[&str]) -> Command {
    let claim = format!("$.v > {threshold}");
    let mut cmd = p.cmd();
    cmd.args(["capture", "--name", name, "--input", "in.txt"])
        .args(["--output-numeric", "m.json", "--claim", "m.json", &claim])
        .args(extra)
        .arg("--")
        .args(command);
    cmd
}

fn two_runs(p: &Project, second_script: &str) {
    p.write("in.txt", "a\n");
    capture(
        p,
        "a",
        1,
        &[],
        &["sh", "-c", "echo '{\"v\": 2.0}' > m.json"],
    )
    .assert()
    .success();
    capture(p, "b", 2, &[], &["sh", "-c", second_script])
        .env("TZ", "Europe/Paris")
        .assert()
        .success();
}

#[test]
fn identical_runs_exit_0_and_stdout_alone_does_not_make_runs_different() {
    let p = Project::new();
    two_runs(&p, "echo '{\"v\": 2.0}' > m.json");
    p.cmd()
        .args(["diff", "a.sciproof.json", "a.sciproof.json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("RESULT: IDENTICAL"));
    p.write("loud.sh", "echo '{\"v\": 2.0}' > m.json; echo chatty\n");
    for name in ["c", "d"] {
        capture(&p, name, 1, &[], &["sh", "loud.sh"])
            .assert()
            .success();
    }
    p.write("loud.sh", "echo '{\"v\": 2.0}' > m.json; echo other\n");
    capture(&p, "d", 1, &["--force"], &["sh", "loud.sh"])
        .assert()
        .success();
    p.cmd()
        .args(["diff", "c.sciproof.json", "d.sciproof.json"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "~ stdout: output differs (informational, not counted)",
        ))
        .stdout(predicate::str::contains(
            "1 informational (stdout/stderr), not counted",
        ));
}

#[test]
fn changes_by_section_numeric_snapshots_claims_and_hidden_values() {
    let p = Project::new();
    two_runs(&p, "echo '{\"v\": 2.5}' > m.json");
    p.cmd()
        .args(["diff", "a.sciproof.json", "b.sciproof.json"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "outside the baseline tolerance (rtol=1e-09, atol=0.0): $.v: recorded 2.0, found 2.5",
        ))
        .stdout(predicate::str::contains(
            "- m.json: $.v > 1: in the old manifest only",
        ))
        .stdout(predicate::str::contains(
            "+ m.json: $.v > 2: in the new manifest only",
        ))
        .stdout(predicate::str::contains("+ variable TZ: is (value hidden"))
        .stdout(predicate::str::contains("Europe").not())
        .stdout(predicate::str::contains(
            "the manifests are of two experiments",
        ));
    p.cmd()
        .args([
            "diff",
            "a.sciproof.json",
            "b.sciproof.json",
            "--show-values",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("+ variable TZ: is 'Europe/Paris'"));
    let out = p
        .cmd()
        .args(["diff", "a.sciproof.json", "b.sciproof.json", "--json"])
        .output()
        .unwrap();
    let doc = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(field(&doc, "schema").as_str(), Some("sciproof.diff"));
    assert_eq!(
        field(&doc, "identical"),
        &sciproof_core::json::Value::Bool(false)
    );
    assert_eq!(
        field(field(&doc, "counts"), "claims"),
        &sciproof_core::json::Value::from(2usize)
    );
    p.cmd()
        .args([
            "diff",
            "a.sciproof.json",
            "b.sciproof.json",
            "--format",
            "markdown",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("## SciProof diff: DIFFERENT: a -"));
}

#[test]
fn invalid_input_is_exit_3() {
    let p = Project::new();
    two_runs(&p, "echo '{\"v\": 2.0}' > m.json");
    p.cmd()
        .args(["diff", "a.sciproof.json", "nope.sciproof.json"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("manifest not found"));
    p.cmd()
        .args([
            "diff",
            "a.sciproof.json",
            "b.sciproof.json",
            "--json",
            "--format",
            "markdown",
        ])
        .assert()
        .code(3);
}

#[test]
fn python_and_platform_changes_are_listed_under_environment() {
    let p = Project::new();
    two_runs(&p, "echo '{\"v\": 2.0}' > m.json");
    let text = p.read("a.sciproof.json");
    let doc = sciproof_core::json::parse(&text).unwrap();
    let platform = field(field(&doc, "environment"), "platform");
    let mut old = text.clone();
    for key in ["system", "machine", "release"] {
        let value = field(platform, key).as_str().unwrap();
        let from = format!("\"{key}\": \"{value}\"");
        assert!(old.contains(&from), "{from} not in manifest");
        old = old.replacen(&from, &format!("\"{key}\": \"old-{key}\""), 1);
    }
    p.write("old.sciproof.json", &old);
    let mut expected = p
        .cmd()
        .args(["diff", "old.sciproof.json", "a.sciproof.json"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("environment (3)"));
    for key in ["system", "machine", "release"] {
        let now = field(platform, key).as_str().unwrap();
        expected = expected.stdout(predicate::str::contains(format!(
            "~ platform {key}: old-{key} -> {now}"
        )));
    }
    // A Python run records its interpreter; a change of version is listed too.
    let with_python = |version: &str| {
        let from = "\"version\": \"\"";
        assert!(
            text.contains(from),
            "no empty python version in the manifest"
        );
        text.replacen(from, &format!("\"version\": \"{version}\""), 1)
    };
    p.write("py1.sciproof.json", &with_python("3.11.7"));
    p.write("py2.sciproof.json", &with_python("3.12.1"));
    p.cmd()
        .args(["diff", "py1.sciproof.json", "py2.sciproof.json"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "~ python version: 3.11.7 -> 3.12.1",
        ));
}
