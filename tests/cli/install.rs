//! What an installation adds: shell completions that the shells accept, manual pages that
//! `man` renders, one per command, and the CI examples, run on a sample repository.

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

/// The `run:` / `- ` step of a CI file that calls the verify script.
fn verify_step(ci_file: &str) -> String {
    let text = std::fs::read_to_string(format!(
        "{}/examples/ci/{ci_file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("sh ci/sciproof-verify.sh") && !l.trim().starts_with('#'))
        .unwrap_or_else(|| panic!("{ci_file} runs ci/sciproof-verify.sh"));
    line.trim()
        .trim_start_matches("- ")
        .trim_start_matches("run: ")
        .to_string()
}

#[test]
fn the_ci_examples_verify_every_manifest_of_a_repository() {
    let bin = assert_cmd::cargo::cargo_bin("sciproof");
    for ci_file in ["github-actions.yml", "gitlab-ci.yml"] {
        // A sample repository: two runs that pass, one whose output was changed afterwards,
        // and a manifest under target/ that is skipped.
        let repo = tempfile::tempdir().unwrap();
        for (folder, name, content) in [
            ("a", "prep", "1"),
            ("b", "fit", "2"),
            ("c", "plot", "3"),
            ("target/x", "skip", "4"),
        ] {
            let dir = repo.path().join(folder);
            std::fs::create_dir_all(&dir).unwrap();
            let out = crate::util::sciproof(&dir)
                .args([
                    "capture", "--name", name, "--output", "out.txt", "--", "sh", "-c",
                ])
                .arg(format!("echo {content} > out.txt"))
                .output()
                .unwrap();
            assert!(out.status.success());
        }
        std::fs::write(repo.path().join("c/out.txt"), "tampered\n").unwrap();
        std::fs::create_dir(repo.path().join("ci")).unwrap();
        std::fs::copy(
            format!("{}/examples/ci/verify-all.sh", env!("CARGO_MANIFEST_DIR")),
            repo.path().join("ci/sciproof-verify.sh"),
        )
        .unwrap();
        let summary = repo.path().join("step-summary.md");
        let run = Command::new("sh")
            .arg("-c")
            .arg(verify_step(ci_file))
            .current_dir(repo.path())
            .env("SCIPROOF", &bin)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .unwrap();
        assert_eq!(
            run.status.code(),
            Some(1),
            "{ci_file}: a tampered output fails the job: {run:?}"
        );
        let summary = if ci_file == "github-actions.yml" {
            std::fs::read_to_string(&summary).unwrap()
        } else {
            std::fs::read_to_string(repo.path().join("sciproof-summary.md")).unwrap()
        };
        assert!(
            summary.contains("| a/prep.sciproof.json | prep |"),
            "{summary}"
        );
        assert!(
            summary.contains("c/plot.sciproof.json") && summary.contains("FAIL"),
            "{summary}"
        );
        assert!(
            !summary.contains("skip.sciproof.json"),
            "target/ is skipped: {summary}"
        );
        let mut reports: Vec<String> = std::fs::read_dir(repo.path().join("sciproof-reports"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        reports.sort();
        assert_eq!(
            reports,
            [
                "a_prep.sciproof.xml",
                "b_fit.sciproof.xml",
                "c_plot.sciproof.xml"
            ]
        );
        let failed =
            std::fs::read_to_string(repo.path().join("sciproof-reports/c_plot.sciproof.xml"))
                .unwrap();
        assert!(
            failed.contains("<testsuite") && failed.contains("<failure"),
            "{failed}"
        );
    }
}
