//! `record`: inputs found by the system-call tracer in any language, outputs by what changed,
//! tolerances from two runs; and against the reference on a Python project, the same answer.

use crate::util::{Project, reference_cmd, reference_python};
use std::process::Output;

fn record(p: &Project, args: &[&str]) -> Output {
    p.cmd().arg("record").args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The line after "Equivalent command".
fn equivalent(stdout: &str) -> String {
    let mut lines = stdout.lines();
    lines
        .by_ref()
        .find(|l| l.starts_with("Equivalent command"))
        .expect("the equivalent command");
    lines.next().unwrap().trim().to_string()
}

/// A Python experiment with a stable table, a metric that varies a little between runs, a
/// timestamp, a state file it reads and rewrites, and a configuration.
fn python_project(p: &Project) {
    p.write("cfg.json", "{\"n\": 3}\n");
    p.write("state.txt", "0\n");
    p.write(
        "exp.py",
        "import json, os, random, time\n\
         cfg = json.load(open('cfg.json'))\n\
         count = int(open('state.txt').read()) + 1\n\
         open('state.txt', 'w').write(f'{count}\\n')\n\
         os.makedirs('res', exist_ok=True)\n\
         json.dump({'acc': 0.9 + random.random() * 1e-9, 'n': cfg['n']}, open('res/metrics.json', 'w'))\n\
         open('res/table.csv', 'w').write('x,y\\n1,2\\n')\n\
         open('res/summary.txt', 'w').write('done\\n')\n\
         open('res/stamp.txt', 'w').write(str(time.time_ns()))\n",
    );
}

#[test]
fn a_shell_script_and_the_programs_it_runs_are_recorded_with_their_inputs() {
    let p = Project::new();
    python_project(&p);
    p.write("data.csv", "b,2\na,1\n");
    p.write("run.sh", "python3 exp.py\nsort data.csv > res/sorted.csv\n");
    let out = record(&p, &["--name", "r1", "--", "sh", "run.sh"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.starts_with("Evidence written to r1.sciproof.json\n  inputs found:   4\n  outputs, exact: 1\n  outputs, numeric: 3\n    res/metrics.json: varies between runs, tolerance rtol="), "{stdout}");
    assert!(stdout.contains(
        "  NOT declared: res/stamp.txt (differs between two identical runs and is not JSON/CSV/TSV)"
    ));
    assert!(stdout.contains(
        "  NOT declared: state.txt (read and written by the command: it is state, not a result)"
    ));
    let command = equivalent(&stdout);
    assert!(command.starts_with(
        "sciproof capture --name r1 --input cfg.json --input data.csv --input exp.py --input run.sh --output res/summary.txt --output-numeric res/metrics.json --output-numeric res/sorted.csv --output-numeric res/table.csv --tolerance res/metrics.json rtol="
    ), "the shell script's own inputs are found: {command}");
    assert!(command.ends_with(" -- sh run.sh"));
    // Each run started from the same state: the outputs of runs 1 and 2 were removed, and the
    // state file was changed by each run (three runs: 3).
    assert_eq!(p.read("state.txt"), "3\n");
    // The evidence verifies, and the equivalent command captures the same declarations.
    p.cmd()
        .args(["verify", "r1.sciproof.json"])
        .assert()
        .success();
    let manifest = p.read("r1.sciproof.json");
    assert!(manifest.contains("\"path\": \"data.csv\""));
}

#[test]
fn on_a_python_project_we_record_what_the_reference_records() {
    let ours = Project::new();
    let theirs = Project::new();
    for p in [&ours, &theirs] {
        python_project(p);
    }
    let python = reference_python();
    let python = python.to_str().unwrap();
    let mine = record(&ours, &["--name", "r", "--", python, "exp.py"]);
    assert_eq!(mine.status.code(), Some(0), "{}", text(&mine.stderr));
    let reference = reference_cmd(theirs.path())
        .args(["record", "--name", "r", "--", python, "exp.py"])
        .output()
        .unwrap();
    assert_eq!(
        reference.status.code(),
        Some(0),
        "{}",
        text(&reference.stderr)
    );
    let (mine, reference) = (text(&mine.stdout), text(&reference.stdout));
    // The same declarations; the tolerance of the varying metric comes from random noise, so
    // only its form is compared.
    let strip = |c: String| c.split(" --tolerance").next().unwrap().to_string();
    assert_eq!(strip(equivalent(&mine)), strip(equivalent(&reference)));
    let summary = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| {
                l.starts_with("  ")
                    && !l.contains("varies between runs")
                    && !l.starts_with("  sciproof")
            })
            .map(str::to_string)
            .collect()
    };
    assert_eq!(summary(&mine), summary(&reference));
    // Both manifests verify with either tool.
    ours.cmd()
        .args(["verify", "r.sciproof.json"])
        .assert()
        .success();
    let cross = reference_cmd(ours.path())
        .args(["verify", "r.sciproof.json"])
        .output()
        .unwrap();
    assert_eq!(cross.status.code(), Some(0), "{}", text(&cross.stdout));
}

#[test]
fn runs_that_fail_or_change_nothing_record_nothing() {
    let p = Project::new();
    let out = record(
        &p,
        &["--name", "r", "--", "sh", "-c", "echo oops >&2; exit 3"],
    );
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        text(&out.stderr),
        "error: the first run of the command failed (exit status 3); nothing was recorded\n  last lines of its standard error:\n    oops\n  (record needs a run that succeeds)\n"
    );
    let out = record(&p, &["--name", "r", "--", "true"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stderr).contains("created or changed no file below the working directory"));
    // Not repeatable: the second run fails.
    p.write("log", "");
    p.write(
        "once.sh",
        "grep -q done log && exit 1\necho done >> log\nmkdir -p res\necho 1 > res/x.txt\n",
    );
    let out = record(&p, &["--name", "r", "--", "sh", "once.sh"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("the second run of the command failed (exit status 1)"));
    assert!(!p.join("r.sciproof.json").exists());
    // --fast: one run to find, one to capture, and a note that says so.
    p.write("ok.sh", "mkdir -p res && date +%s%N > res/t.txt\n");
    let out = record(&p, &["--name", "f", "--fast", "--", "sh", "ok.sh"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(
            "  note: determinism was not checked (--fast): every output is assumed stable"
        )
    );
}

/// The status word of each `[..]` line and the result of a calibration.
fn verdicts(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("  [") || l.starts_with("RESULT:"))
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect()
}

#[test]
fn calibrate_measures_the_noise_and_gives_back_everything_as_it_was() {
    let ours = Project::new();
    let theirs = Project::new();
    let python = reference_python();
    let python = python.to_str().unwrap();
    for p in [&ours, &theirs] {
        p.write(
            "exp.py",
            "import json, os, random, time\nos.makedirs('res', exist_ok=True)\n\
             json.dump({'acc': 0.9 + random.random() * 1e-6, 'n': 3}, open('res/metrics.json', 'w'))\n\
             open('res/table.csv', 'w').write('x,y\\n1,2\\n')\n\
             open('res/summary.txt', 'w').write('done\\n')\n\
             open('res/stamp.txt', 'w').write(str(time.time_ns()))\n\
             import numpy\n\
             numpy.save('res/arr.npy', numpy.asfortranarray(numpy.array([[1.0, 2.0], [3.0, 4.0 + random.random() * 1e-6]])))\n",
        );
        let capture = |cmd: &mut std::process::Command| {
            cmd.args([
                "capture",
                "--name",
                "c",
                "--output",
                "res/summary.txt",
                "--output",
                "res/stamp.txt",
                "--output-numeric",
                "res/metrics.json",
                "--output-numeric",
                "res/table.csv",
            ]);
            // sciproof 0.4.1's calibrate stops with a Python ValueError on a .npy output (it
            // compares whole arrays with `!=`), so the array is declared for ours only.
            if std::ptr::eq(p, &ours) {
                cmd.args(["--output-numeric", "res/arr.npy"]);
            }
            cmd.args(["--", python, "exp.py"]);
        };
        if std::ptr::eq(p, &ours) {
            let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sciproof"));
            cmd.current_dir(p.path());
            capture(&mut cmd);
            assert!(cmd.status().unwrap().success());
        } else {
            let mut cmd = reference_cmd(p.path());
            capture(&mut cmd);
            assert!(cmd.status().unwrap().success());
        }
    }
    let before: Vec<String> = ["c.sciproof.json", "res/metrics.json", "res/stamp.txt"]
        .iter()
        .map(|f| ours.read(f))
        .collect();
    let out = ours
        .cmd()
        .args(["calibrate", "c.sciproof.json", "--runs", "3", "--yes"])
        .output()
        .unwrap();
    let mine = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{mine}{}", text(&out.stderr));
    assert!(mine.starts_with(
        "SciProof calibration of 'c' (3 runs of the recorded command, plus the recorded baseline)\n"
    ));
    assert!(
        mine.contains("  [OK] res/summary.txt (exact): identical in every run and as recorded")
    );
    assert!(mine.contains(
        "  [DIFFERS] res/stamp.txt (exact): 3 different contents in 3 runs: not deterministic"
    ));
    assert!(
        mine.contains("  [DIFFERS] res/metrics.json (numeric): varies by up to "),
        "{mine}"
    );
    assert!(mine.contains("value(s) outside the recorded tolerance (rtol=1e-09, atol=0.0)"));
    assert!(mine.contains("           suggestion: --tolerance res/metrics.json 'rtol="));
    assert!(
        mine.contains("  [OK] res/table.csv (numeric): identical in every run and as recorded")
    );
    assert!(mine.ends_with("RESULT: VARIES\n"));
    // Nothing of the evidence or the outputs changed.
    let after: Vec<String> = ["c.sciproof.json", "res/metrics.json", "res/stamp.txt"]
        .iter()
        .map(|f| ours.read(f))
        .collect();
    assert_eq!(before, after);
    ours.cmd()
        .args(["verify", "c.sciproof.json"])
        .assert()
        .success();
    // The reference gives the same verdicts on the same experiment.
    let reference = reference_cmd(theirs.path())
        .args(["calibrate", "c.sciproof.json", "--runs", "3", "--yes"])
        .output()
        .unwrap();
    assert_eq!(reference.status.code(), Some(1));
    let without_array: Vec<String> = verdicts(&mine)
        .into_iter()
        .filter(|v| !v.contains("arr.npy"))
        .collect();
    assert_eq!(without_array, verdicts(&text(&reference.stdout)));
    // Too few runs is a usage error.
    let out = ours
        .cmd()
        .args(["calibrate", "c.sciproof.json", "--runs", "1", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stderr).contains("--runs must be between 2 and 50"));
}

#[test]
fn calibrate_says_so_when_an_original_cannot_be_put_back() {
    let p = Project::new();
    // Every run after the capture turns the output's folder into a file: the original cannot
    // go back to res/out.txt until that file is gone.
    p.write(
        "exp.sh",
        "if [ -e ran ]; then rm -rf res; echo x > res; else mkdir -p res; echo 1 > res/out.txt; touch ran; fi\n",
    );
    p.cmd()
        .args(["capture", "--name", "c", "--output", "res/out.txt"])
        .args(["--", "sh", "exp.sh"])
        .assert()
        .success();
    let out = p
        .cmd()
        .args(["calibrate", "c.sciproof.json", "--runs", "2", "--yes"])
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(!stdout.contains("were not changed"), "{stdout}");
    assert!(
        stderr.contains(
            "the 2 runs finished, but not everything could be put back; could not restore res/out.txt: File exists; the original is kept in .sciproof-work-c.sciproof.json/aside/0"
        ),
        "{stderr}"
    );
    // Once the file in the way is gone, the next sciproof puts the original back.
    std::fs::remove_file(p.path().join("res")).unwrap();
    p.cmd().args(["recover"]).assert().success();
    assert_eq!(p.read("res/out.txt"), "1\n");
    p.cmd()
        .args(["verify", "c.sciproof.json"])
        .assert()
        .success();
}
