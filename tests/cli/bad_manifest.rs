//! Bad manifests: every refusal is one line on stderr naming the file and the place, exit 3,
//! and nothing on disk changes.

use crate::util::*;
use predicates::prelude::*;

fn refuse(p: &Project, manifest: &str, message: &str) {
    for sub in ["verify", "inspect"] {
        let regular = std::fs::metadata(p.join(manifest)).is_ok_and(|m| m.is_file());
        let read = || regular.then(|| std::fs::read(p.join(manifest)).unwrap());
        let before = read();
        let out = p
            .cmd()
            .args([sub, manifest])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{sub} {manifest}: {stderr}");
        assert!(
            stderr.contains(message),
            "{sub}: expected {message:?} in {stderr:?}"
        );
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.starts_with("error: "));
        assert!(out.stdout.is_empty());
        assert_eq!(read(), before, "{manifest} changed");
    }
}

fn edited(p: &Project, from: &str, to: &str) {
    let text = p.read("run.sciproof.json");
    assert!(text.contains(from), "{from} not in manifest");
    p.write("bad.sciproof.json", &text.replacen(from, to, 1));
}

#[test]
fn missing_and_non_regular_manifests() {
    let p = Project::new();
    refuse(
        &p,
        "nope.sciproof.json",
        "manifest not found: nope.sciproof.json",
    );
    std::fs::create_dir(p.join("dir.sciproof.json")).unwrap();
    refuse(&p, "dir.sciproof.json", "manifest is not a regular file");
    let fifo = std::ffi::CString::new(p.join("fifo.sciproof.json").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    refuse(&p, "fifo.sciproof.json", "manifest is not a regular file");
}

#[test]
fn invalid_utf8_and_json_syntax_are_located() {
    let p = Project::new();
    std::fs::write(p.join("u.sciproof.json"), b"{\"schema\": \"\xff\"}").unwrap();
    refuse(
        &p,
        "u.sciproof.json",
        "manifest is not valid UTF-8: u.sciproof.json: invalid byte at offset 12",
    );
    p.write("s.sciproof.json", "{\n  \"schema\": }\n");
    refuse(
        &p,
        "s.sciproof.json",
        "manifest is not valid JSON: Expecting value: line 2 column 13 (char 14) (in s.sciproof.json",
    );
}

#[test]
fn duplicate_keys_are_refused_with_their_place() {
    let p = Project::new();
    p.capture("run");
    edited(
        &p,
        "\"name\": \"run\",",
        "\"name\": \"run\",\n  \"name\": \"other\",",
    );
    refuse(&p, "bad.sciproof.json", "duplicate object key 'name'");
    refuse(&p, "bad.sciproof.json", "line 5 column 3");
    refuse(
        &p,
        "bad.sciproof.json",
        "parsers disagree about which value wins",
    );
}

#[test]
fn wrong_types_and_values_name_the_field() {
    let p = Project::new();
    p.capture("run");
    let cases = [
        (
            "\"schema_version\": \"1.0\"",
            "\"schema_version\": \"2.0\"",
            "unsupported manifest version '2.0'; this SciProof reads major version 1.x",
        ),
        (
            "\"schema_version\": \"1.0\"",
            "\"schema_version\": \"1\"",
            "invalid manifest: schema_version: cannot parse version '1'",
        ),
        (
            "\"name\": \"run\"",
            "\"name\": 7",
            "invalid manifest: manifest.name: expected str, got int",
        ),
        (
            "\"exit_code\": 0",
            "\"exit_code\": true",
            "invalid manifest: execution.exit_code: unexpected boolean",
        ),
        (
            "\"rtol\": 1e-09",
            "\"rtol\": -1.0",
            "invalid manifest: outputs[1].compare.rtol: expected a finite number >= 0",
        ),
        (
            "\"rtol\": 1e-09",
            "\"rtol\": NaN",
            "invalid manifest: outputs[1].compare.rtol: expected a finite number >= 0",
        ),
        (
            "\"rtol\": 1e-09",
            &format!("\"rtol\": 1{}", "0".repeat(400)),
            "invalid manifest: outputs[1].compare.rtol: expected a finite number >= 0",
        ),
        (
            "\"path\": \"data.json\"",
            "\"path\": \"../data.json\"",
            "invalid manifest: inputs[0].path: path '../data.json' contains empty, '.' or '..' components",
        ),
        (
            "\"path\": \"data.json\"",
            "\"path\": \"/etc/passwd\"",
            "invalid manifest: inputs[0].path: path '/etc/passwd' is absolute",
        ),
        (
            "\"path\": \"train.sh\"",
            "\"path\": \"data.json\"",
            "invalid manifest: inputs[1].path: duplicate path 'data.json'",
        ),
        (
            "\"path\": \"out/log.txt\"",
            "\"path\": \"data.json\"",
            "invalid manifest: outputs[0].path: duplicate path 'data.json'",
        ),
        (
            "\"path\": \"out/result.json\"",
            "\"path\": \"out/log.txt\"",
            "invalid manifest: outputs[1].path: duplicate path 'out/log.txt'",
        ),
        (
            "\"mode\": \"exact\"",
            "\"mode\": \"fuzzy\"",
            "invalid manifest: outputs[0].compare.mode: expected 'exact' or 'numeric', got 'fuzzy'",
        ),
        (
            "\"created_at\": \"",
            "\"created_at\": \"yesterday\", \"x\": \"",
            "invalid manifest: manifest.created_at: not an ISO 8601 timestamp: 'yesterday'",
        ),
        (
            "\"cwd\": \".\"",
            "\"cwd\": \"/tmp\"",
            "invalid manifest: command.cwd: only '.' (the manifest directory) is supported",
        ),
        (
            "\"schema_version\": \"1.0\"",
            "\"schema_version\": \"1.0\", \"note\": \"n\"",
            "invalid manifest: note: a note needs schema_version 1.1 or later",
        ),
        (
            "\"schema_version\": \"1.0\"",
            "\"schema_version\": \"1.1\", \"note\": \"a\\u0000b\"",
            "invalid manifest: note: contains a NUL character (\\u0000), which no note may hold; remove it",
        ),
    ];
    for (from, to, message) in cases {
        edited(&p, from, to);
        refuse(&p, "bad.sciproof.json", message);
    }
}

#[test]
fn a_byte_order_mark_is_named() {
    let p = Project::new();
    p.capture("run");
    let text = p.read("run.sciproof.json");
    std::fs::write(p.join("bom.sciproof.json"), format!("\u{feff}{text}")).unwrap();
    refuse(
        &p,
        "bom.sciproof.json",
        "bom.sciproof.json starts with a byte-order mark (U+FEFF); remove it (save the file as UTF-8 without a BOM)",
    );
}

#[test]
fn unknown_keys_are_ignored() {
    let p = Project::new();
    p.capture("run");
    edited(
        &p,
        "\"name\": \"run\",",
        "\"name\": \"run\",\n  \"future_field\": {\"a\": [1, 2]},",
    );
    let (code, _) = p.verify_json("bad.sciproof.json");
    assert_eq!(code, 0);
}

#[test]
fn an_oversized_manifest_is_refused_before_it_is_read() {
    let p = Project::new();
    let f = std::fs::File::create(p.join("big.sciproof.json")).unwrap();
    f.set_len(16 * 1024 * 1024 + 1).unwrap();
    refuse(
        &p,
        "big.sciproof.json",
        "manifest is larger than 16777216 bytes",
    );
}

#[test]
fn huge_integers_are_exact_and_python_s_digit_limit_applies() {
    let p = Project::new();
    p.capture("run");
    edited(
        &p,
        "\"size\": 10\n",
        &format!("\"size\": {}\n", "9".repeat(30)),
    );
    refuse(
        &p,
        "bad.sciproof.json",
        "invalid manifest: inputs[0].size: expected a size that fits 64 bits",
    );
    edited(
        &p,
        "\"size\": 10\n",
        &format!("\"size\": {}\n", "9".repeat(4301)),
    );
    refuse(
        &p,
        "bad.sciproof.json",
        "Exceeds the limit (4300 digits) for integer string conversion",
    );
}

#[test]
fn demo_refuses_a_folder_it_did_not_create() {
    let p = Project::new();
    p.cmd()
        .args(["demo", "."])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "was not created by 'sciproof demo'",
        ));
    assert_eq!(p.read("data.json"), "{\"x\": 21}\n");
}

#[test]
fn outputs_that_name_version_control_or_evidence_are_refused_at_load() {
    let p = Project::new();
    p.capture("run");
    for (name, what) in [
        (".git", "is version-control data (.git)"),
        ("src/.hg", "is version-control data (.hg)"),
        (".svn", "is version-control data (.svn)"),
        ("run.sciproof.json", "is sciproof evidence"),
        ("run.sciproof.json.sig", "is sciproof evidence"),
        ("run.sciproof.d", "is sciproof evidence"),
        (
            ".sciproof-rerun-20260101T000000Z",
            "is one of sciproof's working folders",
        ),
        (
            ".sciproof-work-run.sciproof.json",
            "is one of sciproof's working folders",
        ),
    ] {
        edited(
            &p,
            "\"path\": \"out/log.txt\"",
            &format!("\"path\": \"{name}\""),
        );
        refuse(
            &p,
            "bad.sciproof.json",
            &format!("invalid manifest: outputs[0].path: '{name}' {what}"),
        );
        // A rerun of such a manifest never starts, and nothing moves.
        let out = p
            .cmd()
            .args(["verify", "bad.sciproof.json", "--rerun", "--yes"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3));
    }
    // The manifest's own file, whatever it is called, is its evidence.
    let text = p
        .read("run.sciproof.json")
        .replace("\"path\": \"out/log.txt\"", "\"path\": \"renamed.json\"");
    p.write("renamed.json", &text);
    refuse(
        &p,
        "renamed.json",
        "'renamed.json' is this manifest's own evidence",
    );
}

#[test]
fn a_full_disk_never_truncates_an_existing_report() {
    use std::os::unix::process::CommandExt;
    let p = Project::new();
    p.capture("run");
    p.write("report.json", "the previous report\n");
    let mut cmd = sciproof_process();
    cmd.current_dir(p.path())
        .args(["verify", "run.sciproof.json", "--save-json", "report.json"]);
    // A file size limit of 64 bytes: any larger write fails as it does on a full disk.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error: cannot write report.json: File too large"),
        "{stderr}"
    );
    assert_eq!(p.read("report.json"), "the previous report\n");
    let left: Vec<String> = std::fs::read_dir(p.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".sciproof-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
