//! `sciproof export` and `sciproof badge` through the real binary, against the reference.

use crate::util::*;
use predicates::prelude::*;
use sciproof_core::json::Value;

/// `sciproof export lx.sciproof.json --format latex --value NAME FILE LOCATION`.
fn latex_value(p: &Project, name: &str, file: &str, location: &str) -> assert_cmd::assert::Assert {
    p.cmd()
        .args(["export", "lx.sciproof.json", "--format", "latex"])
        .args(["--value", name, file, location])
        .assert()
}

/// Compiles `body` after `\input{values}` with pdflatex; the log when it fails.
fn pdflatex(p: &Project, values: &str, body: &str) -> Result<(), String> {
    p.write(
        "doc.tex",
        &format!("\\documentclass{{article}}\n\\input{{{values}}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"),
    );
    let run = std::process::Command::new("pdflatex")
        .current_dir(p.path())
        .args(["-interaction=nonstopmode", "-halt-on-error", "doc.tex"])
        .output()
        .expect("pdflatex is needed (Debian texlive-latex-base; ./test installs it)");
    if run.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&run.stdout).into_owned())
    }
}

#[test]
fn openlineage_events_are_the_references_and_in_toto_adds_the_verdict() {
    let p = Project::new();
    p.capture("run");
    let ours = p
        .cmd()
        .args(["export", "run.sciproof.json", "--format", "openlineage"])
        .output()
        .unwrap();
    let theirs = reference_cmd(p.path())
        .args(["export", "run.sciproof.json", "--format", "openlineage"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&theirs.stdout)
    );
    let ours = p
        .cmd()
        .args(["export", "run.sciproof.json"])
        .output()
        .unwrap();
    let theirs = reference_cmd(p.path())
        .args(["export", "run.sciproof.json"])
        .output()
        .unwrap();
    let (o, t) = (
        sciproof_core::json::parse(&String::from_utf8(ours.stdout).unwrap()).unwrap(),
        sciproof_core::json::parse(&String::from_utf8(theirs.stdout).unwrap()).unwrap(),
    );
    assert_eq!(field(&o, "subject"), field(&t, "subject"));
    assert_eq!(
        field(&o, "_type").as_str(),
        Some("https://in-toto.io/Statement/v1")
    );
    let predicate = field(&o, "predicate").clone();
    assert_eq!(
        field(field(&predicate, "integrity"), "result").as_str(),
        Some("PASS")
    );
    for key in [
        "experiment",
        "command",
        "materials",
        "environment",
        "claims",
        "outputs",
        "manifestDigest",
    ] {
        assert_eq!(
            field(&predicate, key),
            field(field(&t, "predicate"), key),
            "{key}"
        );
    }
}

#[test]
fn an_export_of_evidence_that_fails_says_so() {
    let p = Project::new();
    p.capture("run");
    p.write("out/log.txt", "changed\n");
    let out = p
        .cmd()
        .args(["export", "run.sciproof.json", "-o", "statement.json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("warning: the evidence does not verify (FAIL)")
    );
    let doc = sciproof_core::json::parse(&p.read("statement.json")).unwrap();
    assert_eq!(
        field(field(field(&doc, "predicate"), "integrity"), "result").as_str(),
        Some("FAIL")
    );
    p.cmd()
        .args(["export", "nope.sciproof.json"])
        .assert()
        .code(3);
}

#[test]
fn the_badge_shows_the_verdict_in_its_colour() {
    let p = Project::new();
    p.capture("run");
    p.cmd()
        .args(["badge", "run.sciproof.json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("PASS: wrote sciproof-badge.svg"));
    let svg = p.read("sciproof-badge.svg");
    assert!(svg.contains("fill=\"#2ea44f\"") && svg.contains("integrity"));
    p.write("out/log.txt", "changed\n");
    p.cmd()
        .args(["badge", "run.sciproof.json", "-o", "fail.svg"])
        .assert()
        .code(1);
    assert!(p.read("fail.svg").contains("fill=\"#cf222e\""));
    // render with a real SVG renderer (resvg, the renderer of the Rust ecosystem) and look at a
    // pixel of the verdict's half
    let tree = resvg::usvg::Tree::from_str(&p.read("fail.svg"), &resvg::usvg::Options::default())
        .expect("the badge is SVG a renderer reads");
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    assert_eq!(height, 20);
    assert!(width > 200, "{width}");
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let pixel = pixmap.pixel(width - 4, 2).unwrap().demultiply();
    let (r, g, b) = (pixel.red(), pixel.green(), pixel.blue());
    assert!(
        r > 180 && g < 80 && b < 80,
        "pixel {r},{g},{b} is not the FAIL red"
    );
}

#[test]
fn latex_values_come_from_verified_outputs_only_tsv_included() {
    let p = Project::new();
    p.write(
        "m.json",
        "{\"acc\": 0.92, \"tiny\": 1e-05, \"s\": \"50% x_1\"}",
    );
    p.write("t.tsv", "id\tloss\n1\t0.25\n");
    p.cmd()
        .args([
            "capture", "--name", "lx", "--output", "m.json", "--output", "t.tsv", "--", "true",
        ])
        .assert()
        .success();
    let args = [
        "export",
        "lx.sciproof.json",
        "--format",
        "latex",
        "--value",
        "acc",
        "m.json",
        "$.acc",
        "--value",
        "tinyval",
        "m.json",
        "$.tiny",
        "--value",
        "s",
        "m.json",
        "$.s",
    ];
    let ours = p.cmd().args(args).output().unwrap();
    let theirs = reference_cmd(p.path()).args(args).output().unwrap();
    let body = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&ours), body(&theirs));
    assert!(body(&ours).contains("\\newcommand{\\tinyval}{$1\\times 10^{-5}$}"));
    // A name LaTeX already defines (\tiny) is refused; the reference writes a document that
    // does not compile.
    latex_value(&p, "tiny", "m.json", "$.tiny")
        .code(3)
        .stderr(predicate::str::contains(
            "\\tiny is already defined by LaTeX",
        ));
    latex_value(&p, "loss", "t.tsv", "r1c1")
        .success()
        .stdout(predicate::str::contains("\\newcommand{\\loss}{0.25}"));
    latex_value(&p, "a1", "m.json", "$.acc")
        .code(3)
        .stderr(predicate::str::contains(
            "a LaTeX macro name is 1 to 40 letters",
        ));
    p.cmd()
        .args([
            "export",
            "lx.sciproof.json",
            "--value",
            "a",
            "m.json",
            "$.acc",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "--value is only used with --format latex",
        ));
    p.write("m.json", "{\"acc\": 0.5}");
    latex_value(&p, "acc", "m.json", "$.acc")
        .code(3)
        .stderr(predicate::str::contains(
            "not exporting values: the verification of lx.sciproof.json is FAIL",
        ));
}

#[test]
fn the_in_toto_statement_validates_with_the_in_toto_attestation_package() {
    let p = Project::new();
    p.write("data/a.txt", "a");
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--input",
            "data.json",
            "--output",
            "out",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success();
    p.cmd()
        .args(["export", "run.sciproof.json", "-o", "statement.json"])
        .assert()
        .success();
    let script = r#"
import sys
from google.protobuf import json_format
import in_toto_attestation.v1.statement_pb2 as spb
from in_toto_attestation.v1.statement import Statement
text = open(sys.argv[1]).read()
pb = json_format.Parse(text, spb.Statement())
statement = Statement.copy_from_pb(pb)
statement.validate()
print(len(pb.subject))
"#;
    let run = std::process::Command::new(reference_python())
        .arg("-c")
        .arg(script)
        .arg(p.join("statement.json"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // the output directory is expanded into one subject per file
    assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "2");
}

/// The constraints of the OpenLineage 1-0-0 RunEvent schema, checked by hand: required `run`
/// (with a UUID `runId`), `job` (`namespace`, `name`), `eventTime` (date-time), `producer`
/// (URI); `eventType` one of the enum; datasets with `namespace` and `name`.
fn check_run_event(event: &Value) {
    let o = event.as_object().expect("an object");
    for key in ["run", "job", "eventTime", "producer"] {
        assert!(o.contains_key(key), "missing {key}");
    }
    let kind = field(event, "eventType").as_str().unwrap();
    assert!(["START", "COMPLETE", "ABORT", "FAIL", "OTHER"].contains(&kind));
    let run_id = field(field(event, "run"), "runId").as_str().unwrap();
    assert!(
        uuid::Uuid::parse_str(run_id).is_ok(),
        "runId {run_id} is a UUID"
    );
    let job = field(event, "job");
    assert!(field(job, "namespace").as_str().is_some() && field(job, "name").as_str().is_some());
    assert!(sciproof_core::timestamp::parse(field(event, "eventTime").as_str().unwrap()).is_ok());
    assert!(
        field(event, "producer")
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    for datasets in ["inputs", "outputs"] {
        for d in field(event, datasets).as_array().unwrap() {
            assert!(
                field(d, "namespace").as_str().is_some() && field(d, "name").as_str().is_some()
            );
        }
    }
}

#[test]
fn openlineage_events_satisfy_the_run_event_schema_and_a_failed_run_ends_in_fail() {
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
            "--allow-nonzero",
            "--",
            "false",
        ])
        .assert()
        .success();
    let out = p
        .cmd()
        .args(["export", "f.sciproof.json", "--format", "openlineage"])
        .output()
        .unwrap();
    let events = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let events = events.as_array().unwrap();
    assert_eq!(events.len(), 2);
    events.iter().for_each(check_run_event);
    assert_eq!(field(&events[0], "eventType").as_str(), Some("START"));
    assert_eq!(field(&events[1], "eventType").as_str(), Some("FAIL"));
    assert_eq!(
        field(&events[1], "outputs").as_array().unwrap().len(),
        0,
        "absent outputs are not datasets"
    );
}

#[test]
fn latex_macros_compile_with_pdflatex() {
    let p = Project::new();
    p.write(
        "m.json",
        "{\"acc\": 0.92, \"tiny\": 1e-05, \"s\": \"50% x_1 & {y} ~ ^ \\\\ #\"}",
    );
    p.cmd()
        .args([
            "capture", "--name", "lx", "--output", "m.json", "--", "true",
        ])
        .assert()
        .success();
    p.cmd()
        .args([
            "export",
            "lx.sciproof.json",
            "--format",
            "latex",
            "-o",
            "values.tex",
        ])
        .args([
            "--value", "acc", "m.json", "$.acc", "--value", "tinyval", "m.json", "$.tiny",
            "--value", "str", "m.json", "$.s",
        ])
        .assert()
        .success();
    let tex = p.read("values.tex");
    // every brace is balanced and every special character of the string is escaped
    assert_eq!(tex.matches('{').count(), tex.matches('}').count());
    assert!(tex.contains("\\newcommand{\\str}{50\\% x\\_1 \\& \\{y\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{} \\#}"));
    // The compile step is the point of this test: it runs, or the test fails (./test installs
    // pdflatex).
    if let Err(log) = pdflatex(&p, "values.tex", "\\acc{} \\tinyval{} \\str{}") {
        panic!("{log}");
    }
}

#[test]
fn latex_names_latex_already_defines_are_refused() {
    let p = Project::new();
    p.write("m.json", "{\"acc\": 0.92}");
    p.cmd()
        .args([
            "capture", "--name", "lx", "--output", "m.json", "--", "true",
        ])
        .assert()
        .success();
    for name in ["small", "section", "today", "alpha", "par"] {
        latex_value(&p, name, "m.json", "$.acc")
            .code(3)
            .stderr(predicate::str::contains(format!(
                "\\{name} is already defined by LaTeX"
            )));
    }
    // The suggested name works, and compiles.
    let values = latex_value(&p, "smallValue", "m.json", "$.acc").success();
    p.write(
        "v.tex",
        &String::from_utf8_lossy(&values.get_output().stdout),
    );
    pdflatex(&p, "v.tex", "\\smallValue{}").unwrap();
}

#[test]
fn the_list_of_names_latex_defines_matches_the_installed_latex() {
    let out = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/support/latex_defined_names.py"
        ))
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/sciproof-core/src/latex_defined_names.txt"
    ))
    .unwrap();
    let found = String::from_utf8(out.stdout).unwrap();
    let (committed, found): (
        std::collections::BTreeSet<&str>,
        std::collections::BTreeSet<&str>,
    ) = (committed.lines().collect(), found.lines().collect());
    // Every name this LaTeX defines is refused (a newer LaTeX may define more than ours: then
    // regenerate the file with the script).
    let missing: Vec<_> = found.difference(&committed).collect();
    assert!(
        missing.is_empty(),
        "defined by this LaTeX but not refused: {missing:?}"
    );
    assert!(committed.contains("small") && committed.len() > 1000);
}
