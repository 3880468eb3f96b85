//! One hostile corpus through every command and every format: whatever a manifest, a claim
//! graph, a crate or a command line holds, no byte that a terminal obeys (C0 but the line
//! break, DEL, C1, bidirectional and invisible format controls) reaches standard output or
//! standard error, JSON stays valid and means the same, and Markdown stays inert in a real
//! GFM renderer.

use crate::util::*;
use sciproof_core::json::Value;

/// Every class of hostile text at once: ANSI colours and screen clearing, OSC 8 hyperlinks,
/// OSC 0 (window title), BEL, a C1 CSI, bidi overrides and isolates (Trojan Source), invisible
/// characters, HTML and comments, links with javascript:, mentions, issue references, emoji
/// shortcodes, autolinks, backticks and math fences, table pipes, backslashes, character
/// references, tabs and line breaks.
const HOSTILE: &str = "Ah\u{1b}[31mred\u{1b}[2J\u{1b}]8;;http://evil.example/\u{7}link\u{1b}]8;;\u{7}\u{1b}]0;pwned\u{7}\u{7}\u{9b}2J \u{202e}gnp.exe\u{202c} \u{2066}iso\u{2069} \u{200b}\u{200f}\u{feff}\u{61c}\u{2028} <img src=x onerror=alert(1)> <!-- [x](javascript:alert(1)) ![i](http://e/x.png) @admin #12 :smile: www.evil.example http://evil.example `tick` ``` $$ | \\input{x} &#64;y &amp; \t\r\nsecond line\u{7f}";

/// The characters that must never reach a terminal raw.
fn unsafe_chars(text: &str) -> Vec<String> {
    text.chars()
        .filter(|&c| c != '\n' && sciproof_core::escape::terminal::is_unsafe(c))
        .map(|c| format!("U+{:04X}", c as u32))
        .collect()
}

/// Checks one command's output bytes; returns stdout.
fn inert(p: &Project, args: &[&str]) -> String {
    let out = p
        .cmd()
        .args(args)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert!(
        out.status.code().is_some_and(|c| c <= 3),
        "{args:?} crashed: {stderr}"
    );
    if std::env::var_os("HOSTILE_DEBUG").is_some() {
        eprintln!(
            "{args:?} -> {:?} ({} bytes out, {} err)",
            out.status.code(),
            stdout.len(),
            stderr.len()
        );
    }
    for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        let found = unsafe_chars(text);
        assert!(
            found.is_empty(),
            "{args:?}: {name} holds {found:?}:\n{text}"
        );
    }
    let json = args.windows(2).any(|w| w == ["--format", "json"]) || args.contains(&"--json");
    if json && !stdout.trim().is_empty() {
        for doc in if args.contains(&"check-records") || args[..2] == ["crate", "read"] {
            stdout.lines().map(str::to_string).collect::<Vec<_>>()
        } else {
            vec![stdout.clone()]
        } {
            sciproof_core::json::parse(&doc).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e})"));
        }
    }
    if args.windows(2).any(|w| w == ["--format", "markdown"])
        || args[..2] == ["graph", "show"] && !json && !args.contains(&"latex")
    {
        gfm_inert(args, &stdout);
    }
    stdout
}

/// Renders Markdown with comrak (GFM) and refuses any live markup that came from data.
fn gfm_inert(args: &[&str], markdown: &str) {
    let mut options = comrak::Options::default();
    options.extension.table = true;
    options.extension.autolink = true;
    options.extension.strikethrough = true;
    options.render.r#unsafe = true;
    let html = comrak::markdown_to_html(markdown, &options);
    for forbidden in [
        "<img",
        "<script",
        "<!--",
        "href=\"javascript",
        "href=\"http",
        "<del>",
    ] {
        assert!(
            !html.contains(forbidden),
            "{args:?}: {forbidden} is live in\n{html}"
        );
    }
    // Outside code spans (where GitHub links nothing), no mention survives decoding.
    let mut outside = String::new();
    for (i, part) in html.split("<code>").enumerate() {
        outside.push_str(if i == 0 {
            part
        } else {
            part.split_once("</code>").map_or("", |x| x.1)
        });
    }
    let decoded = outside.replace("&#64;", "@").replace("&amp;", "&");
    assert!(
        !decoded.contains("@admin"),
        "{args:?}: a live mention in {outside}"
    );
}

/// A project with a manifest whose every text field is hostile (still a valid manifest).
fn hostile_project() -> Project {
    let p = Project::new();
    let name = format!("out/\u{202e}evil{}.json", "");
    p.write(
        "run.sh",
        &format!(
            "mkdir -p out\nprintf '%s\\n' '{{\"v\": 1, \"s\": \"x\"}}' > '{name}'\necho \"{}\"\n",
            "ok"
        ),
    );
    p.write("claims.policy.toml", "version = 1\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "h",
            "--input",
            "data.json",
            "--output-numeric",
            &name,
            "--claim",
            &name,
            "$.v == 1",
            "--note",
            &HOSTILE.replace('\r', ""),
            "--",
            "sh",
            "run.sh",
            HOSTILE,
        ])
        .assert()
        .success();
    // Fill every other free-text field of the manifest with the corpus.
    let value = sciproof_core::json::parse(&p.read("h.sciproof.json")).unwrap();
    let mut object = value.as_object().unwrap().clone();
    let mut env = object
        .get("environment")
        .unwrap()
        .as_object()
        .unwrap()
        .clone();
    for section in ["platform", "python"] {
        let mut inner = env.get(section).unwrap().as_object().unwrap().clone();
        for key in [
            "system",
            "release",
            "machine",
            "platform",
            "version",
            "implementation",
        ] {
            if section == "platform" || key == "version" || key == "implementation" {
                inner.insert(key, HOSTILE);
            }
        }
        env.insert(section, Value::Object(inner));
    }
    env.insert(
        "env_vars",
        sciproof_core::json::Object::new().with("TZ", HOSTILE),
    );
    object.insert("environment", Value::Object(env));
    object.insert(
        "dependencies",
        Value::Array(vec![
            sciproof_core::json::Object::new()
                .with("name", HOSTILE)
                .with("version", HOSTILE)
                .into(),
        ]),
    );
    object.insert(
        "git",
        sciproof_core::json::Object::new()
            .with("commit", "0123456789abcdef0123456789abcdef01234567")
            .with("branch", HOSTILE)
            .with("dirty", true),
    );
    let mut text = sciproof_core::json::to_string_pretty(&Value::Object(object));
    text.push('\n');
    p.write("h.sciproof.json", &text);
    p
}

#[test]
fn no_command_or_format_lets_hostile_text_through() {
    let p = hostile_project();
    sciproof_core::manifest::load_manifest(&p.join("h.sciproof.json")).unwrap();
    // a second manifest that differs, for diff
    let other = p
        .read("h.sciproof.json")
        .replace("\"exit_code\": 0", "\"exit_code\": 3");
    p.write("h2.sciproof.json", &other);
    let m = "h.sciproof.json";
    inert(&p, &["inspect", m]);
    for format in ["text", "json", "markdown", "junit"] {
        inert(&p, &["verify", m, "--format", format]);
        inert(&p, &["list", "--check", "--format", format]);
    }
    inert(&p, &["claims", "check", m]);
    inert(&p, &["claims", "check", m, "--json"]);
    for format in ["text", "json", "markdown"] {
        inert(
            &p,
            &[
                "diff",
                m,
                "h2.sciproof.json",
                "--format",
                format,
                "--show-values",
            ],
        );
    }
    inert(&p, &["update", m, "--dry-run"]);
    for format in ["in-toto", "openlineage", "check-records"] {
        inert(&p, &["export", m, "--format", format]);
    }
    inert(&p, &["export", m, "--format", "ro-crate", "-o", "crate"]);
    inert(&p, &["crate", "read", "crate"]);
    inert(&p, &["crate", "read", "crate", "--json"]);
    // Claim graphs: a hostile claim in every free-text field, and the hostile run.
    inert(
        &p,
        &[
            "graph",
            "record",
            HOSTILE,
            "--method",
            HOSTILE,
            "--hypothesis",
            HOSTILE,
            "--label",
            HOSTILE,
            "--tag",
            HOSTILE,
            "--note",
            HOSTILE,
        ],
    );
    inert(
        &p,
        &[
            "graph",
            "conjecture",
            &format!("c {HOSTILE}"),
            "--evidence",
            HOSTILE,
        ],
    );
    inert(&p, &["graph", "add-run", m]);
    for format in ["markdown", "json", "latex"] {
        let out = inert(&p, &["graph", "show", "--format", format]);
        if format == "latex" {
            assert!(
                !out.contains("\\input{x}"),
                "a LaTeX command from data is live"
            );
        }
    }
    inert(&p, &["graph", "summary"]);
    inert(&p, &["graph", "verify"]);
    inert(&p, &["graph", "verify", "--format", "markdown"]);
    inert(&p, &["graph", "verify", "--format", "json"]);
    inert(&p, &["graph", "roots"]);
    inert(&p, &["graph", "roots", "--format", "json"]);
    // Errors echo what they refuse: a hostile name, an option, a path.
    inert(
        &p,
        &["capture", "--name", HOSTILE, "--output", "x", "--", "true"],
    );
    inert(&p, &["verify", HOSTILE]);
    inert(&p, &["graph", "impact", HOSTILE]);
    p.write(
        "bad.toml",
        &format!(
            "version = 1\n[manifest]\n\"{}\" = 1\n",
            HOSTILE.replace(['"', '\\', '\n', '\r'], "")
        ),
    );
    inert(&p, &["check-policy", "bad.toml"]);
    inert(&p, &["verify", m, "--policy", "bad.toml"]);
}

fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// Runs with a time limit (a read that blocks would hang forever); returns (code, stderr).
fn refused(p: &Project, args: &[&str]) -> (i32, String) {
    let out = p
        .cmd()
        .args(args)
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_fifo_or_link_named_like_a_temporary_is_never_opened() {
    let p = Project::new();
    p.capture("run");
    // sciproof removes its own temporaries whose writer died; these are not its own.
    mkfifo(&p.join(".sciproof-tmp-run.sciproof.json-1"));
    std::os::unix::fs::symlink("/dev/zero", p.join(".sciproof-tmp-run.sciproof.json-2")).unwrap();
    for args in [&["verify", "run.sciproof.json"][..], &["recover"]] {
        let (code, stderr) = refused(&p, args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
    }
    assert!(p.join(".sciproof-tmp-run.sciproof.json-1").exists());
}

#[test]
fn fifos_and_devices_are_named_and_never_waited_for() {
    let p = Project::new();
    p.capture("run");
    mkfifo(&p.join("ff"));
    for args in [
        &["graph", "--graph", "ff", "summary"][..],
        &["graph", "diff", "ff", "ff"],
        &["graph", "add-run", "ff"],
        &["verify", "run.sciproof.json", "--allowed-signers", "ff"],
        &["verify", "run.sciproof.json", "--policy", "ff"],
        &["check-policy", "ff"],
        &["verify", "ff"],
        &["sign", "run.sciproof.json", "--key", "ff"],
    ] {
        let (code, stderr) = refused(&p, args);
        assert_eq!(code, 3, "{args:?}: {stderr}");
        assert!(
            stderr.contains("is a FIFO, not a regular file") || stderr.contains("(it is a FIFO)"),
            "{args:?}: {stderr}"
        );
    }
    std::fs::create_dir(p.join("crate")).unwrap();
    mkfifo(&p.join("crate/ro-crate-metadata.json"));
    let (code, stderr) = refused(&p, &["crate", "read", "crate"]);
    assert_eq!(code, 3);
    assert!(stderr.contains("is a FIFO"), "{stderr}");
    std::os::unix::fs::symlink("/dev/zero", p.join("zero.json")).unwrap();
    let (code, stderr) = refused(&p, &["graph", "--graph", "zero.json", "summary"]);
    assert_eq!(code, 3);
    assert!(stderr.contains("is a character device"), "{stderr}");
    // A FIFO signature beside the manifest: unavailable (INCONCLUSIVE), named, not waited for.
    mkfifo(&p.join("run.sciproof.json.sig"));
    p.write("allowed", "");
    let (code, _) = refused(
        &p,
        &[
            "verify",
            "run.sciproof.json",
            "--allowed-signers",
            "allowed",
        ],
    );
    assert_eq!(code, 2);
}

#[test]
fn oversized_files_are_refused_before_they_are_read() {
    let p = Project::new();
    p.capture("run");
    let big = |name: &str, size: usize| {
        let f = std::fs::File::create(p.join(name)).unwrap();
        f.set_len(size as u64).unwrap(); // sparse: costs no disk
    };
    big("signers", 5 << 20);
    let (code, stderr) = refused(
        &p,
        &[
            "verify",
            "run.sciproof.json",
            "--allowed-signers",
            "signers",
        ],
    );
    assert_eq!(code, 3);
    assert!(stderr.contains("is larger than 4194304 bytes"), "{stderr}");
    big("run.sciproof.json.sig", 1 << 20);
    p.write("allowed", "");
    let out = p
        .cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--allowed-signers",
            "allowed",
            "--json",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("is larger than 65536 bytes"), "{text}");
    std::fs::create_dir(p.join("crate")).unwrap();
    big("crate/ro-crate-metadata.json", 101 << 20);
    let (code, stderr) = refused(&p, &["crate", "read", "crate"]);
    assert_eq!(code, 3);
    assert!(
        stderr.contains("is larger than 104857600 bytes"),
        "{stderr}"
    );
    big("key", 1 << 20);
    let (code, stderr) = refused(&p, &["sign", "run.sciproof.json", "--key", "key"]);
    assert_eq!(code, 3);
    assert!(stderr.contains("is larger than 65536 bytes"), "{stderr}");
}

#[test]
fn a_closed_pipe_ends_quietly_and_a_full_stdout_is_one_error_line() {
    let p = Project::new();
    p.capture("run");
    for i in 0..200 {
        p.cmd()
            .args([
                "graph",
                "conjecture",
                &format!("claim {i}"),
                "--evidence",
                "e",
            ])
            .assert()
            .success();
    }
    for args in [
        &["verify", "run.sciproof.json"][..],
        &["inspect", "run.sciproof.json"],
        &["graph", "show"],
        &["graph", "roots"],
        &["graph", "show", "--format", "json"],
    ] {
        // a pipe whose reader has gone
        let mut child = sciproof_process()
            .current_dir(p.path())
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {:?}", out.stderr);
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // a full device
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = sciproof_process()
            .current_dir(p.path())
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "error: cannot write to standard output: No space left on device\n",
            "{args:?}"
        );
    }
}

#[test]
fn a_graph_with_problems_lists_them_one_a_line() {
    let p = Project::new();
    p.write(
        "g.json",
        r#"{"claims": [{"id": "clm_0000000000000000", "statement": "s", "method": "m", "hypotheses": [], "depends_on": ["clm_ffffffffffffffff"], "status": "unverified"}], "kind": "alkahest.claim_graph", "schema_version": 1}"#,
    );
    let (code, stderr) = refused(&p, &["graph", "--graph", "g.json", "summary"]);
    assert_eq!(code, 3);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("error: while reading claim graph g.json: "),
        "{stderr}"
    );
    assert!(
        lines.len() >= 2 && lines[1..].iter().all(|l| l.starts_with("  - ")),
        "{stderr}"
    );
    assert!(!stderr.contains("\\n"), "a literal \\n: {stderr}");
}

#[test]
fn a_manifest_of_195000_outputs_is_read_verified_and_inspected() {
    // Validation and verification are linear (this took minutes when they were quadratic;
    // the benchmark times it).
    let p = Project::new();
    p.write("o0", "x\n");
    p.cmd()
        .args(["capture", "--name", "big", "--output", "o0", "--", "true"])
        .assert()
        .success();
    let manifest = sciproof_core::json::parse(&p.read("big.sciproof.json")).unwrap();
    let mut object = manifest.as_object().unwrap().clone();
    let outputs: Vec<Value> = (0..195_000)
        .map(|i| {
            sciproof_core::json::Object::new()
                .with("path", format!("p{i}"))
                .with("present", false)
                .with("size", 0u64)
                .with(
                    "compare",
                    sciproof_core::json::Object::new().with("mode", "exact"),
                )
                .into()
        })
        .collect();
    object.insert("outputs", Value::Array(outputs));
    let mut execution = object
        .get("execution")
        .unwrap()
        .as_object()
        .unwrap()
        .clone();
    execution.insert("exit_code", 1u64);
    object.insert("execution", Value::Object(execution));
    let mut text = String::new();
    sciproof_core::json::write_value(
        &mut text,
        &Value::Object(object),
        None,
        sciproof_core::json::Style::CANONICAL,
    );
    assert!(text.len() < 16 << 20, "{}", text.len());
    p.write("big.sciproof.json", &text);
    let (code, report) = p.verify_json("big.sciproof.json");
    assert_eq!(
        code,
        0,
        "{}",
        sciproof_core::json::to_string_compact(&report)
            .chars()
            .take(500)
            .collect::<String>()
    );
    // one check per output; the recorded exit status is a warning, not a check
    assert_eq!(field(&report, "checks").as_array().unwrap().len(), 195_000);
    p.cmd()
        .args(["inspect", "big.sciproof.json"])
        .assert()
        .success();
}

#[test]
fn a_link_in_place_of_the_work_folder_is_never_followed() {
    // An archive someone sent holds a link where sciproof's work folder would be: a recovery
    // that followed it would empty the folder it leads to.
    let victim = tempfile::tempdir().unwrap();
    std::fs::write(victim.path().join("precious.txt"), "keep me\n").unwrap();
    let p = Project::new();
    p.capture("run");
    let work = p.join(".sciproof-work-run.sciproof.json");
    std::os::unix::fs::symlink(victim.path(), &work).unwrap();
    let intact = || {
        assert_eq!(
            std::fs::read_to_string(victim.path().join("precious.txt")).unwrap(),
            "keep me\n"
        );
    };
    for args in [
        &["verify", "run.sciproof.json"][..],
        &["recover"],
        &["verify", "run.sciproof.json", "--rerun", "--yes"],
    ] {
        let out = p.cmd().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(".sciproof-work-run.sciproof.json is not a folder but a link or a file, so it is not an interrupted operation of sciproof on run.sciproof.json; nothing was followed or changed: remove it"),
            "{args:?}: {stderr}"
        );
        intact();
    }
    // A real work folder whose folder of originals is a link: the same.
    std::fs::remove_file(&work).unwrap();
    std::fs::create_dir(&work).unwrap();
    std::os::unix::fs::symlink(victim.path(), work.join("aside")).unwrap();
    let out = p.cmd().args(["recover"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            ".sciproof-work-run.sciproof.json/aside is not a folder but a link or a file"
        ),
    );
    intact();
    // A planted journal whose products folder is a link: what stands at the output's path is
    // never moved through it.
    std::fs::remove_dir_all(&work).unwrap();
    std::fs::create_dir_all(work.join("aside")).unwrap();
    std::fs::write(
        work.join("journal.json"),
        r#"{"sciproof_journal": 1, "op": "rerun", "phase": "aside", "pid": 1, "started_at": "",
            "asides": [{"path": "precious.txt", "was": "absent"}], "created_dirs": [],
            "products": ".sciproof-rerun-20261130T120000Z", "snapshots": false, "keep_old": null}"#,
    )
    .unwrap();
    p.write("precious.txt", "planted\n");
    std::os::unix::fs::symlink(victim.path(), p.join(".sciproof-rerun-20261130T120000Z")).unwrap();
    let out = p.cmd().args(["recover"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "could not move what the run produced at precious.txt aside: .sciproof-rerun-20261130T120000Z is a link, and nothing is moved through one"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    intact();
    std::fs::remove_dir_all(&work).unwrap();
    p.cmd()
        .args(["verify", "run.sciproof.json"])
        .assert()
        .success();
}
