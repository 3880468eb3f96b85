//! Interchangeability with the Python reference implementation (sciproof 0.4.1), tested
//! against the real tool, installed by the tests into a venv under the target directory.

use crate::util::*;
use sciproof_core::json::{Value, parse};
use sciproof_core::manifest::{load_manifest, to_text};

/// `(result, counts, checks as (status, subject, evidence), not_checked, warnings)`.
type Essentials = (Value, Value, Vec<(String, String, Value)>, Value, Value);

/// The fields of a report that must agree between the two tools.
fn essentials(report: &Value) -> Essentials {
    let checks = field(report, "checks")
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                field(c, "status").as_str().unwrap().to_string(),
                field(c, "subject").as_str().unwrap().to_string(),
                field(c, "evidence").clone(),
            )
        })
        .collect();
    (
        field(report, "result").clone(),
        field(report, "counts").clone(),
        checks,
        field(report, "not_checked").clone(),
        field(report, "warnings").clone(),
    )
}

fn ours(dir: &std::path::Path, manifest: &str) -> (i32, Value) {
    let out = sciproof(dir)
        .args(["verify", manifest, "--json"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        parse(&String::from_utf8(out.stdout).unwrap()).unwrap(),
    )
}

fn theirs(dir: &std::path::Path, manifest: &str) -> (i32, Value) {
    let out = reference_cmd(dir)
        .args(["verify", manifest, "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let value = parse(&text).unwrap_or_else(|e| {
        panic!(
            "reference printed no JSON ({e}): {text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), value)
}

fn assert_same_verdicts(dir: &std::path::Path, manifest: &str, expected_code: i32) {
    let (code_ours, report_ours) = ours(dir, manifest);
    let (code_theirs, report_theirs) = theirs(dir, manifest);
    assert_eq!(code_theirs, expected_code, "reference exit code");
    assert_eq!(code_ours, code_theirs, "exit codes differ");
    assert_eq!(essentials(&report_ours), essentials(&report_theirs));
    assert_eq!(field(&report_ours, "notes"), field(&report_theirs, "notes"));
}

/// A project captured by the reference: file inputs, a directory input, a directory output.
fn reference_project() -> Project {
    let p = Project::new();
    p.write("data/a.txt", "a\n");
    p.write("data/sub/b.txt", "b\n");
    let out = reference_cmd(p.path())
        .args([
            "capture",
            "--name",
            "ref",
            "--input",
            "data.json",
            "--input",
            "train.sh",
            "--input",
            "data",
        ])
        .args([
            "--output",
            "out",
            "--note",
            "made by the reference",
            "--",
            "sh",
            "train.sh",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    p
}

#[test]
fn reference_manifests_verify_with_ours_exactly_as_with_the_reference() {
    let p = reference_project();
    assert_same_verdicts(p.path(), "ref.sciproof.json", 0);
    // FAIL: a modified output file inside the output directory
    p.write("out/log.txt", "changed\n");
    assert_same_verdicts(p.path(), "ref.sciproof.json", 1);
    // FAIL: a modified input (and a directory with a file added and one removed)
    p.write("data.json", "{\"x\": 22}\n");
    p.write("data/new.txt", "n");
    std::fs::remove_file(p.join("data/a.txt")).unwrap();
    assert_same_verdicts(p.path(), "ref.sciproof.json", 1);
    // INCONCLUSIVE: a missing input and nothing failing
    let q = reference_project();
    std::fs::remove_file(q.join("train.sh")).unwrap();
    assert_same_verdicts(q.path(), "ref.sciproof.json", 2);
}

#[test]
fn reference_numeric_outputs_and_snapshots_verify_alike() {
    let p = Project::new();
    let out = reference_cmd(p.path())
        .args([
            "capture",
            "--name",
            "num",
            "--input",
            "data.json",
            "--output",
            "out/log.txt",
        ])
        .args([
            "--output-numeric",
            "out/result.json",
            "--rtol",
            "1e-3",
            "--",
            "sh",
            "train.sh",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_same_verdicts(p.path(), "num.sciproof.json", 0);
    p.write("num.sciproof.d/1-result.json", "{}");
    assert_same_verdicts(p.path(), "num.sciproof.json", 1);
    std::fs::remove_dir_all(p.join("num.sciproof.d")).unwrap();
    assert_same_verdicts(p.path(), "num.sciproof.json", 2);
}

#[test]
fn our_writer_reproduces_reference_manifests_byte_for_byte() {
    let p = reference_project();
    let original = p.read("ref.sciproof.json");
    let m = load_manifest(&p.join("ref.sciproof.json")).unwrap();
    assert_eq!(to_text(&m), original);
}

#[test]
fn our_manifests_verify_with_the_reference_with_the_same_result() {
    let p = Project::new();
    p.write("data/a.txt", "a\n");
    p.write("data/sub/b.txt", "b\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "ours",
            "--input",
            "data.json",
            "--input",
            "train.sh",
            "--input",
            "data",
        ])
        .args([
            "--output",
            "out",
            "--record-hardware",
            "--note",
            "é and \u{1F600}",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success();
    assert_same_verdicts(p.path(), "ours.sciproof.json", 0);
    // the reference reads all of it
    let out = reference_cmd(p.path())
        .args(["inspect", "ours.sciproof.json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    p.write("out/log.txt", "changed\n");
    assert_same_verdicts(p.path(), "ours.sciproof.json", 1);
    std::fs::remove_file(p.join("data.json")).unwrap();
    p.write("out/log.txt", "log 21\n");
    assert_same_verdicts(p.path(), "ours.sciproof.json", 2);

    let q = Project::new();
    q.capture("num");
    assert_same_verdicts(q.path(), "num.sciproof.json", 0);
}

#[test]
fn both_tools_refuse_the_same_broken_manifests() {
    let p = Project::new();
    p.capture("run");
    let text = p.read("run.sciproof.json");
    for (from, to) in [
        ("\"name\": \"run\",", "\"name\": \"run\", \"name\": \"x\","),
        ("\"schema_version\": \"1.0\"", "\"schema_version\": \"2.0\""),
        ("\"path\": \"data.json\"", "\"path\": \"../data.json\""),
        ("\"exit_code\": 0", "\"exit_code\": 0.5"),
    ] {
        p.write("bad.sciproof.json", &text.replacen(from, to, 1));
        let ours = sciproof(p.path())
            .args(["verify", "bad.sciproof.json"])
            .output()
            .unwrap();
        let theirs = reference_cmd(p.path())
            .args(["verify", "bad.sciproof.json"])
            .output()
            .unwrap();
        assert_eq!(ours.status.code(), Some(3), "{to}");
        assert_eq!(theirs.status.code(), Some(3), "{to}");
    }
}

const GENERATOR: &str = r#"
import json, os
import numpy as np
mode = open("mode").read().strip()
tiny = 1e-12 if mode == "changed" else 0.0
big = 0.5 if mode == "changed" else 0.0
os.makedirs("out", exist_ok=True)
with open("out/m.json", "w") as f:
    json.dump({"acc": 0.91 + big, "loss": 0.25 + tiny, "n": 100, "name": "x", "flag": True,
               "vals": [1.0, 2.0 + big, 3.0], "big": 12345678901234567890123}, f)
with open("out/t.csv", "w") as f:
    f.write("id,loss,acc\n")
    for i in range(1, 6):
        f.write(f"{i},{0.1 * i + tiny},{0.5 + (big if i == 3 else 0.0)}\n")
with open("out/t.tsv", "w") as f:
    f.write("id\tloss\n")
    for i in range(1, 4):
        f.write(f"{i}\t{0.2 * i + (big if i == 2 else tiny)}\n")
a = np.arange(12.0).reshape(3, 4)
a[1, 2] += big
a[0, 0] += tiny
np.save("out/a.npy", a)
np.save("out/i.npy", np.arange(6, dtype=np.int32) + (1 if mode == "changed" else 0))
np.save("out/f32.npy", np.linspace(0, 1, 5, dtype=np.float32) * (1 + big))
np.save("out/fort.npy", np.asfortranarray(np.arange(6.0).reshape(2, 3) + big))
"#;

const NUMERIC_OUTPUTS: [&str; 7] = [
    "out/m.json",
    "out/t.csv",
    "out/t.tsv",
    "out/a.npy",
    "out/i.npy",
    "out/f32.npy",
    "out/fort.npy",
];

fn numeric_project(capture_with_reference: bool) -> Project {
    let p = Project::new();
    p.write("gen.py", GENERATOR);
    p.write("mode", "base\n");
    let python = reference_python();
    let mut args: Vec<String> = vec![
        "capture".into(),
        "--name".into(),
        "num".into(),
        "--input".into(),
        "gen.py".into(),
    ];
    for o in NUMERIC_OUTPUTS {
        args.push("--output-numeric".into());
        args.push(o.into());
    }
    args.extend([
        "--tolerance".into(),
        "out/t.csv".into(),
        "rtol=1e-6".into(),
        "--".into(),
    ]);
    args.push(python.to_string_lossy().into_owned());
    args.push("gen.py".into());
    if capture_with_reference {
        let out = reference_cmd(p.path()).args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    } else {
        p.cmd().args(&args).assert().success();
    }
    p.write("mode", "changed\n");
    p
}

fn rerun_ours(dir: &std::path::Path) -> (i32, Value) {
    let out = sciproof(dir)
        .args(["verify", "num.sciproof.json", "--rerun", "--yes", "--json"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        parse(&String::from_utf8(out.stdout).unwrap()).unwrap(),
    )
}

fn rerun_theirs(dir: &std::path::Path) -> (i32, Value) {
    let out = reference_cmd(dir)
        .args(["verify", "num.sciproof.json", "--rerun", "--yes", "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (
        out.status.code().unwrap(),
        parse(&text)
            .unwrap_or_else(|e| panic!("{e}: {text} {}", String::from_utf8_lossy(&out.stderr))),
    )
}

/// `(kind, location, recorded, found)` of every listed difference of a numeric check.
fn detail_keys(check: &Value) -> Vec<(Value, Value, Value, Value)> {
    let ev = field(check, "evidence");
    field(ev, "difference_details")
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                field(d, "kind").clone(),
                field(d, "location").clone(),
                field(d, "recorded").clone(),
                field(d, "found").clone(),
            )
        })
        .collect()
}

fn assert_same_rerun(p: &Project) {
    let (code_ours, ours) = rerun_ours(p.path());
    let (code_theirs, theirs) = rerun_theirs(p.path());
    assert_eq!(code_ours, code_theirs);
    assert_eq!(field(&ours, "result"), field(&theirs, "result"));
    assert_eq!(field(&ours, "counts"), field(&theirs, "counts"));
    let subjects = |r: &Value| statuses(r);
    assert_eq!(subjects(&ours), subjects(&theirs));
    for o in NUMERIC_OUTPUTS {
        let subject = format!("rerun output {o}");
        let (a, b) = (check_for(&ours, &subject), check_for(&theirs, &subject));
        assert_eq!(detail_keys(&a), detail_keys(&b), "{subject}");
        if o.ends_with(".json") || o.ends_with("sv") {
            // ours is the reference's message, then the case and its statistics
            let (ours, theirs) = (
                field(&a, "message").as_str().unwrap(),
                field(&b, "message").as_str().unwrap(),
            );
            assert!(
                ours.strip_prefix(theirs)
                    .is_some_and(|rest| rest.starts_with(" — ")),
                "{subject}: {ours:?} does not extend {theirs:?}"
            );
        }
    }
    assert_eq!(field(&ours, "not_checked"), field(&theirs, "not_checked"));
}

#[test]
fn reruns_of_numeric_outputs_agree_with_the_reference_on_its_manifests() {
    let p = numeric_project(true);
    assert_same_rerun(&p);
    // and once more where everything is equivalent
    p.write("mode", "base\n");
    assert_same_rerun(&p);
}

#[test]
fn reruns_of_numeric_outputs_agree_with_the_reference_on_our_manifests() {
    let p = numeric_project(false);
    assert_same_rerun(&p);
}
