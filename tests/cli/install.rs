//! What an installation adds: shell completions that the shells accept, and manual pages that
//! `man` renders, one per command.

use crate::util::Project;
use std::process::Command;

#[test]
fn bash_sources_the_completion_script() {
    let p = Project::new();
    let out = p.cmd().args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    p.write("sciproof.bash", &String::from_utf8(out.stdout).unwrap());
    let check = Command::new("bash")
        .arg("-c")
        .arg("set -e; source ./sciproof.bash; complete -p sciproof")
        .current_dir(p.path())
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(String::from_utf8_lossy(&check.stdout).contains("-F _sciproof sciproof"));
    // Completing `sciproof gr` offers `graph`.
    let offered = Command::new("bash")
        .arg("-c")
        .arg("source ./sciproof.bash; COMP_WORDS=(sciproof gr); COMP_CWORD=1; _sciproof sciproof gr sciproof; echo \"${COMPREPLY[@]}\"")
        .current_dir(p.path())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&offered.stdout).contains("graph"),
        "{offered:?}"
    );
}

#[test]
fn every_shell_has_a_script_and_an_unknown_one_is_a_usage_error() {
    let p = Project::new();
    for (shell, marker) in [
        ("zsh", "#compdef sciproof"),
        ("fish", "complete -c sciproof"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "sciproof"),
    ] {
        let out = p.cmd().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(marker),
            "{shell}"
        );
    }
    let out = p.cmd().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values"));
}

#[test]
fn man_renders_a_page_for_every_command() {
    let p = Project::new();
    std::fs::create_dir(p.path().join("man1")).unwrap();
    let out = p.cmd().args(["man", "--out", "man1"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    for page in [
        "sciproof.1",
        "sciproof-verify.1",
        "sciproof-graph-verify.1",
        "sciproof-claims-check.1",
        "sciproof-crate-read.1",
    ] {
        assert!(
            written.iter().any(|w| w.ends_with(page)),
            "{page} in {written:?}"
        );
    }
    // One page per command: as many as `--help` lists subcommands, recursively.
    assert!(written.len() > 35, "{}", written.len());
    for path in &written {
        let rendered = Command::new("man")
            .arg("-l")
            .arg(p.path().join(path))
            .env("MANWIDTH", "80")
            .env("MAN_KEEP_STDERR", "1")
            .output()
            .expect("man (Debian's man-db; ./test installs it)");
        assert!(
            rendered.status.success(),
            "{path}: {}",
            String::from_utf8_lossy(&rendered.stderr)
        );
        let text = String::from_utf8_lossy(&rendered.stdout);
        assert!(
            text.contains("NAME") && text.contains("SYNOPSIS"),
            "{path}: {text}"
        );
        assert!(
            rendered.stderr.is_empty(),
            "{path}: {}",
            String::from_utf8_lossy(&rendered.stderr)
        );
    }
    let page = Command::new("man")
        .arg("-l")
        .arg(p.path().join("man1/sciproof-graph-verify.1"))
        .env("MANWIDTH", "80")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&page.stdout).contains("--samples"));
    // Without --out, the main page on standard output; a missing folder is a usage error.
    let main_page = p.cmd().arg("man").output().unwrap();
    assert!(String::from_utf8_lossy(&main_page.stdout).starts_with(".ie \\n(.g .ds Aq"));
    let out = p.cmd().args(["man", "--out", "missing"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a folder"));
}
