//! `verify --policy` and `check-policy` through the real binary, against the reference.

use crate::util::*;
use predicates::prelude::*;
use sciproof_core::json::Value;

const POLICY: &str = "version = 1\n[manifest]\nmax_age_days = 30\nrequire_exit_code = 0\nrequire_git = true\nforbid_dirty_git = true\nrequire_signature = true\nmin_claims = 1\nrequire_note = true\nrequire_hardware = true\n[outputs]\nrequire_numeric = [\"out/result.json\", \"out/log.txt\", \"nope.json\"]\nmax_rtol = 1e-12\nmax_atol = 0\n[rerun]\nrequire = true\nrequire_clean_env = true\n";

#[test]
fn every_rule_agrees_with_the_reference() {
    let p = Project::new();
    p.capture("run");
    p.write("pol.toml", POLICY);
    let ours = p
        .cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--json",
            "--policy",
            "pol.toml",
        ])
        .output()
        .unwrap();
    let theirs = reference_cmd(p.path())
        .args([
            "verify",
            "run.sciproof.json",
            "--json",
            "--policy",
            "pol.toml",
        ])
        .output()
        .unwrap();
    assert_eq!(ours.status.code(), theirs.status.code());
    let (o, t) = (
        sciproof_core::json::parse(&String::from_utf8(ours.stdout).unwrap()).unwrap(),
        sciproof_core::json::parse(&String::from_utf8(theirs.stdout).unwrap()).unwrap(),
    );
    let policy_checks = |r: &Value| {
        field(r, "checks")
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| field(c, "subject").as_str().unwrap().starts_with("policy "))
            .map(|c| {
                let mut ev = field(c, "evidence").clone();
                if let Value::Object(obj) = &mut ev
                    && obj.contains_key("found")
                    && field(c, "subject").as_str() == Some("policy manifest.max_age_days")
                {
                    obj.insert("found", Value::Null); // seconds pass between the two runs
                }
                (
                    field(c, "status").clone(),
                    field(c, "subject").clone(),
                    field(c, "message").clone(),
                    ev,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(policy_checks(&o), policy_checks(&t));
    assert_eq!(policy_checks(&o).len(), 15);
    assert_eq!(field(&o, "policy"), field(&t, "policy"));
    assert_eq!(field(field(&o, "policy"), "version"), &Value::from(1i64));
}

#[test]
fn an_invalid_policy_stops_everything_before_anything_runs() {
    let p = Project::new();
    p.capture_without_script("run");
    p.write("train.sh", "touch ran\n");
    for (text, message) in [
        (
            "version = 2\n",
            "pol.toml: 'version = 1' is required (got 2)",
        ),
        ("version = [\n", "pol.toml: not valid TOML"),
        (
            "version = 1\n[manifest]\nrequire_git = \"yes\"\n",
            "pol.toml: manifest.require_git: expected true or false, got 'yes'",
        ),
        (
            "version = 1\n[manifest]\nmax_age = 1\n",
            "unknown rule manifest.max_age; known rules of [manifest]: max_age_days",
        ),
    ] {
        p.write("pol.toml", text);
        p.cmd()
            .args([
                "verify",
                "run.sciproof.json",
                "--rerun",
                "--yes",
                "--policy",
                "pol.toml",
            ])
            .assert()
            .code(3)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(message));
        assert!(!p.join("ran").exists());
    }
    p.write(
        "pol.toml",
        &format!("version = 1\n{}", "# padding\n".repeat(1_100_000)),
    );
    p.cmd()
        .args(["check-policy", "pol.toml"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "pol.toml: larger than 65536 bytes",
        ));
    p.cmd()
        .args(["check-policy", "missing.toml"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "policy file not found: missing.toml",
        ));
}

#[test]
fn check_policy_lists_the_rules_and_says_what_false_means() {
    let p = Project::new();
    p.write("pol.toml", "version = 1\n[manifest]\nrequire_git = false\nmax_age_days = 30\n[outputs]\nrequire_numeric = [\"a.json\"]\n");
    p.cmd()
        .args(["check-policy", "pol.toml"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "policy pol.toml is valid (version 1, sha256 ",
        ))
        .stdout(predicate::str::contains(
            "  manifest.require_git = false  (false: adds no check)",
        ))
        .stdout(predicate::str::contains("  manifest.max_age_days = 30"))
        .stdout(predicate::str::contains(
            "  outputs.require_numeric = [\"a.json\"]",
        ));
    p.write("empty.toml", "version = 1\n");
    p.cmd()
        .args(["check-policy", "empty.toml"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "(no rules: every verification passes this policy)",
        ));
}
