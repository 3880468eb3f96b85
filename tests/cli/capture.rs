//! `sciproof capture` driven through the real binary.

use crate::util::*;
use predicates::prelude::*;
use sciproof_core::manifest::{Artifact, Compare, load_manifest};

#[test]
fn capture_writes_a_valid_manifest_with_snapshots_in_reference_order() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--input",
            "data.json",
            "--input",
            "train.sh",
        ])
        .args([
            "--output-numeric",
            "out/result.json",
            "--output",
            "out/log.txt",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Evidence written to run.sciproof.json",
        ))
        .stdout(predicate::str::contains("inputs recorded:   2"));
    let m = load_manifest(&p.join("run.sciproof.json")).unwrap();
    assert_eq!(m.schema_version, "1.0");
    // exact outputs first, then numeric ones; the snapshot index is the position in the list
    assert_eq!(m.outputs[0].path, "out/log.txt");
    assert_eq!(m.outputs[1].path, "out/result.json");
    let Compare::Numeric {
        rtol,
        atol,
        snapshot,
    } = &m.outputs[1].compare
    else {
        panic!("numeric")
    };
    assert_eq!((*rtol, *atol), (1e-9, 0.0));
    assert_eq!(snapshot.path, "run.sciproof.d/1-result.json");
    assert_eq!(
        std::fs::read(p.join("run.sciproof.d/1-result.json")).unwrap(),
        std::fs::read(p.join("out/result.json")).unwrap()
    );
    assert_eq!(m.execution.stdout.text, "done\n");
    let text = p.read("run.sciproof.json");
    assert!(text.ends_with("}\n") && !text.contains('\r'));
    assert!(text.contains("\"rtol\": 1e-09,\n"), "Python float repr");
    // only allow-listed variables are recorded
    assert!(!text.contains("HOME"));
}

#[test]
fn schema_1_1_only_when_a_1_1_feature_is_used() {
    for (extra, expected) in [
        (vec![], "1.0"),
        (vec!["--note", "why"], "1.1"),
        (vec!["--record-hardware"], "1.1"),
        (vec!["--claim", "out/result.json", "$.value >= 1"], "1.1"),
        (vec!["--input", "sub"], "1.1"),
    ] {
        let p = Project::new();
        p.write("sub/a.txt", "a");
        p.cmd()
            .args([
                "capture",
                "--name",
                "r",
                "--input",
                "data.json",
                "--output-numeric",
                "out/result.json",
            ])
            .args(&extra)
            .args(["--", "sh", "train.sh"])
            .assert()
            .success();
        let m = load_manifest(&p.join("r.sciproof.json")).unwrap();
        assert_eq!(m.schema_version, expected, "{extra:?}");
    }
}

#[test]
fn directories_are_recorded_file_by_file_with_the_tree_digest() {
    let p = Project::new();
    p.write("data/a.txt", "a\n");
    p.write("data/sub/b.txt", "b\n");
    std::fs::create_dir_all(p.join("data/empty")).unwrap();
    p.cmd()
        .args([
            "capture", "--name", "d", "--input", "data", "--output", "out", "--", "sh", "train.sh",
        ])
        .assert()
        .success();
    let m = load_manifest(&p.join("d.sciproof.json")).unwrap();
    assert_eq!(
        m.inputs[0].sha256,
        "349f49336edb42e586b3c561d7eef2dd255310484e3b06f628dca1e2f8e247ea"
    );
    let Artifact::Directory { files, .. } = &m.outputs[0].artifact else {
        panic!("directory")
    };
    assert_eq!(
        files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
        ["log.txt", "result.json"]
    );
}

#[test]
fn a_symlink_inside_a_declared_directory_is_refused_and_nothing_is_written() {
    let p = Project::new();
    p.write("data/a.txt", "a");
    std::os::unix::fs::symlink("a.txt", p.join("data/l")).unwrap();
    p.cmd()
        .args(["capture", "--name", "d", "--input", "data", "--", "true"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "input 'data': 'l' is a symbolic link",
        ));
    assert!(!p.join("d.sciproof.json").exists());
}

#[test]
fn a_fifo_input_is_refused_without_hanging() {
    let p = Project::new();
    let fifo = p.join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    p.cmd()
        .args(["capture", "--name", "f", "--input", "pipe", "--", "true"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "input 'pipe' is not a regular file or directory",
        ));
}

#[test]
fn refusals_are_one_line_exit_3_and_write_nothing() {
    let p = Project::new();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--name", ".bad", "--input", "data.json", "--", "true"],
            "invalid name '.bad'",
        ),
        (
            vec!["--name", "a", "--input", "../x", "--", "true"],
            "is outside of the working directory",
        ),
        (
            vec!["--name", "a", "--input", "data.json"],
            "no command given",
        ),
        (
            vec!["--name", "a", "--", "true"],
            "declare at least one --input",
        ),
        (
            vec!["--name", "a", "--input", "nope.txt", "--", "true"],
            "input file not found: nope.txt",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--output",
                "data.json",
                "--",
                "true",
            ],
            "cannot be both input and output",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--input",
                "./data.json",
                "--",
                "true",
            ],
            "--input contains the same path more than once",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--rtol",
                "nan",
                "--",
                "true",
            ],
            "rtol and atol must be finite",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--timeout",
                "0",
                "--",
                "true",
            ],
            "timeout must be a positive number",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--max-log-bytes",
                "-1",
                "--",
                "true",
            ],
            "max-log-bytes must not be negative",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--tolerance",
                "x.csv",
                "foo=1",
                "--",
                "true",
            ],
            "expected 'rtol=X', 'atol=Y' or both",
        ),
        (
            vec![
                "--name",
                "a",
                "--output-numeric",
                "o.json",
                "--tolerance",
                "p.json",
                "rtol=1",
                "--",
                "true",
            ],
            "tolerance for 'p.json': the file must be declared with --output-numeric",
        ),
        (
            vec![
                "--name", "a", "--output", "o.json", "--claim", "p.json", "$.a == 1", "--", "true",
            ],
            "claim on 'p.json': the file must be declared",
        ),
        (
            vec![
                "--name", "a", "--output", "o.json", "--claim", "o.json", "$.a => 1", "--", "true",
            ],
            "unknown comparison '=>'",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--note",
                "  ",
                "--",
                "true",
            ],
            "the note must be 1 to 2000 characters",
        ),
        (
            vec!["--name", "a", "--input", "a.sciproof.json", "--", "true"],
            "is where the evidence of this capture is written",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--",
                "no-such-command-xyz",
            ],
            "cannot start 'no-such-command-xyz'",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--typo",
                "--",
                "true",
            ],
            "unrecognized option '--typo'",
        ),
        (
            vec![
                "--name",
                "a",
                "--input",
                "data.json",
                "--out",
                "x",
                "--",
                "true",
            ],
            "ambiguous option: --out could match --output, --output-numeric",
        ),
    ];
    for (args, message) in cases {
        let out = p.cmd().arg("capture").args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(
            stderr.contains(message),
            "{args:?}: expected {message:?} in {stderr:?}"
        );
        assert!(
            !p.join("a.sciproof.json").exists(),
            "{args:?} wrote a manifest"
        );
    }
}

#[test]
fn an_existing_manifest_needs_force_and_a_failed_forced_capture_keeps_the_old_evidence() {
    let p = Project::new();
    p.capture("run");
    let before = p.read("run.sciproof.json");
    let snapshot = p.read("run.sciproof.d/1-result.json");
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--input",
            "data.json",
            "--",
            "true",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "run.sciproof.json already exists (use --force to overwrite it)",
        ));
    // a forced capture whose command modifies an input fails and changes nothing
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--force",
            "--input",
            "data.json",
            "--output-numeric",
            "out/result.json",
        ])
        .args([
            "--",
            "sh",
            "-c",
            "echo '{\"value\": 1}' > out/result.json; echo x >> data.json",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "the command modified or removed the declared input 'data.json'",
        ));
    assert_eq!(p.read("run.sciproof.json"), before);
    assert_eq!(p.read("run.sciproof.d/1-result.json"), snapshot);
    let leftovers: Vec<_> = std::fs::read_dir(p.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.ends_with(".tmp")
                || n.starts_with(".sciproof-old")
                || n.starts_with(".run.sciproof.d")
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn force_replaces_snapshots_and_removes_them_when_no_longer_numeric() {
    let p = Project::new();
    p.capture("run");
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--force",
            "--input",
            "data.json",
            "--output",
            "out/result.json",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success();
    assert!(!p.join("run.sciproof.d").exists());
    p.capture("run2");
    assert!(p.join("run2.sciproof.d/1-result.json").exists());
}

#[test]
fn a_failing_command_is_recorded_and_missing_outputs_are_absent() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--name",
            "f",
            "--input",
            "data.json",
            "--output",
            "never.txt",
            "--",
            "sh",
            "-c",
            "echo oops >&2; exit 4",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "The command failed (exit code 4); the failure was recorded.",
        ));
    let m = load_manifest(&p.join("f.sciproof.json")).unwrap();
    assert_eq!(m.execution.exit_code, 4);
    assert!(!m.outputs[0].present);
    assert_eq!(m.execution.stderr.text, "oops\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "g",
            "--allow-nonzero",
            "--input",
            "data.json",
            "--",
            "false",
        ])
        .assert()
        .success();
    p.cmd()
        .args([
            "capture",
            "--name",
            "h",
            "--input",
            "data.json",
            "--output",
            "never.txt",
            "--",
            "true",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "the command succeeded but the declared output 'never.txt' does not exist",
        ));
}

#[test]
fn a_timeout_writes_no_evidence() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--name",
            "t",
            "--input",
            "data.json",
            "--timeout",
            "0.5",
            "--",
            "sh",
            "-c",
            "sleep 20",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "command did not finish within 0.5 seconds; no evidence was written",
        ));
    assert!(!p.join("t.sciproof.json").exists());
}

#[test]
fn logs_are_hashed_in_full_and_stored_up_to_the_limit() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--name",
            "l",
            "--input",
            "data.json",
            "--max-log-bytes",
            "4",
            "--",
            "sh",
            "-c",
            "printf 'héllo world'",
        ])
        .assert()
        .success();
    let m = load_manifest(&p.join("l.sciproof.json")).unwrap();
    assert_eq!(m.execution.stdout.size, 12);
    assert!(m.execution.stdout.truncated);
    assert_eq!(m.execution.stdout.text, "h\u{e9}l");
    assert_eq!(
        m.execution.stdout.sha256,
        sciproof_core::hash::sha256_bytes("héllo world".as_bytes())
    );
}

#[test]
fn the_command_is_everything_after_the_first_word_and_never_a_shell() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--input",
            "data.json",
            "--name",
            "c",
            "echo",
            "--name",
            "zz; rm data.json",
        ])
        .assert()
        .success();
    let m = load_manifest(&p.join("c.sciproof.json")).unwrap();
    assert_eq!(m.command.argv, ["echo", "--name", "zz; rm data.json"]);
    assert!(p.join("data.json").exists());
    assert_eq!(m.execution.stdout.text, "--name zz; rm data.json\n");
}

#[test]
fn tolerances_and_claims_are_stored() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--name",
            "c",
            "--rtol",
            "1e-6",
            "--output-numeric",
            "out/result.json",
        ])
        .args(["--tolerance", "out/result.json", "atol=0.5"])
        .args([
            "--claim",
            "out/result.json",
            "$.value ~= 42 atol=1",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success();
    let m = load_manifest(&p.join("c.sciproof.json")).unwrap();
    let Compare::Numeric { rtol, atol, .. } = &m.outputs[0].compare else {
        panic!()
    };
    assert_eq!((*rtol, *atol), (1e-6, 0.5));
    assert_eq!(
        m.claims[0].text(),
        "out/result.json: $.value ~= 42 (rtol=0.0, atol=1.0)"
    );
}

#[test]
fn large_rtol_warns() {
    let p = Project::new();
    p.cmd()
        .args([
            "capture",
            "--name",
            "w",
            "--rtol",
            "1.5",
            "--output-numeric",
            "out/result.json",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning: rtol=1.5 is 1 or more"));
}

#[test]
fn inspect_shows_the_manifest_and_never_executes() {
    let p = Project::new();
    p.capture("run");
    // The recorded command now leaves a marker when it runs; inspect must not run it.
    p.write("train.sh", "touch executed-marker\n");
    let text = p.read("run.sciproof.json");
    p.cmd()
        .args(["inspect", "run.sciproof.json"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Command (recorded, NOT executed by 'inspect'):\n  sh train.sh",
        ))
        .stdout(predicate::str::contains("out/result.json  sha256:"))
        .stdout(predicate::str::contains(
            "compare: numeric (rtol=1e-09, atol=0.0)",
        ));
    assert!(
        !p.join("executed-marker").exists(),
        "inspect executed the command"
    );
    assert_eq!(
        p.read("run.sciproof.json"),
        text,
        "inspect changed the manifest"
    );
    // The marker is real: running the command does leave it.
    std::process::Command::new("sh")
        .arg("train.sh")
        .current_dir(p.path())
        .status()
        .unwrap();
    assert!(p.join("executed-marker").exists());
}

#[test]
fn an_input_changed_by_the_command_is_caught_even_with_its_mtime_restored() {
    let p = Project::new();
    p.write("data/a.txt", "a");
    p.write("data/b.txt", "b");
    // (The unchanged-status fast path itself is tested with an injected start time, in
    // src/capture/mod.rs; here the change is caught whichever path is taken.)
    let cases = [
        (
            "data.json",
            "cp data.json keep; echo '{\"x\": 22}' > data.json; touch -r keep data.json; rm keep",
        ),
        (
            "data",
            "cp data/a.txt keep; echo z > data/a.txt; touch -r keep data/a.txt; rm keep",
        ),
        ("data", "echo new > data/c.txt"),
        ("data", "rm data/b.txt"),
    ];
    for (input, script) in cases {
        p.cmd()
            .args([
                "capture", "--name", "m", "--input", input, "--", "sh", "-c", script,
            ])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(format!(
                "the command modified or removed the declared input '{input}'"
            )));
        assert!(!p.join("m.sciproof.json").exists());
    }
    p.cmd()
        .args([
            "capture",
            "--name",
            "ok",
            "--input",
            "data",
            "--input",
            "data.json",
            "--",
            "true",
        ])
        .assert()
        .success();
}

// ---- Rules of the numeric comparison seed (../shared/seeds/numeric-comparison.txt) ----

#[test]
fn seed_numeric_negative_rtol_or_atol_is_refused_at_capture() {
    let p = Project::new();
    for args in [
        &["--rtol", "-1e-9"][..],
        &["--atol", "-0.5"],
        &["--tolerance", "out/result.json", "rtol=-1"],
        &["--tolerance", "out/result.json", "atol=-1e-3"],
    ] {
        let out = p
            .cmd()
            .args([
                "capture",
                "--name",
                "n",
                "--output-numeric",
                "out/result.json",
            ])
            .args(args)
            .args(["--", "sh", "train.sh"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("not be negative") || stderr.contains("not negative"),
            "{args:?}: {stderr}"
        );
        assert!(!p.join("n.sciproof.json").exists());
        assert!(!p.join("out").exists(), "{args:?}: the command ran");
    }
}

#[test]
fn seed_numeric_the_large_rtol_warning_starts_at_one_also_per_output() {
    let p = Project::new();
    let warns = |args: &[&str]| -> bool {
        let out = p
            .cmd()
            .args([
                "capture",
                "--name",
                "w",
                "--force",
                "--output-numeric",
                "out/result.json",
            ])
            .args(args)
            .args(["--", "sh", "train.sh"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).contains("is 1 or more")
    };
    assert!(warns(&["--rtol", "1"]), "the boundary warns");
    assert!(!warns(&["--rtol", "0.9999999"]));
    assert!(
        warns(&["--tolerance", "out/result.json", "rtol=1"]),
        "a per-output rtol warns"
    );
    assert!(
        !warns(&["--rtol", "5", "--tolerance", "out/result.json", "rtol=0.5"]),
        "the default is not used"
    );
}

#[test]
fn seed_numeric_text_is_compared_without_unicode_normalisation() {
    let p = Project::new();
    p.write(
        "make.sh",
        "printf '{\"name\": \"caf\\303\\251\"}' > t.json\n",
    ); // é precomposed
    p.cmd()
        .args([
            "capture",
            "--name",
            "u",
            "--output-numeric",
            "t.json",
            "--",
            "sh",
            "make.sh",
        ])
        .assert()
        .success();
    p.write(
        "make.sh",
        "printf '{\"name\": \"cafe\\314\\201\"}' > t.json\n",
    ); // e + combining acute
    let out = p
        .cmd()
        .args(["verify", "u.sciproof.json", "--rerun", "--yes", "--json"])
        .output()
        .unwrap();
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let c = check_for(&r, "rerun output t.json");
    assert_eq!(
        field(&c, "status").as_str(),
        Some("FAIL"),
        "the same text to a reader, not to us: {c:?}"
    );
}

#[test]
fn seed_numeric_csv_cells_written_differently_compare_as_numbers() {
    let p = Project::new();
    p.write("make.sh", "printf 'a,b\\n1.0,2e3\\n' > t.csv\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "c",
            "--rtol",
            "0",
            "--output-numeric",
            "t.csv",
            "--",
            "sh",
            "make.sh",
        ])
        .assert()
        .success();
    p.write("make.sh", "printf 'a,b\\n1.00,2000\\n' > t.csv\n");
    let out = p
        .cmd()
        .args(["verify", "c.sciproof.json", "--rerun", "--yes", "--json"])
        .output()
        .unwrap();
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let c = check_for(&r, "rerun output t.csv");
    assert_eq!(field(&c, "status").as_str(), Some("PASS"), "{c:?}");
    assert_eq!(
        field(&c, "message").as_str(),
        Some("numerically equivalent (rtol=0.0, atol=0.0) — bit-identical: all 4 values")
    );
}

#[test]
fn an_output_the_command_puts_behind_a_link_out_of_the_folder_is_refused() {
    let elsewhere = tempfile::tempdir().unwrap();
    let p = Project::new();
    let link = format!(
        "rm -rf res; ln -s {} res; echo new > res/out.txt",
        elsewhere.path().display()
    );
    // capture: nothing is written.
    // Each refusal: exit 3 and its standard error.
    let refused = |args: &[&str]| {
        let out = p.cmd().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let stderr = refused(&[
        "capture",
        "--name",
        "l",
        "--output",
        "res/out.txt",
        "--",
        "sh",
        "-c",
        &link,
    ]);
    assert!(
        stderr.contains("path 'res/out.txt' resolves outside of ")
            && stderr.contains(" after the run: the command put a link on its way, so it is not an output in this folder. No evidence was written."),
        "{stderr}"
    );
    assert!(!p.join("l.sciproof.json").exists());
    // update: refused the same way, and the original is kept where the message says.
    std::fs::remove_file(p.join("res")).unwrap();
    p.cmd()
        .args(["capture", "--name", "l", "--output", "res/out.txt", "--"])
        .args(["sh", "-c", "mkdir -p res; echo orig > res/out.txt"])
        .assert()
        .success();
    let before = p.read("l.sciproof.json");
    let manifest = p.read("l.sciproof.json").replace(
        "\"mkdir -p res; echo orig > res/out.txt\"",
        &format!("{:?}", link),
    );
    assert_ne!(manifest, before, "the command was replaced");
    std::fs::write(p.join("l.sciproof.json"), &manifest).unwrap();
    let stderr = refused(&["update", "l.sciproof.json", "--yes"]);
    assert!(
        stderr.contains("the command put a link on its way")
            && stderr.contains("the original is kept in .sciproof-work-l.sciproof.json/aside/0"),
        "{stderr}"
    );
    assert_eq!(p.read("l.sciproof.json"), manifest);
}
