//! `sciproof verify --rerun` driven through the real binary.

use crate::util::*;
use predicates::prelude::*;
use sciproof_core::json::Value;

fn rerun_json(p: &Project, manifest: &str, extra: &[&str]) -> (i32, Value) {
    let out = p
        .cmd()
        .args(["verify", manifest, "--rerun", "--yes", "--json"])
        .args(extra)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let v = sciproof_core::json::parse(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v)
}

/// `verify MANIFEST --rerun --yes` as text: the exit code and standard output.
fn rerun_text(p: &Project, manifest: &str) -> (Option<i32>, String) {
    let out = p
        .cmd()
        .args(["verify", manifest, "--rerun", "--yes"])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn status_of(report: &Value, subject: &str) -> String {
    field(&check_for(report, subject), "status")
        .as_str()
        .unwrap()
        .to_string()
}

fn listing(p: &Project) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(p.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_deterministic_command_reproduces_and_leaves_the_tree_as_it_was() {
    let p = Project::new();
    p.capture("run");
    let before = listing(&p);
    let (code, r) = rerun_json(&p, "run.sciproof.json", &[]);
    assert_eq!(code, 0, "{}", sciproof_core::json::to_string_pretty(&r));
    assert_eq!(status_of(&r, "exit code"), "PASS");
    assert_eq!(status_of(&r, "rerun output out/log.txt"), "PASS");
    let numeric = check_for(&r, "rerun output out/result.json");
    assert_eq!(
        field(&numeric, "message").as_str(),
        Some(
            "numerically equivalent (rtol=1e-09, atol=0.0) — bit-identical: byte for byte the recorded copy"
        )
    );
    let ev = field(&numeric, "evidence");
    let keys: Vec<&str> = ev.as_object().unwrap().iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        [
            "kind",
            "path",
            "rtol",
            "atol",
            "rule",
            "differences",
            "difference_details",
            "error",
            "statistics"
        ]
    );
    let statistics = field(ev, "statistics");
    assert_eq!(field(statistics, "case").as_str(), Some("bit_identical"));
    assert_eq!(field(statistics, "byte_identical"), &Value::Bool(true));
    assert_eq!(field(statistics, "total"), &Value::Null);
    assert_eq!(field(&r, "rerun_executed"), &Value::Bool(true));
    assert_eq!(field(&r, "rerun_outputs_dir"), &Value::Null);
    assert_eq!(listing(&p), before, "nothing left behind");
    let not_checked = field(&r, "not_checked").as_array().unwrap();
    assert!(
        not_checked
            .iter()
            .all(|i| i.as_str() != Some("reproducibility: the recorded command was not executed"))
    );
}

#[test]
fn numeric_differences_outside_the_tolerance_fail_with_details_and_outputs_are_restored() {
    let p = Project::new();
    p.capture_without_script("run");
    let original = p.read("out/result.json");
    p.write("data.json", "{\"x\": 21}\n");
    // the same input, but the command now computes something else
    p.write("train.sh", &p.read("train.sh").replace("%s.5", "%s.75"));
    let (code, r) = rerun_json(&p, "run.sciproof.json", &[]);
    assert_eq!(code, 1);
    // train.sh is not a declared input here, so the rerun ran
    let c = check_for(&r, "rerun output out/result.json");
    assert_eq!(field(&c, "status").as_str(), Some("FAIL"));
    assert_eq!(
        field(&c, "message").as_str(),
        Some(
            "outside the declared tolerance: $.value: recorded 42.5, found 42.75 (rtol=1e-09, atol=0.0) — different: 1 of 2 values (50%) outside the tolerance, largest absolute error 0.25 at $.value, largest relative error 0.00585 at $.value"
        )
    );
    let detail = &field(field(&c, "evidence"), "difference_details")
        .as_array()
        .unwrap()[0];
    assert_eq!(field(detail, "kind").as_str(), Some("number"));
    assert_eq!(field(detail, "location").as_str(), Some("$.value"));
    assert_eq!(field(detail, "abs_diff"), &Value::from(0.25));
    assert_eq!(
        p.read("out/result.json"),
        original,
        "the user's output is back"
    );
    let dir = field(&r, "rerun_outputs_dir").as_str().unwrap().to_string();
    assert!(dir.starts_with(".sciproof-rerun-"));
    assert!(p.read(&format!("{dir}/out/result.json")).contains("42.75"));
}

fn capture_custom(p: &Project, name: &str, extra: &[&str], script: &str) {
    p.write("run.sh", script);
    p.cmd()
        .args(["capture", "--name", name, "--input", "data.json"])
        .args(extra)
        .args(["--", "sh", "run.sh"])
        .assert()
        .success();
}

#[test]
fn tolerances_are_applied_per_output() {
    let p = Project::new();
    p.write("counter", "0");
    let script = "n=$(cat counter); echo $((n+1)) > counter; mkdir -p out; echo \"{\\\"loss\\\": 1.00$n}\" > out/loss.json; echo \"{\\\"n\\\": 1.0$n}\" > out/n.json\n";
    capture_custom(
        &p,
        "t",
        &[
            "--output-numeric",
            "out/loss.json",
            "--output-numeric",
            "out/n.json",
            "--tolerance",
            "out/loss.json",
            "atol=0.01",
        ],
        script,
    );
    let (code, r) = rerun_json(&p, "t.sciproof.json", &[]);
    assert_eq!(code, 1);
    assert_eq!(status_of(&r, "rerun output out/loss.json"), "PASS");
    assert_eq!(status_of(&r, "rerun output out/n.json"), "FAIL");
}

#[test]
fn a_changed_exit_code_and_a_missing_output_fail() {
    let p = Project::new();
    p.write("flag", "");
    capture_custom(
        &p,
        "e",
        &["--output", "out.txt"],
        "if [ -f flag ]; then echo x > out.txt; exit 0; fi; exit 3\n",
    );
    std::fs::remove_file(p.join("flag")).unwrap();
    let (code, r) = rerun_json(&p, "e.sciproof.json", &[]);
    assert_eq!(code, 1);
    let c = check_for(&r, "exit code");
    assert_eq!(
        field(&c, "message").as_str(),
        Some("rerun exited with 3, recorded 0")
    );
    assert_eq!(
        field(&check_for(&r, "rerun output out.txt"), "message").as_str(),
        Some("the rerun did not produce this file")
    );
    assert_eq!(p.read("out.txt"), "x\n", "restored");
}

#[test]
fn an_exact_output_that_changes_fails_and_suggests_numeric_comparison() {
    let p = Project::new();
    capture_custom(
        &p,
        "x",
        &["--output", "stamp.txt"],
        "date +%s%N > stamp.txt\n",
    );
    let (code, r) = rerun_json(&p, "x.sciproof.json", &[]);
    assert_eq!(code, 1);
    assert!(
        field(&check_for(&r, "rerun output stamp.txt"), "message")
            .as_str()
            .unwrap()
            .contains("capture it with --output-numeric")
    );
}

#[test]
fn without_yes_and_without_a_terminal_the_rerun_is_refused_and_nothing_runs() {
    let p = Project::new();
    p.capture_without_script("run");
    p.write("train.sh", "touch ran\n");
    p.cmd()
        .args(["verify", "run.sciproof.json", "--rerun"])
        .write_stdin("yes\n")
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "no terminal to ask for confirmation; re-run with --yes",
        ));
    assert!(!p.join("ran").exists());
}

#[test]
fn a_timeout_is_inconclusive_and_restores_the_outputs() {
    let p = Project::new();
    capture_custom(&p, "s", &["--output", "out.txt"], "echo done > out.txt\n");
    p.write("run.sh", "echo partial > out.txt; sleep 30\n");
    let (code, r) = rerun_json(&p, "s.sciproof.json", &["--timeout", "0.5"]);
    // The command was stopped, not waited for: nothing of it is left running.
    assert_eq!(processes_in(p.path()), Vec::<String>::new());
    assert_eq!(code, 2);
    assert_eq!(
        field(&check_for(&r, "rerun"), "message").as_str(),
        Some("command did not finish within 0.5 seconds")
    );
    assert_eq!(p.read("out.txt"), "done\n");
    let dir = field(&r, "rerun_outputs_dir").as_str().unwrap().to_string();
    assert_eq!(p.read(&format!("{dir}/out.txt")), "partial\n");
    assert_eq!(
        field(&r, "not_checked").as_array().unwrap()[0].as_str(),
        Some("reproducibility: the recorded command was not executed")
    );
}

#[test]
fn a_missing_command_and_modified_inputs_are_inconclusive_without_running() {
    let p = Project::new();
    p.capture("run");
    p.write("data.json", "{\"x\": 1}\n");
    let (code, r) = rerun_json(&p, "run.sciproof.json", &[]);
    assert_eq!(code, 1); // the modified input itself fails
    assert!(
        field(&check_for(&r, "rerun"), "message")
            .as_str()
            .unwrap()
            .starts_with("not attempted: declared inputs are missing")
    );

    let q = Project::new();
    q.cmd()
        .args([
            "capture",
            "--name",
            "m",
            "--input",
            "data.json",
            "--",
            "sh",
            "-c",
            "true",
        ])
        .assert()
        .success();
    let text = q
        .read("m.sciproof.json")
        .replace("\"sh\"", "\"no-such-tool-xyz\"");
    q.write("m.sciproof.json", &text);
    let (code, r) = rerun_json(&q, "m.sciproof.json", &[]);
    assert_eq!(code, 2);
    assert_eq!(
        field(&check_for(&r, "rerun"), "message").as_str(),
        Some("cannot start 'no-such-tool-xyz': No such file or directory (is it installed here?)")
    );
}

#[test]
fn clean_env_passes_only_the_minimal_set_and_names_it() {
    let p = Project::new();
    capture_custom(
        &p,
        "c",
        &["--output", "env.txt"],
        "env | cut -d= -f1 | grep -v '^PWD$' | grep -v '^SHLVL$' | grep -v '^_$' | sort > env.txt\n",
    );
    let out = p
        .cmd()
        .env("SCIPROOF_SECRET", "hunter2")
        .env("KEEP_ME", "1")
        .args([
            "verify",
            "c.sciproof.json",
            "--rerun",
            "--yes",
            "--json",
            "--clean-env",
            "--pass-env",
            "KEEP_ME",
            "--pass-env",
            "NOT_SET_ANYWHERE",
        ])
        .output()
        .unwrap();
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(field(&r, "clean_env"), &Value::Bool(true));
    let passed: Vec<&str> = field(&r, "env_passed")
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        passed.contains(&"PATH")
            && passed.contains(&"KEEP_ME")
            && !passed.contains(&"SCIPROOF_SECRET")
    );
    let dir = field(&r, "rerun_outputs_dir").as_str().unwrap().to_string();
    let seen = p.read(&format!("{dir}/env.txt"));
    assert!(
        seen.contains("KEEP_ME") && !seen.contains("SCIPROOF_SECRET") && !seen.contains("HOME"),
        "{seen}"
    );
    let notes = sciproof_core::json::to_string_compact(field(&r, "notes"));
    assert!(notes.contains("requested with --pass-env but not set: NOT_SET_ANYWHERE"));
    assert!(!sciproof_core::json::to_string_compact(&r).contains("hunter2"));
}

#[test]
fn strict_env_stops_before_running_when_the_environment_differs() {
    let p = Project::new();
    p.capture_without_script("run");
    p.write("train.sh", "touch ran\n");
    let out = p
        .cmd()
        .env("OMP_NUM_THREADS", "3")
        .args([
            "verify",
            "run.sciproof.json",
            "--rerun",
            "--yes",
            "--strict-env",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(
        field(&check_for(&r, "environment"), "message").as_str(),
        Some(
            "differs from the recorded one (--strict-env): environment variable OMP_NUM_THREADS is set now, was not at capture time"
        )
    );
    assert!(!p.join("ran").exists());
    // without --strict-env the difference is only a warning
    let out = p
        .cmd()
        .env("OMP_NUM_THREADS", "3")
        .args(["verify", "run.sciproof.json", "--rerun", "--yes", "--json"])
        .output()
        .unwrap();
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert!(
        sciproof_core::json::to_string_compact(field(&r, "warnings"))
            .contains("OMP_NUM_THREADS is set now")
    );
}

#[test]
fn directories_the_rerun_creates_are_removed_and_existing_ones_kept() {
    let p = Project::new();
    capture_custom(
        &p,
        "d",
        &["--output", "deep/a/b.txt", "--output", "keep/c.txt"],
        "mkdir -p deep/a keep; echo b > deep/a/b.txt; echo c > keep/c.txt\n",
    );
    std::fs::remove_dir_all(p.join("deep")).unwrap();
    std::fs::remove_file(p.join("keep/c.txt")).unwrap();
    let (_, r) = rerun_json(&p, "d.sciproof.json", &[]);
    assert!(
        !p.join("deep").exists(),
        "created by the rerun, removed again"
    );
    assert!(p.join("keep").is_dir(), "existed before, kept");
    assert!(field(&r, "rerun_outputs_dir").as_str().is_some());
}

#[test]
fn directory_outputs_are_compared_file_by_file() {
    let p = Project::new();
    p.write("counter", "0");
    capture_custom(
        &p,
        "dir",
        &["--output", "res"],
        "n=$(cat counter); echo $((n+1)) > counter; mkdir -p res; echo same > res/a.txt; echo $n > res/b.txt\n",
    );
    let (code, r) = rerun_json(&p, "dir.sciproof.json", &[]);
    assert_eq!(code, 1);
    assert_eq!(
        field(&check_for(&r, "rerun output res"), "message").as_str(),
        Some("differs from the recorded directory: 1 modified (b.txt)")
    );
    assert_eq!(p.read("res/b.txt"), "0\n");
}

#[test]
fn a_rerun_output_that_cannot_be_parsed_fails_with_the_reason() {
    let p = Project::new();
    p.write("counter", "0");
    capture_custom(
        &p,
        "j",
        &["--output-numeric", "m.json"],
        "n=$(cat counter); echo $((n+1)) > counter; if [ $n = 0 ]; then echo '{\"a\": 1}' > m.json; else echo '{\"a\": 1, \"a\": 2}' > m.json; fi\n",
    );
    let (code, r) = rerun_json(&p, "j.sciproof.json", &[]);
    assert_eq!(code, 1);
    let c = check_for(&r, "rerun output m.json");
    assert!(field(&c, "message").as_str().unwrap().starts_with(
        "cannot be compared numerically: m.json is not valid JSON: duplicate object key 'a'"
    ));
    assert_eq!(field(field(&c, "evidence"), "differences"), &Value::Null);
}

#[test]
fn capture_refuses_numeric_outputs_that_cannot_be_compared() {
    let p = Project::new();
    for (file, content, message) in [
        (
            "dup.json",
            "{\"a\": 1, \"a\": 2}",
            "dup.json is not valid JSON: duplicate object key 'a'",
        ),
        (
            "r.txt",
            "1",
            "numeric comparison supports .json, .csv, .tsv, .npy and .npz files, got 'r.txt'",
        ),
    ] {
        p.write(file, content);
        let out = p
            .cmd()
            .args([
                "capture",
                "--name",
                "n",
                "--output-numeric",
                file,
                "--",
                "true",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{file}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::write(p.join("latin.csv"), b"a,\xe9\n").unwrap();
    p.cmd()
        .args([
            "capture",
            "--name",
            "n",
            "--output-numeric",
            "latin.csv",
            "--",
            "true",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "cannot read latin.csv as UTF-8 text: invalid byte 0xe9 at position 2",
        ));
}

#[test]
fn csv_rerun_names_columns_and_summarises_beyond_ten() {
    let p = Project::new();
    p.write("counter", "0");
    let script = "n=$(cat counter); echo $((n+1)) > counter; printf 'id,loss\\n' > t.csv; for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo \"$i,0.$n$i\" >> t.csv; done\n";
    capture_custom(&p, "csv", &["--output-numeric", "t.csv"], script);
    let (code, r) = rerun_json(&p, "csv.sciproof.json", &[]);
    assert_eq!(code, 1);
    let check = check_for(&r, "rerun output t.csv");
    let ev = field(&check, "evidence");
    let diffs = field(ev, "differences").as_array().unwrap();
    assert_eq!(diffs.len(), 11);
    assert_eq!(
        diffs[0].as_str(),
        Some("r1c1 (column 'loss'): recorded 0.01, found 0.11 (rtol=1e-09, atol=0.0)")
    );
    assert_eq!(
        diffs[10].as_str(),
        Some("... and 2 more differences (12 in all)")
    );
    let last = &field(ev, "difference_details").as_array().unwrap()[10];
    assert_eq!(field(last, "kind").as_str(), Some("summary"));
}

#[test]
fn interrupting_the_rerun_restores_the_outputs() {
    let p = Project::new();
    capture_custom(&p, "i", &["--output", "out.txt"], "echo done > out.txt\n");
    p.write("run.sh", "echo partial > out.txt; sleep 30\n");
    let child = sciproof_process()
        .current_dir(p.path())
        .args(["verify", "i.sciproof.json", "--rerun", "--yes", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the command has written its partial output (no sleep as synchronisation).
    let started = std::time::Instant::now();
    while std::fs::read_to_string(p.join("out.txt")).ok().as_deref() != Some("partial\n") {
        assert!(started.elapsed().as_secs() < 30, "the rerun never started");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "128 + SIGINT");
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let rerun = check_for(&r, "rerun");
    assert_eq!(
        field(&rerun, "message").as_str(),
        Some("interrupted by SIGINT; the command was stopped and the originals were restored")
    );
    assert_eq!(field(&rerun, "status").as_str(), Some("INCONCLUSIVE"));
    assert_eq!(field(&r, "result").as_str(), Some("INCONCLUSIVE"));
    assert_eq!(p.read("out.txt"), "done\n");
}

/// What stands at `path` now: `file:<content>`, `link:<target>`, `dir`, `fifo`, `socket`.
fn kind_at(path: &std::path::Path) -> String {
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::symlink_metadata(path).unwrap();
    let t = meta.file_type();
    if t.is_symlink() {
        format!("link:{}", std::fs::read_link(path).unwrap().display())
    } else if t.is_file() {
        format!("file:{}", std::fs::read_to_string(path).unwrap())
    } else if t.is_dir() {
        "dir".into()
    } else if t.is_fifo() {
        "fifo".into()
    } else if t.is_socket() {
        "socket".into()
    } else {
        "other".into()
    }
}

fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn whatever_stands_at_an_output_path_is_moved_aside_as_it_is_and_put_back_never_followed() {
    for kind in ["symlink", "directory", "fifo", "socket"] {
        let p = Project::new();
        capture_custom(&p, "k", &["--output", "out.txt"], "echo rerun > out.txt\n");
        p.write("victim.txt", "the user's own file\n");
        let out = p.join("out.txt");
        std::fs::remove_file(&out).unwrap();
        let _listener;
        match kind {
            "symlink" => std::os::unix::fs::symlink("victim.txt", &out).unwrap(),
            "directory" => {
                std::fs::create_dir(&out).unwrap();
                p.write("out.txt/inside", "kept\n");
            }
            "fifo" => mkfifo(&out),
            _ => _listener = Some(std::os::unix::net::UnixListener::bind(&out).unwrap()),
        }
        let before = kind_at(&out);
        let (_, report) = rerun_json(&p, "k.sciproof.json", &[]);
        assert_eq!(kind_at(&out), before, "{kind}: not put back as it was");
        assert_eq!(
            p.read("victim.txt"),
            "the user's own file\n",
            "{kind}: written through"
        );
        if kind == "directory" {
            assert_eq!(p.read("out.txt/inside"), "kept\n");
        }
        // The rerun's own product was a regular file: compared, then kept aside or discarded.
        let check = check_for(&report, "rerun output out.txt");
        assert_eq!(
            field(&check, "status").as_str(),
            Some("PASS"),
            "{kind}: {check:?}"
        );
        let names: Vec<String> = std::fs::read_dir(p.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".sciproof-") && !n.starts_with(".sciproof-rerun-"))
            .collect();
        assert!(names.is_empty(), "{kind}: left {names:?}");
    }
}

#[test]
fn a_link_left_at_an_output_path_is_never_an_output_and_nothing_is_not_a_pass() {
    let p = Project::new();
    capture_custom(&p, "l", &["--output", "out.txt"], "echo made > out.txt\n");
    p.write("copy.txt", "made\n");
    // The rerun makes a link to an identical file instead of the file itself.
    p.write("run.sh", "rm -f out.txt; ln -s copy.txt out.txt\n");
    let (code, report) = rerun_json(&p, "l.sciproof.json", &[]);
    assert_eq!(code, 1);
    let check = check_for(&report, "rerun output out.txt");
    assert_eq!(field(&check, "status").as_str(), Some("FAIL"));
    assert!(
        field(&check, "message")
            .as_str()
            .unwrap()
            .contains("the rerun left a symbolic link at this path, not a regular file"),
        "{check:?}"
    );
    assert_eq!(p.read("out.txt"), "made\n", "the original is back");
    // A user's link at the output path and a command that produces nothing: not a PASS.
    p.write("run.sh", "true\n");
    std::fs::remove_file(p.join("out.txt")).unwrap();
    std::os::unix::fs::symlink("copy.txt", p.join("out.txt")).unwrap();
    let (_, report) = rerun_json(&p, "l.sciproof.json", &[]);
    let check = check_for(&report, "rerun output out.txt");
    assert_eq!(
        field(&check, "message").as_str(),
        Some("the rerun did not produce this file")
    );
    assert_eq!(kind_at(&p.join("out.txt")), "link:copy.txt");
}

#[test]
fn a_run_that_puts_a_link_out_of_the_folder_where_a_folder_was_gets_nothing_moved_through_it() {
    // A folder elsewhere, with a file at the place the output would be beyond the link.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(elsewhere.path().join("out.txt"), "not yours\n").unwrap();
    let untouched = || {
        let names: Vec<String> = std::fs::read_dir(elsewhere.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["out.txt"]);
        assert_eq!(
            std::fs::read_to_string(elsewhere.path().join("out.txt")).unwrap(),
            "not yours\n"
        );
    };
    let p = Project::new();
    capture_custom(
        &p,
        "f",
        &["--output", "res/out.txt"],
        "mkdir -p res; echo orig > res/out.txt\n",
    );
    // The run replaces the output's folder with a link out of the project.
    p.write(
        "run.sh",
        &format!("rm -rf res; ln -s {} res\n", elsewhere.path().display()),
    );
    let put_back = |stream: &str| {
        assert!(
            stream.contains("could not restore res/out.txt: its folder res now leads outside ")
                && stream.contains("(the run replaced it with a link), and nothing is moved or removed through it; the original is kept in .sciproof-work-f.sciproof.json/aside/0: remove the link res, then run `sciproof recover` to put it back"),
            "{stream}"
        );
    };
    let (code, stdout) = rerun_text(&p, "f.sciproof.json");
    assert_eq!(code, Some(1));
    put_back(&stdout);
    untouched();
    // Once the link is gone, the original goes back.
    std::fs::remove_file(p.join("res")).unwrap();
    p.cmd().args(["recover"]).assert().success();
    assert_eq!(p.read("res/out.txt"), "orig\n");
    // calibrate removes what each run left at the output's path: never through the link.
    let out = p
        .cmd()
        .args(["calibrate", "f.sciproof.json", "--runs", "2", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    put_back(&String::from_utf8_lossy(&out.stderr));
    untouched();
    std::fs::remove_file(p.join("res")).unwrap();
    p.cmd().args(["recover"]).assert().success();
    assert_eq!(p.read("res/out.txt"), "orig\n");
    p.cmd()
        .args(["verify", "f.sciproof.json"])
        .assert()
        .success();
}

#[test]
fn an_original_the_command_removes_from_the_work_folder_is_said_to_be_gone() {
    let p = Project::new();
    capture_custom(&p, "g", &["--output", "out.txt"], "echo v1 > out.txt\n");
    // A command that cleans everything untracked, sciproof's work folder with it.
    p.write("run.sh", "rm -rf .sciproof-work-*; echo v2 > out.txt\n");
    let (code, stdout) = rerun_text(&p, "g.sciproof.json");
    assert_eq!(code, Some(1));
    assert!(
        stdout.contains("warning: the original of out.txt is gone: something removed .sciproof-work-g.sciproof.json/aside/0 while the command ran (a `git clean -x`, an `rm -rf .sciproof-*`?), so it cannot be put back; out.txt is what the run left there"),
        "{stdout}"
    );
    // What the run left is the only copy of anything: it stays where it is.
    assert_eq!(p.read("out.txt"), "v2\n");
    // A command that removes what it produced as well leaves nothing there, and says so.
    p.write("run.sh", "rm -rf .sciproof-work-* out.txt\n");
    let (_, stdout) = rerun_text(&p, "g.sciproof.json");
    assert!(
        stdout.contains("so it cannot be put back; nothing stands at out.txt now"),
        "{stdout}"
    );
}

#[test]
fn a_command_that_rewrites_the_recorded_copy_is_not_compared_with_itself() {
    let p = Project::new();
    p.write("src.csv", "a,b\n1,2\n");
    capture_custom(
        &p,
        "n",
        &["--output-numeric", "out.csv"],
        "cp src.csv out.csv\n",
    );
    // Other numbers, written over the recorded copy as well (a script that rewrites every CSV
    // under its folder would do the same).
    p.write(
        "run.sh",
        "printf 'a,b\\n1,9\\n' > out.csv; for f in n.sciproof.d/*; do cp out.csv \"$f\"; done\n",
    );
    let expect = |after: &str| {
        let (code, report) = rerun_json(&p, "n.sciproof.json", &[]);
        assert_eq!(code, 1, "{after}");
        let copy = check_for(&report, "output out.csv snapshot");
        assert_eq!(field(&copy, "status").as_str(), Some("FAIL"), "{after}");
        assert!(
            field(&copy, "message").as_str().unwrap().starts_with(
                "recorded copy n.sciproof.d/0-out.csv was changed while the command ran (it matched its SHA-256 before the run)"
            ),
            "{after}: {copy:?}"
        );
        let rerun = check_for(&report, "rerun output out.csv");
        assert_eq!(
            field(&rerun, "status").as_str(),
            Some("INCONCLUSIVE"),
            "{after}"
        );
    };
    // Right after the capture the copy's change time proves nothing: it is hashed again.
    expect("just captured");
    // Put the recorded copy back; two seconds later its status alone tells the change.
    std::fs::copy(p.join("src.csv"), p.join("n.sciproof.d/0-out.csv")).unwrap();
    p.cmd()
        .args(["verify", "n.sciproof.json"])
        .assert()
        .success();
    std::thread::sleep(std::time::Duration::from_millis(2100));
    expect("two seconds later");
}

#[test]
fn a_command_that_removes_the_manifest_is_named_in_the_report() {
    let p = Project::new();
    capture_custom(&p, "m", &["--output", "out.txt"], "echo v1 > out.txt\n");
    p.write("run.sh", "rm m.sciproof.json; echo v1 > out.txt\n");
    let (_, stdout) = rerun_text(&p, "m.sciproof.json");
    assert!(
        stdout.contains("warning: the command changed or removed m.sciproof.json while it ran: this report is about the manifest as it was read before the run"),
        "{stdout}"
    );
}

#[test]
fn a_process_the_command_leaves_in_a_session_of_its_own_cannot_write_after_the_rerun() {
    let p = Project::new();
    capture_custom(&p, "s", &["--output", "out.txt"], "echo v1 > out.txt\n");
    // A daemon: its own session, then a write over the output once the rerun is over.
    p.write(
        "daemon.py",
        "import os, time\nos.setsid()\nopen('ready', 'w').close()\ntime.sleep(1)\nopen('out.txt', 'w').write('late\\n')\n",
    );
    p.write(
        "run.sh",
        "echo v1 > out.txt\npython3 daemon.py </dev/null >/dev/null 2>&1 &\nwhile [ ! -e ready ]; do sleep 0.01; done\n",
    );
    p.cmd()
        .args(["verify", "s.sciproof.json", "--rerun", "--yes"])
        .assert()
        .success();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(p.read("out.txt"), "v1\n", "the daemon outlived the rerun");
}

#[test]
fn a_killed_rerun_is_undone_by_the_next_command_which_says_so() {
    let p = Project::new();
    capture_custom(&p, "d", &["--output", "out.txt"], "echo done > out.txt\n");
    p.write(
        "run.sh",
        "echo partial > out.txt; sleep 30; echo late > out.txt\n",
    );
    let mut child = sciproof_process()
        .current_dir(p.path())
        .args(["verify", "d.sciproof.json", "--rerun", "--yes"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::fs::read_to_string(p.join("out.txt")).ok().as_deref() != Some("partial\n") {
        assert!(started.elapsed().as_secs() < 30, "the rerun never started");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: nothing can be handled
    child.wait().unwrap();
    // The command's process group died with sciproof: nothing writes "late" later.
    let out = p
        .cmd()
        .args(["verify", "d.sciproof.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("recovered: undid an interrupted rerun of d.sciproof.json (process "),
        "{stderr}"
    );
    assert!(
        stderr.contains("put back out.txt as it was before"),
        "{stderr}"
    );
    assert!(
        stderr.contains("what it had produced is in .sciproof-rerun-"),
        "{stderr}"
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "PASS after recovery, not 'modified'"
    );
    assert_eq!(p.read("out.txt"), "done\n");
    // No process is left whose working directory is the project (the command's group died).
    assert_eq!(
        processes_in(p.path()),
        Vec::<String>::new(),
        "the command outlived sciproof"
    );
}
