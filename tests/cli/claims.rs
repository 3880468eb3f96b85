//! Claims through the real binary: capture, verify (recorded and rerun phases), `claims check`.

use crate::util::*;
use predicates::prelude::*;
use sciproof_core::json::Value;

fn project() -> Project {
    let p = Project::new();
    p.write(
        "m.json",
        r#"{"accuracy": 0.9183, "n": 36, "rate": 0.918, "flag": true, "a.b": 1, "a": {"b": 2}}"#,
    );
    p.write("t.csv", "id,loss\n1,0.25\n");
    p
}

fn capture(p: &Project, claims: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = p.cmd();
    cmd.args([
        "capture", "--name", "c", "--force", "--output", "m.json", "--output", "t.csv",
    ]);
    for (output, expr) in claims {
        cmd.args(["--claim", output, expr]);
    }
    cmd.args(["--", "true"]).output().unwrap()
}

#[test]
fn a_claim_that_does_not_hold_is_recorded_with_a_warning_and_verify_keeps_reporting_it() {
    let p = project();
    let out = capture(
        &p,
        &[("m.json", "$.n == 35"), ("m.json", "$.accuracy >= 0.9")],
    );
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "warning: a claim does not hold at capture time (m.json: $.n == 35): $.n is 36, claim is == 35. It is recorded anyway, and verification will report it."
    ));
    let (code, r) = p.verify_json("c.sciproof.json");
    assert_eq!(code, 1);
    let c = check_for(&r, "claim m.json: $.n == 35");
    assert_eq!(field(&c, "status").as_str(), Some("FAIL"));
    let ev = field(&c, "evidence");
    let keys: Vec<&str> = ev.as_object().unwrap().iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        [
            "kind", "phase", "output", "location", "op", "value", "found", "present"
        ]
    );
    assert_eq!(field(ev, "found"), &Value::from(36i64));
    assert_eq!(
        field(&check_for(&r, "claim m.json: $.accuracy >= 0.9"), "status").as_str(),
        Some("PASS")
    );
    let not_checked = sciproof_core::json::to_string_compact(field(&r, "not_checked"));
    assert!(not_checked.contains("whether a claim is the right criterion"));
}

#[test]
fn a_claim_about_a_modified_or_missing_output_is_inconclusive() {
    let p = project();
    assert!(capture(&p, &[("m.json", "$.n == 36")]).status.success());
    p.write("m.json", r#"{"n": 36, "x": 1}"#);
    let (code, r) = p.verify_json("c.sciproof.json");
    assert_eq!(code, 1);
    let c = check_for(&r, "claim m.json: $.n == 36");
    assert_eq!(field(&c, "status").as_str(), Some("INCONCLUSIVE"));
    assert!(
        !field(&c, "evidence")
            .as_object()
            .unwrap()
            .contains_key("found")
    );
    std::fs::remove_file(p.join("m.json")).unwrap();
    let (_, r) = p.verify_json("c.sciproof.json");
    assert_eq!(
        field(&check_for(&r, "claim m.json: $.n == 36"), "status").as_str(),
        Some("INCONCLUSIVE")
    );
}

#[test]
fn an_absent_location_does_not_hold_and_keys_with_dots_cannot_be_addressed() {
    let p = project();
    assert!(
        capture(
            &p,
            &[("m.json", "$.missing == 1"), ("m.json", "$.a.b == 2")]
        )
        .status
        .success()
    );
    let (_, r) = p.verify_json("c.sciproof.json");
    let missing = check_for(&r, "claim m.json: $.missing == 1");
    assert_eq!(
        field(&missing, "message").as_str(),
        Some("$.missing is not present in m.json")
    );
    assert_eq!(
        field(field(&missing, "evidence"), "present"),
        &Value::Bool(false)
    );
    // $.a.b is key b of key a (2), never the key "a.b" (1)
    assert_eq!(
        field(&check_for(&r, "claim m.json: $.a.b == 2"), "status").as_str(),
        Some("PASS")
    );
}

#[test]
fn malformed_claims_are_usage_errors_that_show_the_form_and_write_nothing() {
    let p = project();
    for (expr, message) in [
        (
            "$.n",
            "expected 'LOCATION OP VALUE', for example '$.accuracy >= 0.9'",
        ),
        (
            "$.n => 1",
            "unknown comparison '=>'; use one of ==, !=, <, <=, >, >=, ~=",
        ),
        ("n == 1", "use the form $.key[0].name"),
        ("$.n == ok", "for example 0.9 or \"ok\""),
        ("$.n >= \"x\"", ">= needs a number"),
        ("$.n == 1 printed", "printed needs '~=' and no rtol or atol"),
        (
            "$.n ~= 35 scale=100",
            "scale only applies to printed claims",
        ),
    ] {
        let out = capture(&p, &[("m.json", expr)]);
        assert_eq!(out.status.code(), Some(3), "{expr}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{expr}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!p.join("c.sciproof.json").exists());
    }
}

#[test]
fn printed_claims_round_to_what_the_paper_prints_and_the_reference_refuses_them() {
    let p = project();
    let out = capture(
        &p,
        &[
            ("m.json", "$.accuracy ~= 0.92 printed"),
            ("m.json", "$.rate ~= 91.8 printed scale=100"),
            ("m.json", "$.n ~= 35 printed"),
        ],
    );
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("refuses it as invalid rather than misreading it")
    );
    let (code, r) = p.verify_json("c.sciproof.json");
    assert_eq!(code, 1);
    let acc = check_for(&r, "claim m.json: $.accuracy ~= 0.92 printed");
    assert_eq!(field(&acc, "status").as_str(), Some("PASS"));
    let ev = field(&acc, "evidence");
    assert_eq!(field(ev, "op").as_str(), Some("printed"));
    assert_eq!(field(ev, "value").as_str(), Some("0.92"));
    assert_eq!(field(ev, "precision").as_str(), Some("0.01"));
    assert_eq!(field(ev, "rounded").as_str(), Some("0.92"));
    assert_eq!(field(ev, "tie"), &Value::Null);
    assert_eq!(
        field(
            &check_for(&r, "claim m.json: $.rate ~= 91.8 printed scale=100"),
            "status"
        )
        .as_str(),
        Some("PASS")
    );
    assert_eq!(
        field(&check_for(&r, "claim m.json: $.n ~= 35 printed"), "status").as_str(),
        Some("FAIL")
    );
    let theirs = reference_cmd(p.path())
        .args(["verify", "c.sciproof.json"])
        .output()
        .unwrap();
    assert_eq!(theirs.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&theirs.stderr).contains("invalid manifest: claims[0].op"));
}

#[test]
fn claims_on_tsv_and_npy_outputs() {
    let p = project();
    p.write("t.tsv", "id\tloss\n1\t0.25\n");
    let mut header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }".to_string();
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    npy.extend_from_slice(&(header.len() as u16).to_le_bytes());
    npy.extend_from_slice(header.as_bytes());
    npy.extend([0.5f64, 1.5].iter().flat_map(|x| x.to_le_bytes()));
    std::fs::write(p.join("a.npy"), npy).unwrap();
    p.cmd()
        .args([
            "capture", "--name", "x", "--output", "t.tsv", "--output", "a.npy",
        ])
        .args([
            "--claim",
            "t.tsv",
            "r1c1 <= 0.3",
            "--claim",
            "a.npy",
            "data[1] ~= 1.5",
            "--claim",
            "a.npy",
            "data[2] == 0",
            "--",
            "true",
        ])
        .assert()
        .success();
    let (code, r) = p.verify_json("x.sciproof.json");
    assert_eq!(code, 1);
    assert_eq!(
        field(&check_for(&r, "claim t.tsv: r1c1 <= 0.3"), "status").as_str(),
        Some("PASS")
    );
    assert_eq!(
        field(
            &check_for(&r, "claim a.npy: data[1] ~= 1.5 (rtol=0.0, atol=0.0)"),
            "status"
        )
        .as_str(),
        Some("PASS")
    );
    assert_eq!(
        field(&check_for(&r, "claim a.npy: data[2] == 0"), "message").as_str(),
        Some("data[2] is not present in a.npy")
    );
}

#[test]
fn rerun_claims_are_checked_on_the_rerun_output() {
    let p = project();
    p.write("counter", "0");
    p.write(
        "run.sh",
        "n=$(cat counter); echo $((n+1)) > counter; echo \"{\\\"v\\\": $((n * 10))}\" > v.json\n",
    );
    p.cmd()
        .args([
            "capture",
            "--name",
            "r",
            "--output-numeric",
            "v.json",
            "--claim",
            "v.json",
            "$.v < 5",
            "--",
            "sh",
            "run.sh",
        ])
        .assert()
        .success();
    let out = p
        .cmd()
        .args(["verify", "r.sciproof.json", "--rerun", "--yes", "--json"])
        .output()
        .unwrap();
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(
        field(&check_for(&r, "claim v.json: $.v < 5"), "status").as_str(),
        Some("PASS")
    );
    let rerun = check_for(&r, "rerun claim v.json: $.v < 5");
    assert_eq!(field(&rerun, "status").as_str(), Some("FAIL"));
    assert_eq!(
        field(field(&rerun, "evidence"), "phase").as_str(),
        Some("rerun")
    );
}

#[test]
fn claims_check_prints_a_table_and_json() {
    let p = project();
    assert!(
        capture(&p, &[("m.json", "$.n == 35"), ("t.csv", "r1c1 == 0.25")])
            .status
            .success()
    );
    p.cmd()
        .args(["claims", "check", "c.sciproof.json"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("m.json: $.n == 35"))
        .stdout(predicate::str::contains("t.csv: r1c1 == 0.25"))
        .stdout(predicate::str::contains("RESULT: FAIL"));
    let out = p
        .cmd()
        .args(["claims", "check", "c.sciproof.json", "--json"])
        .output()
        .unwrap();
    let doc = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(field(&doc, "schema").as_str(), Some("sciproof.claims"));
    let claims = field(&doc, "claims").as_array().unwrap();
    assert_eq!(claims.len(), 2);
    assert_eq!(field(&claims[1], "found"), &Value::from(0.25));
}

#[test]
fn standard_claims_verify_alike_with_the_reference() {
    let p = project();
    // the reference captures, both verify
    let out = reference_cmd(p.path())
        .args([
            "capture", "--name", "ref", "--output", "m.json", "--output", "t.csv",
        ])
        .args([
            "--claim",
            "m.json",
            "$.n == 35",
            "--claim",
            "m.json",
            "$.accuracy ~= 0.92 atol=0.01",
            "--claim",
            "t.csv",
            "r1c1 >= 0.3",
        ])
        .args([
            "--claim",
            "m.json",
            "$.flag == true",
            "--claim",
            "m.json",
            "$.missing != 1",
            "--",
            "true",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let compare = |manifest: &str| {
        let (code, ours) = p.verify_json(manifest);
        let theirs_out = reference_cmd(p.path())
            .args(["verify", manifest, "--json"])
            .output()
            .unwrap();
        let theirs =
            sciproof_core::json::parse(&String::from_utf8(theirs_out.stdout).unwrap()).unwrap();
        assert_eq!(Some(code), theirs_out.status.code());
        assert_eq!(field(&ours, "counts"), field(&theirs, "counts"));
        let checks = |r: &Value| {
            field(r, "checks")
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    (
                        field(c, "subject").clone(),
                        field(c, "status").clone(),
                        field(c, "message").clone(),
                        field(c, "evidence").clone(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(checks(&ours), checks(&theirs));
    };
    compare("ref.sciproof.json");
    // ours captures standard claims, both verify
    p.cmd()
        .args([
            "capture",
            "--name",
            "ours",
            "--output",
            "m.json",
            "--output",
            "t.csv",
            "--claim",
            "m.json",
            "$.n != 35",
            "--claim",
            "t.csv",
            "r0c1 == \"loss\"",
            "--",
            "true",
        ])
        .assert()
        .success();
    compare("ours.sciproof.json");
}

#[test]
fn a_two_dimensional_array_location_is_accepted_as_the_readme_writes_it() {
    let p = project();
    let mut header = "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }".to_string();
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    npy.extend_from_slice(&(header.len() as u16).to_le_bytes());
    npy.extend_from_slice(header.as_bytes());
    npy.extend([1i64, 2, 3, 4, 5, 6].iter().flat_map(|x| x.to_le_bytes()));
    std::fs::write(p.join("a.npy"), npy).unwrap();
    p.cmd()
        .args(["capture", "--name", "x", "--output", "a.npy"])
        .args(["--claim", "a.npy", "data[1, 2] == 6"])
        .args(["--claim", "a.npy", "data[0,1] == 2"])
        .args(["--", "true"])
        .assert()
        .success();
    let (code, r) = p.verify_json("x.sciproof.json");
    assert_eq!(code, 0);
    for subject in [
        "claim a.npy: data[1, 2] == 6",
        "claim a.npy: data[0, 1] == 2",
    ] {
        assert_eq!(
            field(&check_for(&r, subject), "status").as_str(),
            Some("PASS")
        );
    }
}

// ---- Rules of the claims seed (../shared/seeds/claims.txt), one test each ----

#[test]
fn seed_claims_a_rerun_that_did_not_produce_the_file_is_inconclusive() {
    let p = project();
    p.write("make.sh", "cp m.json out.json\n");
    p.write("out.json", "{\"acc\": 0.9}");
    p.cmd()
        .args(["capture", "--name", "r", "--output", "out.json"])
        .args(["--claim", "out.json", "$.acc >= 0.5", "--", "sh", "make.sh"])
        .assert()
        .success();
    p.write("make.sh", "true\n"); // the rerun produces nothing
    let out = p
        .cmd()
        .args(["verify", "r.sciproof.json", "--rerun", "--yes", "--json"])
        .output()
        .unwrap();
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let c = check_for(&r, "rerun claim out.json: $.acc >= 0.5");
    assert_eq!(field(&c, "status").as_str(), Some("INCONCLUSIVE"), "{c:?}");
}

#[test]
fn seed_claims_every_report_that_checks_claims_says_what_a_claim_does_not_show() {
    let p = project();
    assert!(
        capture(&p, &[("m.json", "$.accuracy >= 0.9")])
            .status
            .success()
    );
    let criterion = "whether a claim is the right criterion";
    for args in [
        &["verify", "c.sciproof.json"][..],
        &["verify", "c.sciproof.json", "--format", "markdown"],
        &["verify", "c.sciproof.json", "--json"],
        &["claims", "check", "c.sciproof.json"],
        &["claims", "check", "c.sciproof.json", "--json"],
    ] {
        let out = p.cmd().args(args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(criterion),
            "{args:?} does not say it:\n{text}"
        );
    }
}

#[test]
fn seed_claims_a_signature_covers_the_claims() {
    let p = project();
    assert!(capture(&p, &[("m.json", "$.n == 36")]).status.success());
    let key = p.join("key");
    assert!(
        std::process::Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-C", "k", "-f"])
            .arg(&key)
            .status()
            .unwrap()
            .success()
    );
    p.cmd()
        .args(["sign", "c.sciproof.json", "--key", "key"])
        .assert()
        .success();
    let public = p.read("key.pub");
    let parts: Vec<&str> = public.split_whitespace().take(2).collect();
    p.write("allowed", &format!("alice {}\n", parts.join(" ")));
    let check = || {
        let out = p
            .cmd()
            .args([
                "verify",
                "c.sciproof.json",
                "--allowed-signers",
                "allowed",
                "--json",
            ])
            .output()
            .unwrap();
        let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
        field(&check_for(&r, "manifest signature"), "status")
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(check(), "PASS");
    // Change only the claim (still a valid manifest): the signature no longer holds.
    let text = p.read("c.sciproof.json");
    let edited = text.replace("\"value\": 36", "\"value\": 35");
    assert_ne!(edited, text);
    p.write("c.sciproof.json", &edited);
    sciproof_core::manifest::load_manifest(&p.join("c.sciproof.json")).unwrap();
    assert_eq!(check(), "FAIL");
}
