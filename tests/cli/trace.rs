//! `suggest-inputs` with the system-call tracer, on real programs: a shell pipeline, a C
//! program (compiled here with gcc, dynamically and statically) that reads through a directory
//! descriptor, `openat2`, a thread, a fork-and-exec chain, `posix_spawn`, a relative path after
//! `chdir`, that only `stat`s a file and renames a temporary file into place; an exec from a
//! thread; Python, also with `-I`, which the reference cannot see into; `io_uring` and 32-bit
//! system calls, which must make the trace incomplete (or be refused); and the reference's own
//! answer on a Python project, which ours must contain.

use crate::util::{Project, reference_cmd, reference_python};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `tests/support/tracee.c` compiled once: (dynamic, static).
fn tracee() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/tracee.c");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let build = |out: &str, extra: &[&str]| {
            let path = dir.join(out);
            let status = Command::new("gcc")
                .args(["-O1", "-pthread"])
                .args(extra)
                .arg("-o")
                .arg(&path)
                .arg(&source)
                .status()
                .expect("gcc");
            assert!(status.success(), "gcc {extra:?}");
            path
        };
        (
            build("tracee", &["-no-pie"]),
            build("tracee-static", &["-static"]),
        )
    })
}

/// Runs `sciproof suggest-inputs ARGS` in `p`: (exit code, stdout, stderr).
fn suggest(p: &Project, args: &[&str]) -> (i32, String, String) {
    let out = p.cmd().arg("suggest-inputs").args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The `suggest --input` paths of an answer.
fn suggested(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("suggest --input "))
        .collect()
}

/// A project with the files the C program reads, copies of it, and the file it only probes.
fn c_project() -> Project {
    let p = Project::new();
    for f in [
        "dir/in-dir.txt",
        "openat2.txt",
        "thread.txt",
        "forked.txt",
        "spawned.txt",
        "sub/after-chdir.txt",
        "probed.txt",
        "state.txt",
        "exec-thread.txt",
        "after-uring.txt",
        "legacy.txt",
    ] {
        p.write(f, "x\n");
    }
    let (dynamic, fixed) = tracee();
    std::fs::copy(dynamic, p.join("tracee")).unwrap();
    std::fs::copy(fixed, p.join("tracee-static")).unwrap();
    p
}

#[test]
fn a_shell_pipeline_reads_its_input_and_writes_its_output() {
    let p = Project::new();
    p.write("a", "2\n1\n");
    p.write("declared.txt", "d\n");
    let (code, out, err) = suggest(
        &p,
        &[
            "--input",
            "declared.txt",
            "--",
            "sh",
            "-c",
            "cat a | sort > b; cat declared.txt > /dev/null; test -e nothing",
        ],
    );
    assert_eq!(code, 0, "{err}");
    // The sorted output is written, not read; the declared input is not suggested again.
    assert_eq!(suggested(&out), ["a"], "{out}");
    assert!(out.contains("traced at the system-call level"), "{out}");
    assert_eq!(p.read("b"), "1\n2\n");
}

#[test]
fn every_way_a_c_program_reads_is_seen_dynamic_and_static() {
    let p = c_project();
    for program in ["./tracee", "./tracee-static"] {
        let (code, out, err) = suggest(&p, &["--output", "result.txt", "--", program, "all"]);
        assert_eq!(code, 0, "{program}: {err}");
        assert_eq!(
            suggested(&out),
            [
                "dir/in-dir.txt",
                "forked.txt",
                "openat2.txt",
                "spawned.txt",
                "sub/after-chdir.txt",
                "thread.txt",
                &program[2..],
            ],
            "{program}: only stat'ed (probed.txt), renamed into place (result.txt) and read then \
             rewritten (state.txt) are not inputs: {out}"
        );
        assert_eq!(p.read("result.txt"), "42\n");
    }
    // The JSON form says the same, with the count of processes and threads.
    let (code, out, _) = suggest(&p, &["--format", "json", "--", "./tracee", "all"]);
    assert_eq!(code, 0);
    let doc = sciproof_core::json::parse(&out).unwrap();
    let doc = doc.as_object().unwrap();
    assert_eq!(
        doc.get("complete"),
        Some(&sciproof_core::json::Value::Bool(true))
    );
    assert!(doc.get("processes").and_then(|v| v.as_f64()).unwrap() >= 4.0);
    let inputs = doc.get("inputs").and_then(|v| v.as_array()).unwrap();
    assert_eq!(inputs.len(), 7);
    assert!(!inputs.iter().any(|v| v.as_str() == Some("result.txt")));
}

#[test]
fn an_exec_from_a_thread_is_followed() {
    let p = c_project();
    let (code, out, err) = suggest(&p, &["--", "./tracee", "exec-thread"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(suggested(&out), ["exec-thread.txt", "tracee"], "{out}");
}

#[test]
fn io_uring_makes_the_trace_incomplete_unless_it_is_refused() {
    let p = c_project();
    let (code, out, err) = suggest(&p, &["--", "./tracee", "io-uring"]);
    assert_eq!(code, 2, "inconclusive: {err}");
    assert!(
        err.contains("the trace is incomplete") && err.contains("io_uring"),
        "{err}"
    );
    assert!(suggested(&out).contains(&"after-uring.txt"));
    let (code, _, err) = suggest(&p, &["--deny-io-uring", "--", "./tracee", "io-uring"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("io_uring_setup: -1"),
        "refused with ENOSYS: {err}"
    );
}

#[cfg(target_arch = "x86_64")]
#[test]
fn thirty_two_bit_system_calls_are_never_missed_silently() {
    let p = c_project();
    let (code, out, err) = suggest(&p, &["--", "./tracee", "int80"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("another ABI (32-bit x86 or x32)"), "{err}");
}

#[test]
fn python_reads_are_seen_even_with_dash_i() {
    let p = Project::new();
    p.write("cfg.json", "{}\n");
    p.write("helper.py", "VALUE = 1\n");
    p.write(
        "exp.py",
        "import json, sys\nsys.path.insert(0, '.')\nimport helper\njson.load(open('cfg.json'))\nopen('out.txt', 'w').write('1')\n",
    );
    for flags in [&[][..], &["-I"][..]] {
        let mut args = vec!["--", "python3"];
        args.extend(flags);
        args.push("exp.py");
        let (code, out, err) = suggest(&p, &args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            suggested(&out),
            ["cfg.json", "exp.py", "helper.py"],
            "{flags:?}: {out}"
        );
    }
}

#[test]
fn a_timeout_stops_the_command_and_everything_it_started() {
    let p = Project::new();
    let started = std::time::Instant::now();
    let (code, _, err) = suggest(
        &p,
        &["--timeout", "0.5", "--", "sh", "-c", "sleep 30 & sleep 30"],
    );
    assert_eq!(code, 3, "{err}");
    assert_eq!(
        err,
        "error: command did not finish within 0.5 seconds; nothing was recorded\n"
    );
    assert!(started.elapsed().as_secs() < 20);
    let (code, _, err) = suggest(&p, &["--", "sh", "-c", "exit 4"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("warning: the command exited with status 4"),
        "{err}"
    );
    let (code, _, err) = suggest(&p, &["--", "no-such-program-here"]);
    assert_eq!(code, 3);
    assert!(err.contains("cannot start 'no-such-program-here'"), "{err}");
}

#[test]
fn we_find_at_least_what_the_reference_finds_in_a_python_project() {
    let p = Project::new();
    p.write("cfg.json", "{\"n\": 3}\n");
    p.write("data/table.csv", "a,b\n1,2\n");
    p.write("lib/model.py", "def fit(n):\n    return n * 2\n");
    p.write(
        "exp.py",
        "import csv, json, sys\nsys.path.insert(0, 'lib')\nimport model\n\
         n = json.load(open('cfg.json'))['n']\nrows = list(csv.reader(open('data/table.csv')))\n\
         open('out.txt', 'w').write(str(model.fit(n)))\n",
    );
    let python = reference_python();
    let python = python.to_str().unwrap();
    let theirs = reference_cmd(p.path())
        .args(["suggest-inputs", "--", python, "exp.py"])
        .output()
        .unwrap();
    assert!(theirs.status.success(), "{theirs:?}");
    let theirs = String::from_utf8(theirs.stdout).unwrap();
    let (code, ours, err) = suggest(&p, &["--", python, "exp.py"]);
    assert_eq!(code, 0, "{err}");
    let ours = suggested(&ours);
    let expected = suggested(&theirs);
    assert!(!expected.is_empty(), "{theirs}");
    for path in &expected {
        assert!(
            ours.contains(path),
            "the reference found {path}; we found {ours:?}"
        );
    }
    // What the reference cannot see: the same script under `python -I`.
    let theirs = reference_cmd(p.path())
        .args(["suggest-inputs", "--", python, "-I", "exp.py"])
        .output()
        .unwrap();
    assert_eq!(
        theirs.status.code(),
        Some(2),
        "the reference is inconclusive"
    );
    let (code, ours, _) = suggest(&p, &["--", python, "-I", "exp.py"]);
    assert_eq!(code, 0);
    for path in &expected {
        assert!(suggested(&ours).contains(path), "{ours}");
    }
}

#[test]
fn where_ptrace_is_refused_the_python_audit_hook_stands_in() {
    let p = Project::new();
    p.write("cfg.json", "{}\n");
    p.write("exp.py", "import json\njson.load(open('cfg.json'))\n");
    // A process that is already traced cannot be traced again: sciproof inside sciproof's
    // tracer is refused ptrace, as in a container without CAP_SYS_PTRACE.
    let inner = env!("CARGO_BIN_EXE_sciproof");
    let (code, out, err) = suggest(
        &p,
        &["--", inner, "suggest-inputs", "--", "python3", "exp.py"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: cannot trace the command: Operation not permitted (ptrace is not permitted here"),
        "{err}"
    );
    assert!(err.contains("Python's audit hook is used instead"), "{err}");
    // The inner answer (on the outer's standard error) comes from the hook.
    assert!(err.contains("suggest --input cfg.json"), "{err}");
    assert!(
        err.contains("Note: only reads made by Python code are seen"),
        "{err}"
    );
    assert!(
        suggested(&out).contains(&"cfg.json"),
        "the outer trace sees it too: {out}"
    );
    // The hook chosen outright: what the reference sees, and nothing under `python -I`.
    let (code, out, _) = suggest(&p, &["--tracer", "python", "--", "python3", "exp.py"]);
    assert_eq!(code, 0);
    assert_eq!(suggested(&out), ["cfg.json", "exp.py"]);
    let (code, out, err) = suggest(&p, &["--tracer", "python", "--", "python3", "-I", "exp.py"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("inconclusive: the audit hook never started"),
        "{err}"
    );
    let (code, _, err) = suggest(
        &p,
        &["--tracer", "python", "--", "sh", "-c", "cat cfg.json"],
    );
    assert_eq!(code, 2, "a shell script is invisible to the hook: {err}");
}

#[test]
fn many_short_lived_processes_are_all_waited_for() {
    // A child can stop, run and end before its parent's fork event is reported (waitpid
    // reports in any order); such a child must not be waited for again.
    let p = Project::new();
    p.write("in.txt", "x\n");
    for _ in 0..3 {
        let (code, out, err) = suggest(
            &p,
            &[
                "--timeout",
                "120",
                "--",
                "sh",
                "-c",
                "i=0; while [ $i -lt 300 ]; do cat in.txt > /dev/null & i=$((i+1)); done; wait",
            ],
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(suggested(&out), ["in.txt"]);
        let traced: usize = out
            .rsplit("Processes and threads traced: ")
            .next()
            .and_then(|n| n.trim().trim_end_matches('.').parse().ok())
            .unwrap();
        assert!(traced > 300, "{traced}");
    }
}

#[test]
fn capture_and_rerun_with_trace_say_what_is_read_but_not_declared() {
    let p = Project::new();
    p.write("cfg.json", "{}\n");
    p.write("data.csv", "a,b\n1,2\n");
    p.write("unused.txt", "never read\n");
    p.write("run.sh", "cat cfg.json data.csv > out.txt\n");
    let capture = |extra: &[&str]| {
        let mut cmd = p.cmd();
        cmd.args(["capture", "--name", "t", "--force"])
            .args(extra)
            .args([
                "--input",
                "cfg.json",
                "--input",
                "unused.txt",
                "--output",
                "out.txt",
            ])
            .args(["--", "sh", "run.sh"]);
        cmd.output().unwrap()
    };
    // --strict-inputs refuses, and writes nothing.
    let out = capture(&["--strict-inputs"]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--strict-inputs: the command read 2 file(s) inside the working directory that are not declared as inputs: 'data.csv', 'run.sh'"),
        "{err}"
    );
    assert!(err.contains("the command never read 1 declared input(s): 'unused.txt'"));
    assert!(!p.join("t.sciproof.json").exists());
    // --trace warns, and the manifest records what the trace saw.
    let out = capture(&["--trace"]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: the command read 2 file(s)"), "{err}");
    let manifest = sciproof_core::json::parse(&p.read("t.sciproof.json")).unwrap();
    let trace = manifest
        .as_object()
        .unwrap()
        .get("trace")
        .unwrap()
        .as_object()
        .unwrap();
    assert_eq!(trace.get("method").and_then(|v| v.as_str()), Some("ptrace"));
    let list = |k: &str| -> Vec<String> {
        trace
            .get(k)
            .and_then(|v| v.as_array())
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(list("undeclared_reads"), ["data.csv", "run.sh"]);
    assert_eq!(list("unread_inputs"), ["unused.txt"]);
    // The reference reads such a manifest (it ignores the key) and verifies it.
    let reference = crate::util::reference_cmd(p.path())
        .args(["verify", "t.sciproof.json"])
        .output()
        .unwrap();
    assert_eq!(reference.status.code(), Some(0), "{reference:?}");
    // A traced rerun warns; with --strict-inputs each finding is an INCONCLUSIVE check.
    let out = p
        .cmd()
        .args(["verify", "t.sciproof.json", "--rerun", "--yes", "--trace"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("warning: the command never read 1 declared input(s): 'unused.txt'")
    );
    let out = p
        .cmd()
        .args([
            "verify",
            "t.sciproof.json",
            "--rerun",
            "--yes",
            "--strict-inputs",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.matches("INCONCLUSIVE").count() >= 2, "{text}");
    assert!(text.contains("inputs (trace)"), "{text}");
    // Declared completely: nothing to say but that the trace was taken.
    p.cmd()
        .args(["capture", "--name", "t", "--force", "--strict-inputs"])
        .args([
            "--input", "cfg.json", "--input", "data.csv", "--input", "run.sh",
        ])
        .args(["--output", "out.txt", "--", "sh", "run.sh"])
        .assert()
        .success();
    let out = p
        .cmd()
        .args([
            "verify",
            "t.sciproof.json",
            "--rerun",
            "--yes",
            "--strict-inputs",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("[PASS] inputs (trace): the rerun read every declared input and no undeclared file inside the working directory (ptrace"),
        "{text}"
    );
    // The seed's rule: every report lists undeclared files as not checked; the trace covers
    // only reads inside the working directory, not what the command wrote or anything else.
    assert!(
        text.contains("not checked: files that were not declared as inputs or outputs"),
        "{text}"
    );
}

#[test]
fn every_access_is_classified_on_request() {
    let p = c_project();
    let (code, out, err) = suggest(&p, &["--all", "--format", "json", "--", "./tracee", "all"]);
    assert_eq!(code, 0, "{err}");
    let doc = sciproof_core::json::parse(&out).unwrap();
    let files = doc
        .as_object()
        .unwrap()
        .get("files")
        .unwrap()
        .as_array()
        .unwrap();
    let root = std::fs::canonicalize(p.path()).unwrap();
    let access = |name: &str| -> Vec<String> {
        let path = if name.starts_with('/') {
            PathBuf::from(name)
        } else {
            root.join(name)
        };
        let entry = files
            .iter()
            .map(|f| f.as_object().unwrap())
            .find(|f| f.get("path").and_then(|v| v.as_str()) == path.to_str())
            .unwrap_or_else(|| panic!("{name} is not in the trace: {out}"));
        entry
            .get("access")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(access("probed.txt"), ["probed"]);
    assert_eq!(access("thread.txt"), ["read"]);
    assert_eq!(access("dir/in-dir.txt"), ["read"]);
    assert_eq!(access("result.tmp"), ["written", "created", "removed"]);
    assert_eq!(access("result.txt"), ["written", "created"]);
    assert_eq!(access("state.txt"), ["read", "written"]);
    assert_eq!(access("made.txt"), ["read", "written", "created"]);
    assert_eq!(access("/bin/cat"), ["executed"]);
    assert_eq!(access("tracee"), ["executed"]);
    let (code, _, err) = suggest(&p, &["--all", "--", "./tracee", "all"]);
    assert_eq!(code, 3);
    assert!(
        err.contains("--all lists every access in the JSON output"),
        "{err}"
    );
}

#[test]
fn a_typo_before_the_command_is_refused_not_run() {
    let p = Project::new();
    for (args, usage) in [
        (
            &["suggest-inputs", "--tracr", "ptrace", "--", "true"][..],
            "sciproof suggest-inputs [--input P]... [--output P]... -- COMMAND",
        ),
        (
            &["record", "--name", "r", "--fsat", "--", "true"][..],
            "sciproof record --name NAME [options] -- COMMAND",
        ),
    ] {
        let out = p.cmd().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(3));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("unrecognized option '--")
                && err.contains(&format!("put the command after '--': {usage}")),
            "{err}"
        );
    }
    let out = p.cmd().arg("suggest-inputs").output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no command given; usage:"));
}

#[test]
fn a_capture_that_cannot_be_traced_says_so_and_writes_nothing() {
    // Inside sciproof's own tracer, ptrace is refused; with --tracer ptrace there is no
    // fallback, so the capture refuses and the rerun is INCONCLUSIVE.
    let p = Project::new();
    p.write("in.txt", "x\n");
    let inner = env!("CARGO_BIN_EXE_sciproof");
    let (code, _, err) = suggest(
        &p,
        &[
            "--", inner, "capture", "--name", "t", "--trace", "--tracer", "ptrace", "--input",
            "in.txt", "--", "cat", "in.txt",
        ],
    );
    assert_eq!(code, 0, "the outer trace ran: {err}");
    assert!(
        err.contains("error: cannot trace the command: Operation not permitted"),
        "{err}"
    );
    assert!(!p.join("t.sciproof.json").exists());
    p.cmd()
        .args([
            "capture", "--name", "t", "--input", "in.txt", "--", "cat", "in.txt",
        ])
        .assert()
        .success();
    let (_, _, err) = suggest(
        &p,
        &[
            "--",
            inner,
            "verify",
            "t.sciproof.json",
            "--rerun",
            "--yes",
            "--trace",
            "--tracer",
            "ptrace",
        ],
    );
    assert!(
        err.contains("[INCONCLUSIVE] rerun: cannot trace the command: Operation not permitted"),
        "{err}"
    );
}
