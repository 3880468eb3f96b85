//! `sciproof list` through the real binary.

use crate::util::*;
use predicates::prelude::*;

#[test]
fn lists_newest_first_with_verdicts_and_invalid_manifests() {
    let p = Project::new();
    p.capture("run");
    // Two valid manifests whose times are set, in the order opposite to their names.
    p.capture("early");
    let set_time = |name: &str, at: &str| {
        let text = p.read(name);
        let i = text.find("\"created_at\": \"").unwrap() + 15;
        let j = i + text[i..].find('"').unwrap();
        p.write(name, &format!("{}{at}{}", &text[..i], &text[j..]));
    };
    set_time("early.sciproof.json", "2020-01-01T00:00:00+00:00");
    set_time("run.sciproof.json", "2026-01-01T00:00:00+00:00");
    let out = p.cmd().args(["list"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let (run, early) = (
        text.find("run.sciproof.json").unwrap(),
        text.find("early.sciproof.json").unwrap(),
    );
    assert!(run < early, "newest first:\n{text}");
    std::fs::remove_file(p.join("early.sciproof.json")).unwrap();
    std::fs::create_dir_all(p.join("sub/.hidden")).unwrap();
    std::fs::create_dir_all(p.join("node_modules")).unwrap();
    p.write("broken.sciproof.json", "{");
    p.write("sub/.hidden/x.sciproof.json", "{");
    p.write("node_modules/y.sciproof.json", "{");
    p.cmd()
        .args(["list"])
        .assert()
        .success()
        .stdout(predicate::str::contains("run.sciproof.json  captured"))
        .stdout(predicate::str::contains("broken.sciproof.json  INVALID"));
    p.cmd()
        .args(["list", "--check"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "summary: 2 manifest(s): 1 PASS, 1 invalid",
        ));
    let out = p.cmd().args(["list", "-r", "--json"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "without --check the exit code is 0"
    );
    let doc = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(
        field(&doc, "result"),
        &sciproof_core::json::Value::Null,
        "no verdict without --check"
    );
    assert_eq!(
        field(&doc, "manifests").as_array().unwrap().len(),
        2,
        "hidden folders and node_modules are skipped"
    );
    p.cmd()
        .args(["list", "--check", "--format", "junit"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("type=\"INVALID\""));
    p.cmd()
        .args(["list", "nope"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("not a directory"));
}

#[test]
fn a_large_folder_without_manifests_lists_nothing() {
    let p = Project::new();
    for d in 0..100 {
        let dir = p.join(&format!("d{d}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..1000 {
            std::fs::File::create(dir.join(format!("f{f}"))).unwrap();
        }
    }
    // (how fast is the benchmark's business; here: it completes and finds nothing)
    p.cmd()
        .args(["list", "-r"])
        .assert()
        .success()
        .stdout(predicate::str::contains("no manifests found"));
}
