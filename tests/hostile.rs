//! One hostile corpus through every command and every format: whatever a manifest, a claim
//! graph, a crate or a command line holds, no byte that a terminal obeys (C0 but the line
//! break, DEL, C1, bidirectional and invisible format controls) reaches standard output or
//! standard error, JSON stays valid and means the same, and Markdown stays inert in a real
//! GFM renderer.

mod common;
use common::*;
use sciproof::json::Value;

/// Every class of hostile text at once: ANSI colours and screen clearing, OSC 8 hyperlinks,
/// OSC 0 (window title), BEL, a C1 CSI, bidi overrides and isolates (Trojan Source), invisible
/// characters, HTML and comments, links with javascript:, mentions, issue references, emoji
/// shortcodes, autolinks, backticks and math fences, table pipes, backslashes, character
/// references, tabs and line breaks.
const HOSTILE: &str = "Ah\u{1b}[31mred\u{1b}[2J\u{1b}]8;;http://evil.example/\u{7}link\u{1b}]8;;\u{7}\u{1b}]0;pwned\u{7}\u{7}\u{9b}2J \u{202e}gnp.exe\u{202c} \u{2066}iso\u{2069} \u{200b}\u{200f}\u{feff}\u{61c}\u{2028} <img src=x onerror=alert(1)> <!-- [x](javascript:alert(1)) ![i](http://e/x.png) @admin #12 :smile: www.evil.example http://evil.example `tick` ``` $$ | \\input{x} &#64;y &amp; \t\r\nsecond line\u{7f}";

/// The characters that must never reach a terminal raw.
fn unsafe_chars(text: &str) -> Vec<String> {
    text.chars()
        .filter(|&c| c != '\n' && sciproof::text::is_unsafe(c))
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
            sciproof::json::parse(&doc).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e})"));
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
    let value = sciproof::json::parse(&p.read("h.sciproof.json")).unwrap();
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
        sciproof::json::Object::new().with("TZ", HOSTILE),
    );
    object.insert("environment", Value::Object(env));
    object.insert(
        "dependencies",
        Value::Array(vec![
            sciproof::json::Object::new()
                .with("name", HOSTILE)
                .with("version", HOSTILE)
                .into(),
        ]),
    );
    object.insert(
        "git",
        sciproof::json::Object::new()
            .with("commit", "0123456789abcdef0123456789abcdef01234567")
            .with("branch", HOSTILE)
            .with("dirty", true),
    );
    let mut text = sciproof::json::to_string_pretty(&Value::Object(object));
    text.push('\n');
    p.write("h.sciproof.json", &text);
    p
}

#[test]
fn no_command_or_format_lets_hostile_text_through() {
    let p = hostile_project();
    sciproof::manifest::load_manifest(&p.join("h.sciproof.json")).unwrap();
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
