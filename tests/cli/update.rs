//! `sciproof update` through the real binary.

use crate::util::*;
use predicates::prelude::*;
use sciproof_core::manifest::{Compare, load_manifest};

#[test]
fn update_recaptures_with_the_same_declarations_and_shows_the_diff() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--input",
            "data.json",
            "--output",
            "out/log.txt",
            "--output-numeric",
            "out/result.json",
        ])
        .args([
            "--tolerance",
            "out/result.json",
            "rtol=1e-3",
            "--claim",
            "out/result.json",
            "$.value ~= 42.5 printed",
            "--note",
            "first",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success();
    p.write("data.json", "{\"x\": 22}\n");
    p.cmd()
        .args(["update", "run.sciproof.json", "--dry-run"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "outputs removed first (restored if the capture fails): out/log.txt, out/result.json",
        ));
    p.cmd()
        .args(["update", "run.sciproof.json", "--yes", "--note", "second"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Updated run.sciproof.json (command exit code 0)"))
        .stdout(predicate::str::contains("~ note: first -> second"))
        .stdout(predicate::str::contains("~ data.json: content changed"))
        .stdout(predicate::str::contains("outside the baseline tolerance (rtol=0.001, atol=0.0): $.value: recorded 42.5, found 44.5"));
    let m = load_manifest(&p.join("run.sciproof.json")).unwrap();
    let Compare::Numeric { rtol, .. } = &m.outputs[1].compare else {
        panic!()
    };
    assert_eq!(*rtol, 1e-3, "the per-output tolerance is kept");
    assert_eq!(
        m.claims[0].text(),
        "out/result.json: $.value ~= 42.5 printed"
    );
    assert_eq!(m.note.as_deref(), Some("second"));
    // The printed claim no longer holds, and that is the only failure.
    let (code, report) = p.verify_json("run.sciproof.json");
    assert_eq!(code, 1);
    let failed: Vec<(String, String)> = statuses(&report)
        .into_iter()
        .filter(|(status, _)| status == "FAIL")
        .collect();
    assert_eq!(
        failed,
        [(
            "FAIL".to_string(),
            "claim out/result.json: $.value ~= 42.5 printed".to_string()
        )]
    );
}

#[test]
fn a_failing_update_keeps_the_old_evidence_and_outputs() {
    let p = Project::new();
    p.capture_without_script("run");
    let before = p.read("run.sciproof.json");
    let log = p.read("out/log.txt");
    p.write("train.sh", "exit 0\n"); // declared outputs are now missing: the capture is refused
    p.cmd()
        .args(["update", "run.sciproof.json", "--yes"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("does not exist"));
    assert_eq!(p.read("run.sciproof.json"), before);
    assert_eq!(p.read("out/log.txt"), log);
    assert!(p.join("run.sciproof.d/1-result.json").exists());
}

#[test]
fn refusals() {
    let p = Project::new();
    p.capture("run");
    std::fs::copy(p.join("run.sciproof.json"), p.join("renamed.sciproof.json")).unwrap();
    p.cmd()
        .args(["update", "renamed.sciproof.json", "--yes"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("renamed.sciproof.json is not named after its experiment (run.sciproof.json); rename it back before updating"));
    p.cmd()
        .args(["update", "run.sciproof.json"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "no terminal to ask for confirmation",
        ));
}

/// `update run.sciproof.json --yes`: the exit code and standard error.
fn failed_update(p: &Project) -> (Option<i32>, String) {
    let out = p
        .cmd()
        .args(["update", "run.sciproof.json", "--yes"])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_update_whose_command_now_fails_records_the_failure_and_keeps_the_old_evidence() {
    let p = Project::new();
    p.capture_without_script("run");
    let before = p.read("run.sciproof.json");
    p.write("train.sh", "mkdir -p out; echo partial > out/log.txt; echo '{\"value\": 1.0}' > out/result.json; exit 2\n");
    let (code, stderr) = failed_update(&p);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("the previous evidence and outputs are kept in .sciproof-update-"),
        "{stderr}"
    );
    let m = load_manifest(&p.join("run.sciproof.json")).unwrap();
    assert_eq!(m.execution.exit_code, 2);
    let kept = std::fs::read_dir(p.path())
        .unwrap()
        .flatten()
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".sciproof-update-")
        })
        .unwrap()
        .path();
    assert_eq!(
        std::fs::read_to_string(kept.join("run.sciproof.json")).unwrap(),
        before
    );
    // The old outputs are kept at their own paths, and nothing else is left behind.
    assert_eq!(
        std::fs::read_to_string(kept.join("out/log.txt")).unwrap(),
        "log 21\n"
    );
    let leftovers: Vec<String> = std::fs::read_dir(p.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".sciproof-") && !n.starts_with(".sciproof-update-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_failing_update_says_which_previous_output_the_command_removed() {
    let p = Project::new();
    p.capture_without_script("run");
    // The command cleans everything untracked, sciproof's work folder with it, and fails.
    p.write(
        "train.sh",
        "rm -rf .sciproof-work-*; mkdir -p out; echo partial > out/log.txt; echo '{\"value\": 1.0}' > out/result.json; exit 2\n",
    );
    let (code, stderr) = failed_update(&p);
    assert_eq!(code, Some(1));
    for (index, path) in ["out/log.txt", "out/result.json"].iter().enumerate() {
        assert!(
            stderr.contains(&format!("warning: the original of {path} is gone: something removed .sciproof-work-run.sciproof.json/aside/{index} while the command ran")),
            "{stderr}"
        );
    }
    assert!(stderr.contains("-previous/ does not hold it"), "{stderr}");
}
