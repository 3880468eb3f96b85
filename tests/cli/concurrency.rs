//! Two writers of one evidence, and readers during writes: writers wait for each other (or
//! refuse with --no-wait), every writer's result is whole, and a reader never reports a
//! half-written state.

use crate::util::*;
use std::process::Stdio;

const SCRIPT: &str = "#!/bin/sh\nset -e\nv=$(cat variant 2>/dev/null || echo 0)\nmkdir -p out\nprintf '{\"value\": %s.5}\\n' \"$v\" > out/result.json\nsleep 0.02\necho \"log $v\" > out/log.txt\n";

fn project() -> Project {
    let p = Project::new();
    p.write("run.sh", SCRIPT);
    p
}

fn capture_args(force: bool) -> Vec<&'static str> {
    let mut args = vec![
        "capture",
        "--name",
        "run",
        "--input",
        "data.json",
        "--output",
        "out/log.txt",
        "--output-numeric",
        "out/result.json",
    ];
    if force {
        args.push("--force");
    }
    args.extend(["--", "sh", "run.sh"]);
    args
}

fn spawn(p: &Project, args: &[&str]) -> std::process::Child {
    sciproof_process()
        .current_dir(p.path())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn writers_of_one_name_wait_for_each_other_and_each_result_is_whole() {
    let p = project();
    p.cmd().args(capture_args(false)).assert().success();
    let children: Vec<_> = (0..6).map(|_| spawn(&p, &capture_args(true))).collect();
    let mut waited = 0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        if stderr.contains("waiting for another sciproof (process ") {
            waited += 1;
        }
    }
    assert!(waited >= 1, "no writer ever waited: the lock did nothing");
    let (code, report) = p.verify_json("run.sciproof.json");
    assert_eq!(
        code,
        0,
        "{}",
        sciproof_core::json::to_string_pretty(&report)
    );
    let names: Vec<String> = std::fs::read_dir(p.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".sciproof-"))
        .collect();
    assert!(names.is_empty(), "left behind: {names:?}");
}

/// Waits until another process holds the lock file's `flock` (its existence is not enough: it
/// is created a moment before it is locked, and removed when released).
fn wait_until_held(lock: &std::path::Path) {
    use std::os::fd::AsRawFd;
    let started = std::time::Instant::now();
    loop {
        assert!(
            started.elapsed().as_secs() < 20,
            "the first writer never locked"
        );
        if let Ok(file) = std::fs::File::open(lock) {
            // SAFETY: flock on a descriptor this function owns.
            let free = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) } == 0;
            if !free {
                return;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn with_no_wait_a_second_writer_refuses_at_once_and_changes_nothing() {
    let p = project();
    p.write("run.sh", &SCRIPT.replace("sleep 0.02", "sleep 2"));
    p.cmd().args(capture_args(false)).assert().success();
    let before = p.read("run.sciproof.json");
    let first = spawn(&p, &capture_args(true));
    let lock = p.join(".sciproof-lock-run.sciproof.json");
    wait_until_held(&lock);
    let mut args = vec!["--no-wait"];
    args.extend(capture_args(true));
    let out = p.cmd().args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("run.sciproof.json is in use by another sciproof (process")
            && stderr.contains("capture")
            && stderr.contains("leave out --no-wait to wait for it"),
        "{stderr}"
    );
    let out = first.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_ne!(
        p.read("run.sciproof.json"),
        before,
        "the first writer committed"
    );
    // update and sign take the same lock
    let first = spawn(&p, &["update", "run.sciproof.json", "--yes"]);
    wait_until_held(&lock);
    p.cmd()
        .args([
            "--no-wait",
            "verify",
            "run.sciproof.json",
            "--rerun",
            "--yes",
        ])
        .assert()
        .code(3);
    assert!(first.wait_with_output().unwrap().status.success());
}

#[test]
fn readers_during_writes_never_see_a_half_written_state() {
    let p = project();
    p.cmd().args(capture_args(false)).assert().success();
    let writer = {
        let dir = p.path().to_path_buf();
        std::thread::spawn(move || {
            for i in 0..12 {
                std::fs::write(dir.join("variant"), i.to_string()).unwrap();
                let args: &[&str] = if i % 2 == 0 {
                    &["update", "run.sciproof.json", "--yes"]
                } else {
                    &capture_args(true)
                };
                let out = sciproof(&dir).args(args).output().unwrap();
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        })
    };
    let mut reads = 0;
    while !writer.is_finished() {
        let (code, report) = p.verify_json("run.sciproof.json");
        assert_eq!(
            code,
            0,
            "a reader saw a half-written state: {}",
            sciproof_core::json::to_string_pretty(&report)
        );
        p.cmd()
            .args(["inspect", "run.sciproof.json"])
            .assert()
            .success();
        reads += 1;
    }
    writer.join().unwrap();
    assert!(reads >= 3, "only {reads} reads overlapped the writes");
}

#[test]
fn graph_writers_never_lose_each_others_claims() {
    let p = project();
    let children: Vec<_> = (0..8)
        .map(|i| {
            spawn(
                &p,
                &[
                    "graph",
                    "conjecture",
                    &format!("claim number {i}"),
                    "--evidence",
                    "concurrency test",
                ],
            )
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = p.cmd().args(["graph", "summary"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains('8'), "every claim is kept: {text}");
    let doc = sciproof_core::json::parse(&p.read("claims.json")).unwrap();
    assert_eq!(
        field(&doc, "claims").as_array().map(|a| a.len()),
        Some(8),
        "claims.json: {}",
        p.read("claims.json")
    );
}
