//! Crash safety, proved by fault injection: a binary built with the `failpoints` feature is made
//! to die (abort, SIGKILL from itself or from outside) or to receive a termination signal at
//! every step of the commit protocol, of the rerun's move-aside and restore, and of the
//! command's start. After each, the files must be the complete old state or the complete new
//! state: the manifest parses, its snapshots match what it pins, the user's files are
//! byte-identical where the operation must not change them, and once the next command (here
//! `sciproof recover`) has run, nothing is left behind that no message named.

use crate::util::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `sciproof` binary built with `--features failpoints`, once per target directory (in
/// its own target folder, so the binary under test elsewhere is never replaced).
fn failpoint_binary() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let target = tmp.join("failpoints-build");
        let out = Command::new(env!("CARGO"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "build",
                "--locked",
                "--features",
                "failpoints",
                "--bin",
                "sciproof",
            ])
            .arg("--target-dir")
            .arg(&target)
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "building the failpoints binary failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        target.join("debug/sciproof")
    })
}

/// Everything in `dir` but sciproof's own working files: path -> content (or link target).
fn user_files(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel.starts_with(".sciproof-") {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                files.insert(rel, format!("-> {}", target.display()));
            } else if meta.is_dir() {
                files.insert(rel.clone(), "<dir>".into());
                stack.push(path);
            } else {
                files.insert(
                    rel,
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into(),
                );
            }
        }
    }
    files
}

/// sciproof's working files left in `dir` (work folders, locks, temporaries).
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.starts_with(".sciproof-work-")
                || n.starts_with(".sciproof-lock-")
                || n.starts_with(".sciproof-tmp-")
        })
        .collect()
}

/// The kept result folders (named in messages).
fn kept_folders(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".sciproof-rerun-") || n.starts_with(".sciproof-update-"))
        .collect()
}

const SCRIPT: &str = "#!/bin/sh\nset -e\nv=$(cat variant)\nmkdir -p out figs\nprintf '{\"value\": %s.5, \"tag\": \"%s\"}\\n' \"$v\" \"$v\" > out/result.json\nprintf 'a,b\\n1,%s\\n' \"$v\" > out/table.csv\necho \"log $v\" > out/log.txt\necho \"fig $v\" > figs/a.txt\necho \"fig2 $v\" > figs/b.txt\n[ \"$v\" != 99 ] || exit 2\n";

const CAPTURE: &[&str] = &[
    "capture",
    "--name",
    "run",
    "--input",
    "data.json",
    "--output",
    "out/log.txt",
    "--output",
    "figs",
    "--output-numeric",
    "out/result.json",
    "--output-numeric",
    "out/table.csv",
    "--claim",
    "out/result.json",
    "$.value >= 0",
];

/// A scenario: how the folder is prepared, the command, and what must hold afterwards.
struct Scenario {
    name: &'static str,
    /// Prepares the folder (with the regular binary).
    setup: fn(&Project),
    args: Vec<String>,
    /// The manifest must be byte-identical afterwards (reruns never change evidence).
    manifest_unchanged: bool,
    /// The user's files must be byte-identical afterwards, or (update, capture) the new
    /// evidence must verify.
    files_unchanged: bool,
}

fn base_project() -> Project {
    let p = Project::new();
    p.write("data.json", "{\"x\": 1}\n");
    p.write("run.sh", SCRIPT);
    p.write("variant", "1");
    p
}

fn captured(p: &Project) {
    let mut args: Vec<&str> = CAPTURE.to_vec();
    args.extend(["--", "sh", "run.sh"]);
    p.cmd().args(&args).assert().success();
}

fn scenarios() -> Vec<Scenario> {
    let with_capture = |extra: &[&str]| -> Vec<String> {
        CAPTURE
            .iter()
            .chain(extra)
            .chain(["--", "sh", "run.sh"].iter())
            .map(|s| s.to_string())
            .collect()
    };
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        Scenario {
            name: "capture",
            setup: |_| {},
            args: with_capture(&[]),
            manifest_unchanged: false,
            files_unchanged: false,
        },
        Scenario {
            name: "capture --force",
            setup: |p| {
                captured(p);
                p.write("variant", "2");
            },
            args: with_capture(&["--force"]),
            manifest_unchanged: false,
            files_unchanged: false,
        },
        Scenario {
            name: "update",
            setup: |p| {
                captured(p);
                p.write("variant", "3");
            },
            args: args(&["update", "run.sciproof.json", "--yes"]),
            manifest_unchanged: false,
            files_unchanged: false,
        },
        Scenario {
            name: "update whose command fails",
            setup: |p| {
                captured(p);
                p.write("variant", "99");
            },
            args: args(&["update", "run.sciproof.json", "--yes"]),
            manifest_unchanged: false,
            files_unchanged: false,
        },
        Scenario {
            name: "verify --rerun",
            setup: |p| {
                captured(p);
                p.write("variant", "4");
                // Something the user keeps at a declared output path: a link to a file of theirs.
                p.write("victim.txt", "the user's own file\n");
                std::fs::remove_file(p.join("out/log.txt")).unwrap();
                std::os::unix::fs::symlink("../victim.txt", p.join("out/log.txt")).unwrap();
            },
            args: args(&["verify", "run.sciproof.json", "--rerun", "--yes"]),
            manifest_unchanged: true,
            files_unchanged: true,
        },
        Scenario {
            name: "calibrate",
            setup: |p| {
                captured(p);
                p.write("variant", "5");
                p.write("victim.txt", "the user's own file\n");
                std::fs::remove_file(p.join("out/log.txt")).unwrap();
                std::os::unix::fs::symlink("../victim.txt", p.join("out/log.txt")).unwrap();
            },
            args: args(&["calibrate", "run.sciproof.json", "--runs", "2", "--yes"]),
            manifest_unchanged: true,
            files_unchanged: true,
        },
        Scenario {
            name: "capture --trace",
            setup: |p| {
                captured(p);
                p.write("variant", "6");
            },
            args: with_capture(&["--force", "--trace"]),
            manifest_unchanged: false,
            files_unchanged: false,
        },
        Scenario {
            name: "capture --force of a directory whose list is stored beside the manifest",
            setup: |p| {
                captured(p);
                p.write("variant", "7");
                for i in 0..=sciproof_core::tree::INLINE_TREE_FILES {
                    let folder = p.join(&format!("big/{}", i % 16));
                    std::fs::create_dir_all(&folder).unwrap();
                    std::fs::write(folder.join(format!("{i}.txt")), i.to_string()).unwrap();
                }
            },
            args: with_capture(&["--force", "--input", "big"]),
            manifest_unchanged: false,
            files_unchanged: false,
        },
        Scenario {
            name: "export -o",
            setup: |p| {
                captured(p);
                p.write("statement.json", "old statement\n");
            },
            args: args(&["export", "run.sciproof.json", "-o", "statement.json"]),
            manifest_unchanged: true,
            files_unchanged: false,
        },
        Scenario {
            name: "graph add-run",
            setup: |p| {
                captured(p);
                p.cmd()
                    .args(["graph", "conjecture", "an earlier claim", "--evidence", "x"])
                    .assert()
                    .success();
            },
            args: args(&["graph", "add-run", "run.sciproof.json"]),
            manifest_unchanged: true,
            files_unchanged: false,
        },
        Scenario {
            // The graph is re-verified as it is read, into a temporary file that replaces it.
            name: "graph verify",
            setup: |p| {
                captured(p);
                p.cmd()
                    .args(["graph", "add-run", "run.sciproof.json"])
                    .assert()
                    .success();
            },
            args: args(&["graph", "verify"]),
            manifest_unchanged: true,
            files_unchanged: false,
        },
        Scenario {
            // A document out of order is loaded whole, re-verified and saved.
            name: "graph verify of a document out of order",
            setup: |p| out_of_order_graph(p),
            args: args(&["graph", "verify"]),
            manifest_unchanged: true,
            files_unchanged: false,
        },
    ]
}

/// A claim graph (`claims.json`) of a chain of 100 claims with recipes, each listed before the
/// claim it depends on: `graph verify` cannot re-check it as it reads it. (Its outcomes fill
/// more than the 8 KiB an output buffer holds.)
fn out_of_order_graph(p: &Project) {
    let check = r#""check": {"kind": "numeric_relation", "constants": ["2", "1"], "coefficients": [1, -2]}"#;
    let mut claims = Vec::new();
    let mut before: Option<String> = None;
    for i in 0..100 {
        let statement = format!("C{i}");
        let id = sciproof_core::graph::claim_id(&statement, &[] as &[&str], "m");
        let depends: Vec<String> = before.iter().map(|b| format!("\"{b}\"")).collect();
        claims.push(format!(
            r#"{{"id": "{id}", "statement": "{statement}", "method": "m", "depends_on": [{}], {check}}}"#,
            depends.join(", ")
        ));
        before = Some(id);
    }
    claims.reverse();
    p.write(
        "claims.json",
        &format!(r#"{{"claims": [{}]}}"#, claims.join(", ")),
    );
}

#[test]
fn graph_verify_shows_no_outcome_unless_the_graph_holds_its_audit_entries() {
    // Streamed (a document in order) or loaded whole (out of order): a verify that dies just
    // before its new document replaces the old one has shown no outcome.
    let in_order = |p: &Project| {
        out_of_order_graph(p);
        p.cmd().args(["graph", "verify"]).assert().success();
    };
    for (name, setup) in [
        ("in order", &in_order as &dyn Fn(&Project)),
        ("out of order", &out_of_order_graph),
    ] {
        let p = base_project();
        setup(&p);
        let before = p.read("claims.json");
        let out = clean_env(Command::new(failpoint_binary()))
            .current_dir(p.path())
            .args(["graph", "verify"])
            .env("SCIPROOF_FAILPOINT", "atomic.synced")
            .env("SCIPROOF_FAILPOINT_ACTION", "abort")
            .output()
            .unwrap();
        assert!(
            !out.status.success(),
            "{name}: it did not reach the failpoint"
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{name}");
        assert_eq!(p.read("claims.json"), before, "{name}");
        // Undisturbed, it shows every outcome.
        let out = p.cmd().args(["graph", "verify"]).output().unwrap();
        let shown = String::from_utf8_lossy(&out.stdout);
        let outcomes = shown.lines().filter(|l| l.starts_with("clm_"));
        assert_eq!(outcomes.count(), 100, "{name}: {shown}");
    }
}

/// The failpoints the scenario reaches, in order, each as `NAME#N` (its N-th occurrence).
fn reached(s: &Scenario) -> Vec<String> {
    let p = base_project();
    (s.setup)(&p);
    let log = p.join("failpoints.log");
    let out = clean_env(Command::new(failpoint_binary()))
        .current_dir(p.path())
        .args(&s.args)
        .env("SCIPROOF_FAILPOINT_LOG", &log)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 2),
        "{}: the undisturbed run failed: {}",
        s.name,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(|name| {
            let n = seen.entry(name.to_string()).or_default();
            *n += 1;
            format!("{name}#{n}")
        })
        .collect()
}

/// How the process is disturbed at the failpoint.
#[derive(Debug, Clone, Copy)]
enum Fault {
    Abort,
    KillSelf,
    KillFromOutside,
    Signal(i32),
}

/// Runs the scenario with `fault` at `point`, with `tmp` as its temporary directory; returns
/// the exit status's code or signal, and stderr.
fn disturbed(
    p: &Project,
    s: &Scenario,
    point: &str,
    fault: Fault,
    tmp: &Path,
) -> (Option<i32>, String) {
    let paused = p.join("paused.marker");
    let mut cmd = clean_env(Command::new(failpoint_binary()));
    cmd.current_dir(p.path())
        .args(&s.args)
        .env("TMPDIR", tmp)
        .env("SCIPROOF_FAILPOINT", point)
        .env("SCIPROOF_FAILPOINT_PAUSED", &paused)
        .env(
            "SCIPROOF_FAILPOINT_ACTION",
            match fault {
                Fault::Abort => "abort",
                Fault::KillSelf => "kill",
                _ => "pause",
            },
        )
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Fault::KillFromOutside | Fault::Signal(_) = fault {
        let started = Instant::now();
        loop {
            if paused.exists() {
                let signal = match fault {
                    Fault::Signal(sig) => sig,
                    _ => libc::SIGKILL,
                };
                unsafe { libc::kill(child.id() as i32, signal) };
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break; // finished without reaching it (a different path this time)
            }
            assert!(started.elapsed() < Duration::from_secs(60), "never paused");
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&paused);
    use std::os::unix::process::ExitStatusExt;
    let code = out.status.code().or(out.status.signal().map(|s| -s));
    (code, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Checks the invariants; `handled` says the process ended by itself (a handled signal), so
/// nothing may be left even before any recovery.
fn check(
    p: &Project,
    s: &Scenario,
    case: &str,
    before_files: &BTreeMap<String, String>,
    before_manifest: Option<&str>,
    handled: bool,
    stderr: &str,
) {
    let dir = p.path();
    if handled {
        assert!(
            leftovers(dir).is_empty(),
            "{case}: a handled signal left {:?}",
            leftovers(dir)
        );
    }
    // The next command on the manifest (inspect, here) finds a whole manifest and settles what
    // was left; `recover` then has nothing left to do for it.
    let mut inspected = String::new();
    if p.join("run.sciproof.json").exists() {
        let out = p
            .cmd()
            .args(["inspect", "run.sciproof.json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{case}: inspect failed");
        inspected = String::from_utf8_lossy(&out.stderr).into_owned();
    }
    let recover = sciproof(dir).args(["recover"]).output().unwrap();
    assert_eq!(
        recover.status.code(),
        Some(0),
        "{case}: recover failed: {}",
        String::from_utf8_lossy(&recover.stderr)
    );
    let said = format!(
        "{stderr}{inspected}{}",
        String::from_utf8_lossy(&recover.stdout)
    );
    assert!(
        leftovers(dir).is_empty(),
        "{case}: left {:?}",
        leftovers(dir)
    );
    let manifest = std::fs::read_to_string(p.join("run.sciproof.json")).ok();
    if s.manifest_unchanged {
        assert_eq!(
            manifest.as_deref(),
            before_manifest,
            "{case}: manifest changed"
        );
    }
    let files_now = user_files(dir);
    let old_state = manifest.as_deref() == before_manifest;
    if s.files_unchanged || (old_state && s.name.starts_with("update")) {
        let ignore =
            |k: &String| k == "failpoints.log" || k == "statement.json" || k == "claims.json";
        let a: BTreeMap<_, _> = before_files.iter().filter(|(k, _)| !ignore(k)).collect();
        let b: BTreeMap<_, _> = files_now.iter().filter(|(k, _)| !ignore(k)).collect();
        assert_eq!(a, b, "{case}: the user's files changed ({said})");
    }
    if let Some(text) = &manifest {
        // Whichever state it is, it is whole: the snapshots match what the manifest pins.
        let (_, report) = p.verify_json("run.sciproof.json");
        for check in field(&report, "checks").as_array().unwrap() {
            let subject = field(check, "subject").as_str().unwrap();
            if subject.ends_with(" snapshot") {
                panic!("{case}: {subject}: {:?}", field(check, "message"));
            }
        }
        sciproof_core::manifest::parse_manifest(text).unwrap();
        if !old_state && s.name.starts_with("update") && !s.name.contains("fails") {
            let (code, _) = p.verify_json("run.sciproof.json");
            assert_eq!(code, 0, "{case}: the new evidence does not verify");
        }
    }
    for folder in kept_folders(dir) {
        if s.name == "update whose command fails" && !old_state {
            continue; // named in the update's own warning
        }
        assert!(
            said.contains(&folder) || s.name == "verify --rerun",
            "{case}: {folder} was kept but no message named it ({said})"
        );
    }
    // Text files written by single atomic writes are whole: old or new, never a mix.
    if let Ok(statement) = std::fs::read_to_string(p.join("statement.json")) {
        assert!(
            statement == "old statement\n" || sciproof_core::json::parse(&statement).is_ok(),
            "{case}: torn statement"
        );
    }
    if let Ok(graph) = std::fs::read_to_string(p.join("claims.json")) {
        assert!(
            sciproof_core::graph::ClaimGraph::from_json(&graph).is_ok(),
            "{case}: torn graph"
        );
    }
}

#[test]
fn every_failpoint_of_every_operation_leaves_the_old_or_the_new_state() {
    let mut cases = 0;
    let signals = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGQUIT];
    for s in scenarios() {
        let points = reached(&s);
        assert!(!points.is_empty(), "{}: no failpoint reached", s.name);
        for (i, point) in points.iter().enumerate() {
            let faults = [
                Fault::Abort,
                Fault::KillSelf,
                Fault::KillFromOutside,
                Fault::Signal(signals[i % signals.len()]),
            ];
            for fault in faults {
                let p = base_project();
                (s.setup)(&p);
                let before_files = user_files(p.path());
                let before_manifest = std::fs::read_to_string(p.join("run.sciproof.json")).ok();
                let tmp = tempfile::tempdir().unwrap();
                let (code, stderr) = disturbed(&p, &s, point, fault, tmp.path());
                let case = format!("{} at {point} ({fault:?}, exit {code:?})", s.name);
                let handled = matches!(fault, Fault::Signal(_));
                if handled {
                    // The exit code tells the truth: finished (0/1/2) or interrupted (128+N).
                    let c = code.unwrap_or(-1);
                    assert!(
                        (0..=2).contains(&c) || c == 128 + signals[i % signals.len()],
                        "{case}: {stderr}"
                    );
                    if c >= 128 {
                        assert!(stderr.contains("interrupted by SIG"), "{case}: {stderr}");
                    }
                }
                check(
                    &p,
                    &s,
                    &case,
                    &before_files,
                    before_manifest.as_deref(),
                    handled,
                    &stderr,
                );
                // Everything temporary is in the work folder beside the manifest, which the
                // next sciproof clears: nothing is left in the temporary directory.
                let left: Vec<_> = std::fs::read_dir(tmp.path())
                    .unwrap()
                    .map(|e| e.unwrap().file_name())
                    .collect();
                assert!(left.is_empty(), "{case}: left {left:?} in TMPDIR");
                cases += 1;
            }
        }
    }
    eprintln!("{cases} disturbed runs checked");
    assert!(cases > 100, "only {cases} cases");
}

#[test]
fn an_interrupted_recovery_is_recovered_too() {
    let scenarios = scenarios();
    let s = scenarios.iter().find(|s| s.name == "update").unwrap();
    // Crash the update after it moved the outputs aside, then crash each recovery step.
    let p = base_project();
    (s.setup)(&p);
    let (code, _) = disturbed(
        &p,
        s,
        "aside.moved#2",
        Fault::KillSelf,
        &std::env::temp_dir(),
    );
    assert_eq!(code, Some(-libc::SIGKILL));
    let log = p.join("recover.log");
    let out = clean_env(Command::new(failpoint_binary()))
        .current_dir(p.path())
        .args(["recover"])
        .env("SCIPROOF_FAILPOINT_LOG", &log)
        .output()
        .unwrap();
    assert!(out.status.success());
    let points: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| format!("{l}#1"))
        .collect();
    assert!(points.len() >= 3, "{points:?}");
    for point in points {
        let p = base_project();
        (s.setup)(&p);
        let before_files = user_files(p.path());
        let before_manifest = std::fs::read_to_string(p.join("run.sciproof.json")).ok();
        disturbed(
            &p,
            s,
            "aside.moved#2",
            Fault::KillSelf,
            &std::env::temp_dir(),
        );
        let out = clean_env(Command::new(failpoint_binary()))
            .current_dir(p.path())
            .args(["recover"])
            .env("SCIPROOF_FAILPOINT", &point)
            .env("SCIPROOF_FAILPOINT_ACTION", "kill")
            .output()
            .unwrap();
        assert!(!out.status.success(), "recovery was not killed at {point}");
        check(
            &p,
            s,
            &format!("recovery killed at {point}"),
            &before_files,
            before_manifest.as_deref(),
            false,
            &String::from_utf8_lossy(&out.stderr),
        );
    }
}

/// A small deterministic generator (xorshift64*), so a failing run can be repeated.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn signals_and_kills_at_random_moments_never_lose_anything() {
    let seed = std::env::var("SCIPROOF_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5c1_9200f_u64);
    let mut random = Random(seed);
    let signals = [libc::SIGKILL, libc::SIGTERM, libc::SIGINT, libc::SIGHUP];
    let all = scenarios();
    let chosen: Vec<&Scenario> = all
        .iter()
        .filter(|s| {
            matches!(
                s.name,
                "capture --force" | "update" | "verify --rerun" | "update whose command fails"
            )
        })
        .collect();
    let mut runs = 0;
    let mut by_outcome: BTreeMap<String, usize> = BTreeMap::new();
    for round in 0..216 {
        let s = chosen[round % chosen.len()];
        let signal = signals[(round / chosen.len()) % signals.len()];
        let p = base_project();
        (s.setup)(&p);
        // The command takes a little while, so that moments inside it are drawn too.
        p.write(
            "run.sh",
            &SCRIPT.replace("mkdir -p out figs\n", "mkdir -p out figs\nsleep 0.01\n"),
        );
        let before_files = user_files(p.path());
        let before_manifest = std::fs::read_to_string(p.join("run.sciproof.json")).ok();
        let delay = Duration::from_micros(random.next() % 60_000);
        let child = sciproof_process()
            .current_dir(p.path())
            .args(&s.args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        unsafe { libc::kill(child.id() as i32, signal) };
        let out = child.wait_with_output().unwrap();
        use std::os::unix::process::ExitStatusExt;
        let code = out.status.code().or(out.status.signal().map(|s| -s));
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let case = format!(
            "{} with {} after {delay:?} (seed {seed:#x}, round {round}, exit {code:?})",
            s.name,
            sciproof_core::interrupt::signal_name(signal)
        );
        let handled = signal != libc::SIGKILL;
        if handled {
            // A signal that arrives before main() has installed its handler ends the process
            // with the default action (-signal here): nothing had been touched then.
            let c = code.unwrap_or(-1);
            assert!(
                (0..=2).contains(&c) || c == 128 + signal || c == -signal,
                "{case}: {stderr}"
            );
        }
        *by_outcome.entry(format!("{code:?}")).or_default() += 1;
        check(
            &p,
            s,
            &case,
            &before_files,
            before_manifest.as_deref(),
            handled,
            &stderr,
        );
        runs += 1;
    }
    eprintln!("{runs} runs, exit codes: {by_outcome:?}");
    assert!(runs >= 200);
    // The moments are spread: some runs were cut short, some were not.
    assert!(by_outcome.len() >= 3, "{by_outcome:?}");
}
