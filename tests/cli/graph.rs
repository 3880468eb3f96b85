//! `sciproof graph`: recording, the honesty invariant, lineage across runs, queries, documents,
//! bad input, and interop with alkahest 3.12 (installed into a venv by the tests).

use crate::util::{Project, alkahest_python};
use sciproof_core::json::{Value, parse};
use std::process::Command;

fn graph(p: &Project) -> assert_cmd::Command {
    let mut c = p.cmd();
    c.arg("graph");
    c
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Runs a graph command that must succeed (exit 0); returns stdout.
fn ok_graph(p: &Project, args: &[&str]) -> String {
    let (code, out, err) = run_graph(p, args);
    assert_eq!(code, 0, "graph {args:?}: {err}");
    out
}

fn run_graph(p: &Project, args: &[&str]) -> (i32, String, String) {
    let out = graph(p).args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        stdout(&out),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn alkahest(args: &[&str], stdin: Option<&str>) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/alkahest_interop.py"
    );
    let mut cmd = Command::new(alkahest_python());
    cmd.arg(script).args(args);
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "alkahest {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Two runs: `prep` writes clean.csv from raw.csv; `analysis` reads clean.csv and writes m.json
/// with two claims on it.
fn two_runs(p: &Project) {
    p.write("raw.csv", "a,b\n1,2\n3,4\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "prep",
            "--input",
            "raw.csv",
            "--output",
            "clean.csv",
            "--",
            "cp",
            "raw.csv",
            "clean.csv",
        ])
        .assert()
        .success();
    p.write(
        "analyse.sh",
        "#!/bin/sh\nprintf '{\"n\": 2, \"mean\": 2.5}\\n' > m.json\n",
    );
    p.cmd()
        .args([
            "capture",
            "--name",
            "analysis",
            "--input",
            "clean.csv",
            "--output",
            "m.json",
            "--claim",
            "m.json",
            "$.n >= 2",
            "--claim",
            "m.json",
            "$.mean ~= 2.5 atol=0.1",
            "--",
            "sh",
            "analyse.sh",
        ])
        .assert()
        .success();
}

fn ids(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn lineage_across_runs_answers_what_dies() {
    let p = Project::new();
    two_runs(&p);
    let (code, out, err) = run_graph(
        &p,
        &["add-run", "prep.sciproof.json", "analysis.sciproof.json"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("reads clean.csv, an output of clm_"), "{out}");
    let roots = ok_graph(&p, &["roots"]);
    let roots = ids(&roots);
    assert_eq!(roots.len(), 1, "only the prep run depends on nothing");
    let impact = ok_graph(&p, &["impact", &roots[0][..9]]);
    assert_eq!(
        ids(&impact).len(),
        3,
        "the analysis run and both of its claims: {impact}"
    );
    assert!(impact.contains("$.n >= 2") && impact.contains("$.mean ~= 2.5"));
    // Statuses never overstate: PASS is evidence, not a proof; nothing is machine-checked.
    let summary = ok_graph(&p, &["summary", "--format", "json"]);
    let summary = parse(&summary).unwrap();
    let o = summary.as_object().unwrap();
    assert_eq!(o.get("machine_checkable"), Some(&Value::from(0i64)));
    assert_eq!(
        o.get("by_status")
            .unwrap()
            .as_object()
            .unwrap()
            .get("numerically_checked"),
        Some(&Value::from(4i64))
    );
    // Everything holds: verify is 0 and lowers nothing.
    let (code, out, _) = run_graph(&p, &["verify"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("summary: {'ok': 4}"), "{out}");
    // The preprocessing output is changed: both runs fail their integrity, and are refuted.
    p.write("clean.csv", "a,b\n9,9\n");
    let (code, out, _) = run_graph(&p, &["verify", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let report = parse(&out).unwrap();
    assert_eq!(
        report.as_object().unwrap().get("ok"),
        Some(&Value::Bool(false))
    );
    let refuted = ok_graph(&p, &["summary"]);
    assert!(refuted.contains("refuted                2"), "{refuted}");
    // The value claims were checked on an intact m.json: they hold, and stay as they were.
    assert!(refuted.contains("numerically_checked    2"), "{refuted}");
    // Re-adding can only lower: the runs stay refuted.
    ok_graph(&p, &["add-run", "analysis.sciproof.json"]);
    let after = ok_graph(&p, &["summary"]);
    assert!(after.contains("refuted                2"), "{after}");
}

#[test]
fn a_changed_claim_output_makes_the_value_claim_inconclusive_and_the_run_refuted() {
    let p = Project::new();
    two_runs(&p);
    ok_graph(&p, &["add-run", "analysis.sciproof.json"]);
    p.write("m.json", "{\"n\": 1, \"mean\": 0}\n");
    let (code, out, _) = run_graph(&p, &["verify"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("failed       sciproof_manifest"), "{out}");
    assert!(out.contains("inconclusive sciproof_claim"), "{out}");
    // A run added while its output is already modified is refuted from the start.
    let q = Project::new();
    two_runs(&q);
    q.write("m.json", "{\"n\": 1}\n");
    let (code, out, _) = run_graph(&q, &["add-run", "analysis.sciproof.json"]);
    assert_eq!(code, 0);
    assert!(out.contains("integrity FAIL"), "{out}");
    assert!(out.contains("refuted"), "{out}");
}

#[test]
fn honesty_invariant_on_the_command_line() {
    let p = Project::new();
    let (code, id, err) = run_graph(
        &p,
        &[
            "conjecture",
            "2 * (1/2) = 1",
            "--evidence",
            "arithmetic",
            "--check",
            r#"{"kind": "numeric_relation", "constants": ["0.5", "1"], "coefficients": [2, -1]}"#,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let id = id.trim().to_string();
    let (code, wrong, _) = run_graph(
        &p,
        &[
            "record",
            "0.5 + 0.25 = 0",
            "--method",
            "typo",
            "--depends-on",
            &id[..8],
            "--check",
            r#"{"kind": "numeric_relation", "constants": ["0.5", "0.25"], "coefficients": [1, 1]}"#,
        ],
    );
    assert_eq!(code, 0);
    let wrong = wrong.trim().to_string();
    ok_graph(
        &p,
        &[
            "record",
            "an expression recipe",
            "--method",
            "m",
            "--check",
            r#"{"kind": "identity", "lhs": "x", "rhs": "x"}"#,
        ],
    );
    let (code, out, _) = run_graph(&p, &["verify", "--no-mark-refuted"]);
    assert_eq!(code, 1, "a failed re-check is still reported: {out}");
    assert!(
        out.contains("symbolic residual simplified to 0"),
        "the expression recipe is re-checked: {out}"
    );
    let summary = ok_graph(&p, &["summary"]);
    assert!(
        !summary.contains("refuted"),
        "--no-mark-refuted leaves statuses: {summary}"
    );
    let (code, _, _) = run_graph(&p, &["verify"]);
    assert_eq!(code, 1);
    let doc = parse(&p.read("claims.json")).unwrap();
    let claims = list(&doc, "claims");
    let status = |id: &str| {
        claims
            .iter()
            .find(|c| c.as_object().unwrap().get("id").unwrap().as_str() == Some(id))
            .map(|c| {
                c.as_object()
                    .unwrap()
                    .get("status")
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .unwrap()
    };
    assert_eq!(
        status(&id),
        "unverified",
        "a passing re-check never raises a status"
    );
    assert_eq!(status(&wrong), "refuted");
    let impact = ok_graph(&p, &["impact", &id]);
    assert_eq!(ids(&impact), vec![wrong.clone()]);
}

#[test]
fn ids_and_prefixes() {
    let p = Project::new();
    let a = ok_graph(&p, &["conjecture", "A", "--evidence", "e"]);
    assert_eq!(a.trim(), "clm_33f5df3fc90490cc", "the spec's test vector");
    let (code, _, err) = run_graph(&p, &["impact", "clm_"]);
    assert_eq!(code, 0, "{err}");
    ok_graph(&p, &["record", "B", "--method", "m"]);
    let (code, _, err) = run_graph(&p, &["impact", "clm_"]);
    assert_eq!(code, 3);
    assert!(err.contains("ambiguous"), "{err}");
    let (code, _, err) = run_graph(&p, &["impact", "clm_ffff"]);
    assert_eq!(code, 3);
    assert!(err.contains("no claim 'clm_ffff'"), "{err}");
}

#[test]
fn refusals_leave_the_graph_untouched() {
    let p = Project::new();
    ok_graph(&p, &["conjecture", "A", "--evidence", "e"]);
    let before = p.read("claims.json");
    for args in [
        vec!["record", "B", "--method", "m", "--depends-on", "clm_0000"],
        vec!["record", "B", "--method", "m", "--check", "[1]"],
        vec!["record", "B", "--method", "m", "--check", "{\"kind\": 3}"],
        vec!["record", "B", "--method", "m", "--check", "{"],
    ] {
        let (code, _, err) = run_graph(&p, &args);
        assert_eq!(code, 3, "{args:?}");
        assert!(err.starts_with("error: "), "{err}");
        assert_eq!(p.read("claims.json"), before);
    }
    // A merge edge that would close a cycle.
    let b = ok_graph(
        &p,
        &["record", "B", "--method", "m", "--depends-on", "clm_33f5"],
    );
    let before = p.read("claims.json");
    let (code, _, err) = run_graph(
        &p,
        &[
            "conjecture",
            "A",
            "--evidence",
            "e",
            "--depends-on",
            b.trim(),
        ],
    );
    assert_eq!(code, 3);
    assert!(err.contains("would close a cycle"), "{err}");
    assert_eq!(p.read("claims.json"), before);
    let (code, _, err) = run_graph(&p, &["--graph", "missing.json", "summary"]);
    assert_eq!(code, 3);
    assert!(err.contains("no claim graph at missing.json"), "{err}");
}

fn claim_json(id: &str, statement: &str, deps: &[&str]) -> String {
    let deps: Vec<String> = deps.iter().map(|d| format!("\"{d}\"")).collect();
    format!(
        r#"{{"id": "{id}", "statement": "{statement}", "method": "m", "depends_on": [{}]}}"#,
        deps.join(", ")
    )
}

/// A claim (method `m`, no dependencies) whose re-check is `check`, as JSON.
fn claim_with_check(statement: &str, check: sciproof_core::json::Object) -> String {
    let id = sciproof_core::graph::claim_id(statement, &[] as &[&str], "m");
    format!(
        r#"{{"id": "{id}", "statement": "{statement}", "method": "m", "check": {}}}"#,
        sciproof_core::json::to_string_compact(&sciproof_core::json::Value::Object(check))
    )
}

#[test]
fn bad_documents_get_a_list_of_problems() {
    let p = Project::new();
    let a = sciproof_core::graph::claim_id("A", &[] as &[&str], "m");
    let b = sciproof_core::graph::claim_id("B", &[] as &[&str], "m");
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "cycle",
            format!(
                r#"{{"claims": [{}, {}]}}"#,
                claim_json(&a, "A", &[&b]),
                claim_json(&b, "B", &[&a])
            ),
            "dependency cycle involving: ",
        ),
        (
            "missing",
            format!(
                r#"{{"claims": [{}]}}"#,
                claim_json(&a, "A", &["clm_0000000000000000"])
            ),
            "which is not in this graph",
        ),
        (
            "duplicate",
            format!(
                r#"{{"claims": [{}, {}]}}"#,
                claim_json(&a, "A", &[]),
                claim_json(&a, "A", &[])
            ),
            "repeats claims[0]",
        ),
        (
            "forged",
            format!(r#"{{"claims": [{}]}}"#, claim_json(&a, "B", &[])),
            "does not match its content",
        ),
        (
            "newer",
            r#"{"claims": [], "kind": "alkahest.claim_graph", "schema_version": 2}"#.into(),
            "schema v2 is newer",
        ),
        (
            "kind",
            r#"{"claims": [], "kind": "other"}"#.into(),
            "not an Alkahest claim graph",
        ),
        (
            "recipe",
            format!(
                r#"{{"claims": [{}]}}"#,
                claim_json(&a, "A", &[])
                    .replace("\"method\"", "\"check\": \"numeric\", \"method\"")
            ),
            "check: expected a recipe object",
        ),
        (
            "types",
            format!(
                r#"{{"claims": [{}]}}"#,
                claim_json(&a, "A", &[]).replace(
                    "\"method\": \"m\"",
                    "\"method\": \"m\", \"tags\": [1], \"status\": 5"
                )
            ),
            "claims[0].status: expected a string",
        ),
        (
            "not a list",
            r#"{"claims": {"a": 1}}"#.into(),
            "claims: expected a list",
        ),
        (
            "no id",
            r#"{"claims": [{"statement": "x"}]}"#.into(),
            "required key \"id\" is missing",
        ),
        ("top", "[1, 2]".into(), "not a claim-graph object"),
        ("json", "{\"claims\": [}".into(), "not valid JSON"),
        (
            "deep",
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
            "nesting deeper than",
        ),
    ];
    let files = std::fs::read_dir(p.path()).unwrap().count() + 1;
    for (name, text, expected) in cases {
        p.write("bad.json", &text);
        let (code, out, err) = run_graph(&p, &["--graph", "bad.json", "summary"]);
        assert_eq!(code, 3, "{name}: {out}{err}");
        assert!(err.contains(expected), "{name}: {err}");
        assert!(err.contains("bad.json"), "{name} names the file: {err}");
        assert_eq!(p.read("bad.json"), text, "{name}: never rewritten");
        // verify, which re-checks the claims as it reads them, refuses it alike and shows
        // no outcome.
        let (code, out, verify_err) = run_graph(&p, &["--graph", "bad.json", "verify"]);
        assert_eq!((code, out.as_str()), (3, ""), "{name}: {verify_err}");
        assert_eq!(verify_err, err, "{name}");
        assert_eq!(p.read("bad.json"), text, "{name}: never rewritten");
        let now = std::fs::read_dir(p.path()).unwrap().count();
        assert_eq!(now, files, "{name}: a file was left behind");
    }
    // Both problems of one document are listed.
    p.write(
        "bad.json",
        &format!(
            r#"{{"claims": [{}, {}]}}"#,
            claim_json(&a, "B", &[]),
            claim_json(&b, "B", &["clm_0000000000000000"])
        ),
    );
    let (_, _, err) = run_graph(&p, &["--graph", "bad.json", "digest"]);
    assert!(
        err.contains("2 problems")
            && err.contains("does not match")
            && err.contains("not in this graph"),
        "{err}"
    );
    // Unknown keys are dropped with a warning, not silently.
    p.write(
        "odd.json",
        &format!(
            r#"{{"claims": [{}], "extra": 1}}"#,
            claim_json(&a, "A", &[]).replace("\"method\"", "\"colour\": \"red\", \"method\"")
        ),
    );
    let (code, _, err) = run_graph(&p, &["--graph", "odd.json", "digest"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("unknown key 'colour' dropped")
            && err.contains("unknown top-level key 'extra' dropped"),
        "{err}"
    );
    let (code, _, verify_err) = run_graph(&p, &["--graph", "odd.json", "verify"]);
    assert_eq!((code, verify_err), (0, err));
}

#[test]
fn verify_puts_a_document_out_of_order_in_order() {
    // B depends on A but comes first: verify (which re-checks a document in order as it reads
    // it) loads this one whole, and writes it in the order every reader expects.
    let p = Project::new();
    let a = sciproof_core::graph::claim_id("A", &[] as &[&str], "m");
    let b = sciproof_core::graph::claim_id("B", &[] as &[&str], "m");
    let relation = r#""check": {"kind": "numeric_relation", "constants": ["2", "1"], "coefficients": [1, -2]}, "method""#;
    p.write(
        "g.json",
        &format!(
            r#"{{"claims": [{}, {}]}}"#,
            claim_json(&b, "B", &[&a]).replace("\"method\"", relation),
            claim_json(&a, "A", &[]).replace("\"method\"", relation)
        ),
    );
    let (code, out, err) = run_graph(&p, &["--graph", "g.json", "verify"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(ids(&out)[..2], [a.clone(), b.clone()], "{out}");
    let text = p.read("g.json");
    assert!(text.find(&format!("\"id\": \"{a}\"")) < text.find(&format!("\"id\": \"{b}\"")));
    assert_eq!(
        text.matches("\"outcome\": \"numeric_ok\"").count(),
        2,
        "{text}"
    );
}

#[test]
fn digest_of_a_document_out_of_order_is_the_digest_of_its_graph() {
    // B depends on A but comes first: digest (which hashes a document in order as it reads
    // it) loads this one whole, and hashes the graph in the order it is written, as it hashes
    // the same claims saved in that order.
    let p = Project::new();
    let a = sciproof_core::graph::claim_id("A", &[] as &[&str], "m");
    let b = sciproof_core::graph::claim_id("B", &[] as &[&str], "m");
    let out_of_order = format!(
        r#"{{"claims": [{}, {}]}}"#,
        claim_json(&b, "B", &[&a]),
        claim_json(&a, "A", &[])
    );
    p.write("out.json", &out_of_order);
    p.write(
        "in.json",
        &format!(
            r#"{{"claims": [{}, {}]}}"#,
            claim_json(&a, "A", &[]),
            claim_json(&b, "B", &[&a])
        ),
    );
    let (code, digest, err) = run_graph(&p, &["--graph", "out.json", "digest"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(digest, ok_graph(&p, &["--graph", "in.json", "digest"]));
    assert_eq!(digest.trim().len(), 64, "{digest}");
    assert_eq!(p.read("out.json"), out_of_order, "digest changes nothing");
}

#[test]
fn diff_and_digest() {
    let p = Project::new();
    ok_graph(&p, &["conjecture", "A", "--evidence", "e"]);
    std::fs::copy(p.join("claims.json"), p.join("old.json")).unwrap();
    let d1 = ok_graph(&p, &["digest"]);
    ok_graph(
        &p,
        &[
            "record",
            "B",
            "--method",
            "m",
            "--check",
            r#"{"kind": "numeric_relation", "constants": ["1"], "coefficients": [1]}"#,
        ],
    );
    assert_eq!(run_graph(&p, &["verify"]).0, 1, "B is refuted");
    let d2 = ok_graph(&p, &["digest"]);
    assert_ne!(d1, d2);
    let (code, out, _) = run_graph(&p, &["diff", "old.json", "claims.json"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("added    clm_") && out.contains("refuted"),
        "{out}"
    );
    let (code, out, _) = run_graph(&p, &["diff", "old.json", "old.json"]);
    assert_eq!(
        (code, out.trim()),
        (0, "no differences in claims, statuses or dependencies")
    );
}

#[test]
fn changing_only_volatile_fields_leaves_the_digest_unchanged() {
    let p = Project::new();
    ok_graph(
        &p,
        &[
            "record",
            "B",
            "--method",
            "m",
            "--check",
            r#"{"kind": "numeric_relation", "constants": ["1", "1"], "coefficients": [-1, 1]}"#,
        ],
    );
    ok_graph(&p, &["verify"]);
    let (code, before, _) = run_graph(&p, &["digest"]);
    assert_eq!(code, 0);
    // Timestamps are whole seconds, so two runs in one second prove nothing: edit them.
    let text = p.read("claims.json");
    let edited = text
        .replace("\"recorded_at\": \"20", "\"recorded_at\": \"19")
        .replace("\"at\": \"20", "\"at\": \"19");
    assert_ne!(edited, text);
    assert_eq!(
        edited.matches("\"recorded_at\": \"19").count(),
        1,
        "{edited}"
    );
    assert_eq!(
        edited.matches("\"at\": \"19").count(),
        1,
        "the audit entry's time"
    );
    p.write("claims.json", &edited);
    let (code, after, _) = run_graph(&p, &["digest"]);
    assert_eq!(code, 0);
    assert_eq!(before, after, "time is not part of the digest");
    // ... while a field that is not volatile is.
    p.write(
        "claims.json",
        &edited.replace("\"evidence\": \"", "\"evidence\": \"x"),
    );
    let changed = ok_graph(&p, &["digest"]);
    assert_ne!(before, changed);
}

#[test]
fn latex_compiles_where_pdflatex_is_installed() {
    let p = Project::new();
    ok_graph(
        &p,
        &[
            "conjecture",
            "x ≥ 0 & 50% of {a_b} ~ ^ \\ ☃",
            "--evidence",
            "e # $",
            "--hypothesis",
            "(x ≠ 0) ∧ α",
            "--label",
            "A_1",
        ],
    );
    let b = ok_graph(
        &p,
        &["record", "B", "--method", "m", "--depends-on", "clm_"],
    );
    // Our documents open with the machine-checkable fraction, as the design document says.
    let md = ok_graph(&p, &["show"]);
    let third = md.lines().nth(2).unwrap_or_default();
    assert!(
        third.starts_with("> **Machine-checkable subset: 0 of 2 claims (0%).**"),
        "{md}"
    );
    assert_eq!(md.matches("Machine-checkable subset").count(), 1);
    let (code, tex, _) = run_graph(&p, &["show", "--format", "latex"]);
    assert_eq!(code, 0);
    assert!(tex.starts_with("\\documentclass[11pt]{article}"));
    assert!(
        tex.find("Machine-checkable subset") < tex.find("Verification summary"),
        "the fraction comes first"
    );
    assert!(tex.contains(&format!("\\label{{clm:{}}}", b.trim())));
    assert!(tex.contains("\\hyperref[clm:clm_"), "{tex}");
    assert!(
        tex.contains("\\ensuremath{\\neq}") && tex.contains("\\texttt{U+2603}"),
        "{tex}"
    );
    let body = ok_graph(&p, &["show", "--format", "latex", "--body-only"]);
    assert!(body.starts_with("\\section*{Claim graph}") && !body.contains("\\begin{document}"));
    // The compile step runs, or the test fails (./test installs pdflatex).
    p.write("g.tex", &tex);
    for _ in 0..2 {
        let out = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", "g.tex"])
            .current_dir(p.path())
            .output()
            .expect("pdflatex is needed (Debian texlive-latex-base; ./test installs it)");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    assert!(p.join("g.pdf").exists());
}

#[test]
fn interop_ids_match_alkahest() {
    let cases = r#"[
        ["(1/2 * log(2))", ["x > 0"], "integrate"],
        ["  spaced\u001ftext\u3000here  ", ["b", "a", "a"], " m "],
        ["∫ x ≥ 0 é \"quoted\" \\ back", ["x ≥ 0"], "conjecture"],
        ["", [], ""],
        ["tab\there\nnewline \u007f \u2028", [], "conjecture"]
    ]"#;
    let theirs: Vec<String> = alkahest(&["ids"], Some(cases))
        .lines()
        .map(String::from)
        .collect();
    let parsed = parse(cases).unwrap();
    let ours: Vec<String> = parsed
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let c = c.as_array().unwrap();
            let hyps: Vec<&str> = c[1]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_str().unwrap())
                .collect();
            sciproof_core::graph::claim_id(c[0].as_str().unwrap(), &hyps, c[2].as_str().unwrap())
        })
        .collect();
    assert_eq!(ours, theirs);
}

#[test]
fn interop_alkahest_documents_load_render_and_verify_the_same() {
    let p = Project::new();
    alkahest(&["make", p.path().to_str().unwrap()], None);
    // Same digest, same Markdown, byte for byte.
    let (code, digest, err) = run_graph(&p, &["--graph", "ref.json", "digest"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(digest.trim(), p.read("ref.digest"));
    let md = ok_graph(&p, &["--graph", "ref.json", "show"]);
    assert_eq!(md, p.read("ref.md"));
    // The same pretty JSON back.
    let json = ok_graph(&p, &["--graph", "ref.json", "show", "--format", "json"]);
    assert_eq!(json, p.read("ref.json"));
    // Re-verification of the unverified document: the same outcomes and details.
    let (code, ours, _) = run_graph(
        &p,
        &[
            "--graph",
            "ref.unverified.json",
            "verify",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(code, 1, "a re-check failed (the wrong relation)");
    let theirs = p.read("ref.verify.md");
    let rows = |t: &str| t.lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(rows(&ours), rows(&theirs));
    // LaTeX: the reference's lines, except where it writes characters pdflatex cannot typeset.
    let theirs = alkahest(&["latex", p.join("ref.json").to_str().unwrap()], None);
    let ours = ok_graph(&p, &["--graph", "ref.json", "show", "--format", "latex"]);
    assert_eq!(ours.lines().count(), theirs.lines().count());
    for (a, b) in ours.lines().zip(theirs.lines()) {
        if b.is_ascii() {
            assert_eq!(a, b);
        } else {
            assert!(a.is_ascii() && a.contains("\\ensuremath{\\geq}"), "{a}");
        }
    }
    // And the statuses after it: the wrong relation refuted, nothing raised.
    let ours_loaded = ok_graph(&p, &["--graph", "ref.unverified.json", "summary"]);
    assert!(
        ours_loaded.contains("refuted                1"),
        "{ours_loaded}"
    );
}

#[test]
fn interop_our_documents_load_in_alkahest() {
    let p = Project::new();
    two_runs(&p);
    ok_graph(
        &p,
        &[
            "add-run",
            "prep.sciproof.json",
            "analysis.sciproof.json",
            "--title",
            "Ours",
        ],
    );
    ok_graph(
        &p,
        &[
            "conjecture",
            "x ≥ 0",
            "--evidence",
            "e",
            "--hypothesis",
            "h",
            "--tag",
            "t",
            "--check",
            r#"{"kind": "numeric_relation", "constants": ["0.1"], "coefficients": [0], "tolerance": 1e-40}"#,
        ],
    );
    ok_graph(&p, &["verify"]);
    // Force a merge edge that is not in insertion order: the first claim gains a dependency.
    let last = ok_graph(&p, &["record", "later", "--method", "m"]);
    ok_graph(
        &p,
        &[
            "conjecture",
            "x ≥ 0",
            "--evidence",
            "e",
            "--hypothesis",
            "h",
            "--depends-on",
            last.trim(),
        ],
    );
    let digest = ok_graph(&p, &["digest"]);
    let theirs = alkahest(&["load", p.join("claims.json").to_str().unwrap()], None);
    let mut lines = theirs.lines();
    assert_eq!(
        lines.next().unwrap(),
        digest.trim(),
        "alkahest computes our digest"
    );
    let json = ok_graph(&p, &["show", "--format", "json"]);
    let doc = parse(&json).unwrap();
    let ours: Vec<String> = list(&doc, "claims")
        .iter()
        .map(|c| {
            let c = c.as_object().unwrap();
            format!(
                "{} {}",
                c.get("id").unwrap().as_str().unwrap(),
                c.get("status").unwrap().as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        lines.map(String::from).collect::<Vec<_>>(),
        ours,
        "same claims, same order, same statuses"
    );
    let latex = alkahest(&["latex", p.join("claims.json").to_str().unwrap()], None);
    assert!(latex.contains("\\section*{Claims}"));
}

#[test]
fn re_verifying_the_example_documents_gives_alkahests_recorded_outcomes() {
    for name in ["example-a", "example-b"] {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/claim-graphs/");
        let p = Project::new();
        p.write(
            "g.json",
            &std::fs::read_to_string(format!("{dir}{name}.json")).unwrap(),
        );
        let expected = std::fs::read_to_string(format!("{dir}{name}.verify.md")).unwrap();
        let (_, ours, err) =
            run_graph(&p, &["--graph", "g.json", "verify", "--format", "markdown"]);
        let rows = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| l.starts_with("| `clm_"))
                .map(String::from)
                .collect()
        };
        let (ours, theirs) = (rows(&ours), rows(&expected));
        assert_eq!(ours.len(), theirs.len(), "{name}: {err}");
        for (a, b) in ours.iter().zip(&theirs) {
            assert!(
                a == b || documented_difference(b, a),
                "{name}: alkahest {b}\nours     {a}"
            );
        }
    }
}

/// Whether a row of our Markdown report differs from alkahest's only as the README documents
/// (see [`allowed_expression_difference`]); a failure keeps alkahest's words and says which
/// precision confirmed it.
fn documented_difference(theirs: &str, ours: &str) -> bool {
    let cells = |row: &str| {
        let row = row.strip_suffix(" |").unwrap_or(row);
        row.split(" | ")
            .map(|c| c.trim_matches('`').to_string())
            .collect::<Vec<_>>()
    };
    let (t, o) = (cells(theirs), cells(ours));
    if t[0] != o[0] || t[2] != o[2] {
        return false;
    }
    if t[1] == "failed" && o[1] == "failed" {
        return o[3].starts_with(t[3].as_str()) && o[3].contains("-bit ball arithmetic)");
    }
    allowed_expression_difference(&t[1], &o[1], &o[3])
}

#[test]
fn methods_are_stored_as_alkahest_stores_them() {
    let p = Project::new();
    let empty = ok_graph(&p, &["record", "s", "--method", ""]);
    let spaced = ok_graph(&p, &["record", "t", "--method", " least  squares "]);
    let script = r#"
import sys, alkahest.research as r
g = r.ClaimGraph.load(sys.argv[1])
for c in g.claims:
    print(c.id, repr(c.method), c.provenance.get("operation"))
print(r.claim_id("s", (), "record"), r.claim_id("t", (), " least  squares "))
"#;
    let out = Command::new(alkahest_python())
        .args(["-c", script])
        .arg(p.path().join("claims.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            format!("{} 'record' record", empty.trim()),
            format!("{} ' least  squares '  least  squares ", spaced.trim()),
            format!("{} {}", empty.trim(), spaced.trim()),
        ],
        "an empty method is alkahest's default; a method is kept as typed; the IDs agree"
    );
}

#[test]
fn a_schema_version_alkahest_cannot_read_is_refused() {
    let p = Project::new();
    for (version, refused) in [
        ("null", true),
        ("[1]", true),
        ("\"x\"", true),
        ("\"1_0\"", true),
        ("\" 1 \"", false),
        ("true", false),
        ("0.5", false),
    ] {
        p.write(
            "g.json",
            &format!(r#"{{"claims": [], "kind": "alkahest.claim_graph", "metadata": {{}}, "schema_version": {version}, "title": null}}"#),
        );
        let (code, _, err) = run_graph(&p, &["--graph", "g.json", "summary"]);
        assert_eq!(code != 0, refused, "schema_version {version}: {err}");
        if refused {
            assert!(err.contains("schema"), "{err}");
        }
    }
}

/// Whether our outcome may differ from alkahest's this way (README, "Expression recipes"): the
/// exact test proves more, rounding never refutes, cancellation never hides a failure, a
/// definite integral without an antiderivative shown continuous is left to quadrature, and
/// what alkahest cannot do (differentiate `x^x`) we may decide, but only soundly, and an
/// integral across a pole, which alkahest accepts, is `failed` with the pole named.
fn allowed_expression_difference(theirs: &str, ours: &str, detail: &str) -> bool {
    match (theirs, ours) {
        // (a residual with no real value at any sample point, whose terms without a value
        // alkahest cancels first; the oracle must confirm that no point has one)
        ("numeric_ok" | "failed", "inconclusive") if no_value_anywhere(ours, detail) => true,
        (_, "ok") => true,
        ("inconclusive", "numeric_ok") => true,
        ("ok", "numeric_ok") => detail.contains("by numerical quadrature"),
        // (an integral over a stretch where the integrand has no real value, named: no real
        // number, and complex integrals, of which alkahest's ok may be true, are not ours)
        ("ok" | "numeric_ok", "inconclusive") => {
            detail.contains("the integral is no real number, and this build does not integrate")
        }
        ("failed", "numeric_ok") => detail.contains("cleared at"),
        // (weaker, but only where no bound can decide: a pole or a domain boundary within
        // the ball, never a function without a validated method)
        ("failed", "inconclusive") => {
            detail.contains("could not confirm") && !detail.contains("no error bound for")
        }
        // (an integral alkahest accepts across a pole, as the README's table of differences
        // shows: the pole is proved by ball arithmetic, and the detail names it)
        ("ok" | "numeric_ok" | "inconclusive", "failed")
            if detail.starts_with("the integral does not exist") =>
        {
            true
        }
        // (a refutation alkahest does not make must be proved: a quadrature estimate is not;
        // a constant the exact test leaves, at a point a ball shows the residual defined, is)
        ("numeric_ok" | "inconclusive", "failed") => {
            detail.contains("-bit ball arithmetic")
                || detail.contains("confirmed by a validated 128-bit enclosure")
                || detail.contains("a ball shows it defined at a sample point or its negative")
        }
        _ => false,
    }
}

/// Whether ours is `inconclusive` for want of a sample point where the residual has a value
/// (the detail names no function this build cannot evaluate).
fn no_value_anywhere(ours: &str, detail: &str) -> bool {
    ours == "inconclusive" && detail.ends_with("; no numeric sample")
}

/// Runs an alkahest script that writes a claim graph to its first argument and prints
/// alkahest's own re-verification of it (one JSON object per claim), re-verifies the same
/// graph with sciproof, checks every outcome against alkahest's, and every decided one against
/// an independent high-precision oracle ([`independently_confirmed`]: a difference from
/// alkahest is allowed only in the direction of the truth, and this is where the truth is
/// checked). Returns how often each documented difference occurred.
fn compare_with_alkahest(script: &str, args: &[&str]) -> std::collections::BTreeMap<String, usize> {
    let p = Project::new();
    let theirs = json_lines(
        support_script(script)
            .arg(p.path().join("g.json"))
            .args(args),
    );
    let (_, json, err) = run_graph(
        &p,
        &[
            "--graph",
            "g.json",
            "verify",
            "--no-mark-refuted",
            "--format",
            "json",
        ],
    );
    let doc = parse(&json).unwrap_or_else(|e| panic!("{e}: {err}"));
    let ours = list(&doc, "outcomes");
    assert_eq!(ours.len(), theirs.len());
    let field = |v: &Value, k: &str| {
        v.as_object()
            .unwrap()
            .get(k)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut differences = std::collections::BTreeMap::new();
    let mut cases = Vec::new();
    let graph = parse(&p.read("g.json")).unwrap();
    let claims = list(&graph, "claims");
    for ((a, b), claim) in theirs.iter().zip(ours).zip(claims) {
        assert_eq!(
            field(a, "id"),
            field(b, "claim_id"),
            "same claims, same order"
        );
        let (t, o, detail) = (field(a, "outcome"), field(b, "outcome"), field(b, "detail"));
        let kind = field(a, "kind");
        *differences.entry(format!("{kind} {t} -> {o}")).or_insert(0) += 1;
        if kind != "numeric_relation" {
            let mut case = sciproof_core::json::Object::new();
            case.insert(
                "check",
                claim.as_object().unwrap().get("check").unwrap().clone(),
            );
            case.insert("outcome", o.as_str());
            case.insert("detail", detail.as_str());
            // (a difference that rests on the residual having no value: the oracle must agree)
            case.insert(
                "must_confirm",
                t != o && t != "inconclusive" && no_value_anywhere(&o, &detail),
            );
            cases.push(Value::Object(case));
        }
        if kind == "numeric_relation" {
            assert_eq!(
                (&t, field(a, "detail")),
                (&o, detail),
                "numeric_relation is decided exactly as alkahest decides it"
            );
            continue;
        }
        if t == o {
            let td = field(a, "detail");
            let error = td.split(':').next().unwrap_or_default();
            if t == "inconclusive" && error.ends_with("Error") && !error.starts_with("Py") {
                assert_eq!(td, detail, "alkahest's error words");
            }
            continue;
        }
        assert!(
            allowed_expression_difference(&t, &o, &detail),
            "{kind}: alkahest {t}, ours {o}: {detail}\nalkahest: {}",
            field(a, "detail")
        );
    }
    independently_confirmed(&p, cases);
    differences
}

/// The array `key` of a JSON document (a graph's claims, a report's outcomes).
fn list<'d>(doc: &'d Value, key: &str) -> &'d [Value] {
    doc.as_object()
        .unwrap()
        .get(key)
        .unwrap_or_else(|| panic!("no {key:?}"))
        .as_array()
        .unwrap()
}

/// `tests/support/<script>` run by the Python of the alkahest venv.
fn support_script(script: &str) -> Command {
    let mut command = Command::new(alkahest_python());
    command.arg(format!(
        "{}/tests/support/{script}",
        env!("CARGO_MANIFEST_DIR")
    ));
    command
}

/// The JSON value on each line `command` prints (it must succeed).
fn json_lines(command: &mut Command) -> Vec<Value> {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| parse(l).unwrap())
        .collect()
}

/// Every `ok`, `numeric_ok` and `failed` of ours evaluated again by an oracle of its own
/// (tests/support/high_precision_oracle.py: mpmath at 60 digits, from the recipes' text): none
/// may be contradicted, and most must be confirmed (an oracle that can check nothing fails).
fn independently_confirmed(p: &Project, cases: Vec<Value>) {
    let mut text = String::new();
    sciproof_core::json::write_value(
        &mut text,
        &Value::Array(cases.clone()),
        None,
        sciproof_core::json::Style::ASCII,
    );
    p.write("cases.json", &text);
    let verdicts = json_lines(
        support_script("high_precision_oracle.py")
            .stdin(std::fs::File::open(p.path().join("cases.json")).unwrap()),
    );
    assert_eq!(verdicts.len(), cases.len());
    let (mut claimed, mut confirmed) = (0, 0);
    for (case, verdict) in cases.iter().zip(&verdicts) {
        let get = |v: &Value, k: &str| v.as_object().unwrap().get(k).unwrap().clone();
        let outcome = get(case, "outcome");
        let (said, why) = (get(verdict, "verdict"), get(verdict, "why"));
        assert_ne!(
            said.as_str(),
            Some("contradicted"),
            "{why:?}: the recipe {:?}, ours {outcome:?}: {:?}",
            get(case, "check"),
            get(case, "detail")
        );
        if matches!(outcome.as_str(), Some("ok" | "numeric_ok" | "failed")) {
            claimed += 1;
            confirmed += usize::from(said.as_str() == Some("confirmed"));
        }
        if get(case, "must_confirm") == Value::Bool(true) {
            assert_eq!(
                said.as_str(),
                Some("confirmed"),
                "{why:?}: the recipe {:?}, ours {outcome:?}",
                get(case, "check")
            );
        }
    }
    assert!(
        confirmed * 10 >= claimed * 8,
        "the oracle confirmed only {confirmed} of {claimed} outcomes"
    );
}

#[test]
fn expression_recipes_agree_with_alkahest_on_a_generated_corpus() {
    let seen = compare_with_alkahest("alkahest_expression_corpus.py", &["1200", "12"]);
    for kind in [
        "identity",
        "zero",
        "derivative",
        "antiderivative",
        "definite_integral",
        "numeric_relation",
    ] {
        assert!(
            seen.keys().any(|k| k.starts_with(kind)),
            "the corpus has {kind} recipes: {seen:?}"
        );
    }
    assert!(seen.values().sum::<usize>() > 1200);
}

#[test]
fn graphs_alkahest_records_by_capture_re_verify_alike() {
    let seen = compare_with_alkahest("alkahest_capture_graph.py", &[]);
    // What alkahest integrates itself, the table here integrates too: nothing it decides
    // exactly is left to quadrature.
    assert!(
        !seen.keys().any(|k| k.ends_with(" ok -> numeric_ok")),
        "weaker than alkahest: {seen:?}"
    );
    for kind in [
        "antiderivative",
        "derivative",
        "identity",
        "definite_integral",
    ] {
        assert!(
            seen.keys().any(|k| k.starts_with(kind)),
            "captured {kind} claims: {seen:?}"
        );
    }
}

// ---- Rules of the claim-graph seed (../shared/seeds/claim-graphs.txt) ----

fn recipe(constants: &[&str], coefficients: &[i64]) -> String {
    format!(
        r#"{{"kind": "numeric_relation", "constants": [{}], "coefficients": [{}]}}"#,
        constants
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(", "),
        coefficients
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

#[test]
fn seed_graph_an_existing_recipe_is_never_overwritten() {
    let p = Project::new();
    let good = recipe(&["1", "1"], &[1, -1]);
    let id = ok_graph(&p, &["record", "R", "--method", "m", "--check", &good]);
    // The same claim again, with a recipe that would fail: merged, recipe kept.
    let bad = recipe(&["1", "2"], &[1, -1]);
    let again = ok_graph(&p, &["record", "R", "--method", "m", "--check", &bad]);
    assert_eq!(id, again, "the same claim");
    let doc = p.read("claims.json");
    assert!(doc.contains("\"1\",\n") || doc.contains("\"1\""), "{doc}");
    assert!(
        !doc.contains("\"2\""),
        "the second recipe replaced the first: {doc}"
    );
    assert_eq!(run_graph(&p, &["verify"]).0, 0, "the kept recipe holds");
    // A claim recorded bare adopts the recipe of a later recording.
    let s_id = ok_graph(&p, &["record", "S", "--method", "m"]);
    ok_graph(&p, &["record", "S", "--method", "m", "--check", &good]);
    let doc = sciproof_core::json::parse(&p.read("claims.json")).unwrap();
    let claims = list(&doc, "claims");
    let s_claim = claims
        .iter()
        .find(|c| c.as_object().unwrap().get("id").unwrap().as_str() == Some(s_id.trim()))
        .unwrap();
    let check = s_claim.as_object().unwrap().get("check").unwrap();
    assert_eq!(
        check
            .as_object()
            .and_then(|o| o.get("kind"))
            .and_then(|k| k.as_str()),
        Some("numeric_relation"),
        "{check:?}"
    );
}

#[test]
fn seed_graph_queries_ancestors_dependents_dependencies_leaves_by_tag_by_status_by_method() {
    let p = Project::new();
    let a = ok_graph(&p, &["record", "A", "--method", "base", "--tag", "core"]);
    let a = a.trim();
    let b = ok_graph(&p, &["record", "B", "--method", "step", "--depends-on", a]);
    let b = b.trim();
    let c = ok_graph(
        &p,
        &[
            "record",
            "C",
            "--method",
            "step",
            "--depends-on",
            b,
            "--depends-on",
            a,
            "--tag",
            "core",
        ],
    );
    let c = c.trim();
    let listed = |args: &[&str]| ids(&ok_graph(&p, args));
    let mut ancestors = listed(&["ancestors", c]);
    ancestors.sort();
    let mut expected = vec![a.to_string(), b.to_string()];
    expected.sort();
    assert_eq!(ancestors, expected);
    assert_eq!(
        listed(&["dependencies", c]),
        [b, a],
        "direct, in the claim's own order"
    );
    let mut dependents = listed(&["dependents", a]);
    dependents.sort();
    let mut expected = vec![b.to_string(), c.to_string()];
    expected.sort();
    assert_eq!(dependents, expected);
    assert_eq!(listed(&["leaves"]), [c]);
    assert_eq!(listed(&["roots"]), [a]);
    assert_eq!(listed(&["by-tag", "core"]), [a, c]);
    assert_eq!(listed(&["by-method", "step"]), [b, c]);
    assert_eq!(listed(&["by-status", "unverified"]).len(), 3);
    assert!(
        listed(&["machine-checkable"]).is_empty(),
        "nothing a checker checked"
    );
    assert_eq!(listed(&["topological-order"]), [a, b, c]);
    let mut impact = listed(&["impact", a]);
    impact.sort();
    assert_eq!(impact.len(), 2);
}

#[test]
fn seed_graph_an_inconclusive_run_is_unverified() {
    let p = Project::new();
    p.write("make.sh", "printf '{\"v\": 1.5}' > m.json\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "i",
            "--output-numeric",
            "m.json",
            "--",
            "sh",
            "make.sh",
        ])
        .assert()
        .success();
    // The recorded copy of the numeric output is gone: the evidence is INCONCLUSIVE.
    std::fs::remove_dir_all(p.join("i.sciproof.d")).unwrap();
    let (verdict, _) = p.verify_json("i.sciproof.json");
    assert_eq!(verdict, 2, "the run is INCONCLUSIVE");
    let out = ok_graph(&p, &["add-run", "i.sciproof.json"]);
    assert!(out.contains("integrity INCONCLUSIVE"), "{out}");
    let statuses = ok_graph(&p, &["by-status", "unverified"]);
    assert_eq!(ids(&statuses).len(), 1, "{statuses}");
    assert!(
        ok_graph(&p, &["by-status", "numerically_checked"])
            .trim()
            .is_empty()
    );
}

#[test]
fn seed_graph_verify_exits_2_when_a_recheck_is_inconclusive_and_none_failed() {
    let p = Project::new();
    // Constants given to too few digits to decide the relation: the band straddles the tolerance.
    ok_graph(
        &p,
        &[
            "record",
            "coarse",
            "--method",
            "m",
            "--check",
            r#"{"kind": "numeric_relation", "constants": ["0.3333", "1"], "coefficients": [3, -1]}"#,
        ],
    );
    let (code, out, _) = run_graph(&p, &["verify"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("inconclusive"), "{out}");
    assert!(
        !ok_graph(&p, &["summary"]).contains("refuted"),
        "inconclusive lowers nothing"
    );
}

#[test]
fn seed_graph_diff_shows_removed_and_re_linked_claims() {
    let p = Project::new();
    let a = ok_graph(&p, &["record", "A", "--method", "m"]);
    let a = a.trim().to_string();
    let b = ok_graph(&p, &["record", "B", "--method", "m"]);
    let b = b.trim().to_string();
    ok_graph(&p, &["record", "gone", "--method", "m"]);
    std::fs::copy(p.join("claims.json"), p.join("old.json")).unwrap();
    // new: "gone" removed, B re-linked to depend on A
    let q = Project::new();
    ok_graph(&q, &["record", "A", "--method", "m"]);
    ok_graph(&q, &["record", "B", "--method", "m", "--depends-on", &a]);
    std::fs::copy(q.join("claims.json"), p.join("new.json")).unwrap();
    let (code, out, _) = run_graph(&p, &["diff", "old.json", "new.json"]);
    assert_eq!(code, 1);
    assert!(out.contains("removed  clm_"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("edges")
            && l.contains(&b)
            && l.contains("dependencies changed")),
        "{out}"
    );
}

#[test]
fn seed_graph_show_stable_has_no_timestamps_and_is_byte_identical_across_runs() {
    let p = Project::new();
    ok_graph(&p, &["conjecture", "A", "--evidence", "e"]);
    let first = ok_graph(&p, &["show", "--format", "json", "--stable"]);
    assert!(
        !first.contains("recorded_at") && !first.contains("\"at\""),
        "{first}"
    );
    let q = Project::new();
    ok_graph(&q, &["conjecture", "A", "--evidence", "e"]);
    let text = q
        .read("claims.json")
        .replace("\"recorded_at\": \"20", "\"recorded_at\": \"19");
    q.write("claims.json", &text);
    assert_eq!(
        ok_graph(&q, &["show", "--format", "json", "--stable"]),
        first
    );
}

#[test]
fn merging_two_graphs_keeps_statuses_and_adds_edges() {
    let p = Project::new();
    ok_graph(&p, &["record", "A", "--method", "m", "--tag", "ours"]);
    let q = Project::new();
    let a = ok_graph(&q, &["record", "A", "--method", "m", "--tag", "theirs"]);
    ok_graph(
        &q,
        &["record", "B", "--method", "m", "--depends-on", a.trim()],
    );
    std::fs::copy(q.join("claims.json"), p.join("other.json")).unwrap();
    let out = ok_graph(&p, &["merge", "other.json"]);
    assert!(
        out.contains("merged 2 claims of other.json: 1 new, 1 already here"),
        "{out}"
    );
    assert_eq!(ids(&ok_graph(&p, &["by-tag", "theirs"])), [a.trim()]);
    assert_eq!(ids(&ok_graph(&p, &["by-tag", "ours"])), [a.trim()]);
    assert_eq!(ok_graph(&p, &["topological-order"]).lines().count(), 2);
}

/// `dot -Tsvg` of `source` (Debian's graphviz; ./test installs it): the SVG, or the error.
fn graphviz_svg(source: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("dot (Debian's graphviz; ./test installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "dot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "dot warned: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn graph_show_draws_the_graph_for_graphviz() {
    let p = Project::new();
    p.example_graph("example-b.json", "g.json");
    run_graph(&p, &["--graph", "g.json", "verify"]);
    let source = ok_graph(&p, &["--graph", "g.json", "show", "--format", "dot"]);
    let svg = graphviz_svg(&source);
    assert_eq!(
        svg.matches("class=\"node\"").count(),
        7,
        "one node per claim"
    );
    assert_eq!(
        svg.matches("class=\"edge\"").count(),
        2,
        "one edge per dependency"
    );
    // Refuted claims are unmistakable: red octagons with a thick border, and the word.
    let refuted: Vec<&str> = source
        .lines()
        .filter(|l| l.contains("shape=octagon"))
        .collect();
    assert_eq!(refuted.len(), 2, "{source}");
    assert!(
        refuted
            .iter()
            .all(|l| l.contains("[REFUTED] refuted") && l.contains("penwidth=3"))
    );
    assert!(source.contains("label=\"7 claims; machine-checked: 0 of 7\""));
    // `impact` draws only what dies if the claim is false, with the edges among those claims.
    let impact = ok_graph(
        &p,
        &[
            "--graph",
            "g.json",
            "impact",
            "clm_513be",
            "--format",
            "dot",
        ],
    );
    let svg = graphviz_svg(&impact);
    // The two claims that die, and the claim itself, highlighted, with its edges to them.
    assert_eq!(svg.matches("class=\"node\"").count(), 3, "{impact}");
    assert_eq!(svg.matches("class=\"edge\"").count(), 2, "{impact}");
    assert!(impact.contains(
        "\"clm_513be873d8b58232\" [fillcolor=\"#f9e79f\", style=\"filled,bold\", penwidth=5"
    ));
    assert!(impact.contains("2 claims around clm_513be873d8b58232 (highlighted)"));
    // The text form is unchanged: only what dies.
    assert_eq!(
        ok_graph(&p, &["--graph", "g.json", "impact", "clm_513be"])
            .lines()
            .count(),
        2
    );
}

#[test]
fn a_hostile_claim_cannot_change_the_picture() {
    let p = Project::new();
    let hostile = [
        "x\" ]; \"evil\" -> \"clm_0\" [label=\"injected",
        "\\N \\G \\E \\L backslash escapes",
        "<b>html</b> <script>alert(1)</script>",
        "line\nbreak \u{1b}[31mred\u{7} \u{202e}txet desrever",
        &"long ".repeat(300),
    ];
    for (i, statement) in hostile.iter().enumerate() {
        ok_graph(&p, &["record", statement, "--method", &format!("m{i}")]);
    }
    let source = ok_graph(&p, &["show", "--format", "dot"]);
    let svg = graphviz_svg(&source);
    assert_eq!(
        svg.matches("class=\"node\"").count(),
        hostile.len(),
        "no node was injected: {source}"
    );
    assert_eq!(
        svg.matches("class=\"edge\"").count(),
        0,
        "no edge was injected: {source}"
    );
    assert!(
        !svg.contains("<script") && !svg.contains("<b>"),
        "markup stays text"
    );
    assert!(
        !source.contains('\u{1b}') && !source.contains('\u{202e}') && !source.contains('\u{7}')
    );
    assert!(
        source.contains("more characters]"),
        "a long statement is cut"
    );
}

#[test]
fn a_large_graph_is_drawn_as_its_runs() {
    let p = Project::new();
    let helper = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/graph_bench.py");
    let out = Command::new("python3")
        .args([helper, "make", "600"])
        .arg(p.path().join("big.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    // Five runs of 120 claims each (as `graph add-run` records them), and a refuted claim.
    let runs = r#"
import json, sys
d = json.load(open(sys.argv[1]))
for i, c in enumerate(d["claims"]):
    c["provenance"]["run"] = f"r{i // 120}"
d["claims"][300]["status"] = "refuted"
json.dump(d, open(sys.argv[1], "w"), indent=2, sort_keys=True)
"#;
    let out = Command::new("python3")
        .args(["-c", runs])
        .arg(p.path().join("big.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let source = ok_graph(&p, &["--graph", "big.json", "show", "--format", "dot"]);
    assert!(
        source.contains("600 claims, too many to draw one by one"),
        "{source}"
    );
    let svg = graphviz_svg(&source);
    assert_eq!(
        svg.matches("class=\"node\"").count(),
        5,
        "one node per run: {source}"
    );
    // The chain of dependencies crosses from each run to the next; the random edges only go
    // to earlier claims, so every edge points forwards.
    for i in 0..4 {
        assert!(
            source.contains(&format!("\"r{i}\" -> \"r{}\"", i + 1)),
            "{source}"
        );
    }
    assert!(!source.contains("\"r1\" -> \"r0\""));
    let refuted = source.lines().find(|l| l.contains("run r2")).unwrap();
    assert!(
        refuted.contains("1 refuted") && refuted.contains("penwidth=3"),
        "{refuted}"
    );
}

/// Our SVG, checked as a real consumer reads it: well-formed XML whose elements and attributes
/// are only those a picture needs (nothing that runs or fetches; links only to claims of the
/// page), then rendered by resvg. Returns the rendered picture.
fn checked_svg(svg: &str) -> resvg::tiny_skia::Pixmap {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
    let elements = [
        "svg", "title", "defs", "marker", "path", "rect", "text", "g", "a", "polygon",
    ];
    let attributes = [
        "width",
        "height",
        "viewBox",
        "font-family",
        "font-size",
        "role",
        "id",
        "refX",
        "refY",
        "markerWidth",
        "markerHeight",
        "orient",
        "d",
        "fill",
        "stroke",
        "stroke-width",
        "marker-end",
        "x",
        "y",
        "rx",
        "transform",
        "text-anchor",
        "font-weight",
        "stroke-dasharray",
        "points",
        "href",
    ];
    for node in doc.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name().name();
        assert!(elements.contains(&name), "element <{name}> in {svg}");
        for a in node.attributes() {
            assert!(
                attributes.contains(&a.name()),
                "attribute {} on <{name}>",
                a.name()
            );
            if a.name() == "href" {
                assert!(a.value().starts_with("#clm_"), "link {}", a.value());
            }
        }
    }
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .unwrap_or_else(|e| panic!("resvg: {e}"));
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, Default::default(), &mut pixmap.as_mut());
    pixmap
}

/// Whether `pixmap` has a pixel of colour `#rrggbb`.
fn has_colour(pixmap: &resvg::tiny_skia::Pixmap, rgb: u32) -> bool {
    let [r, g, b] = [(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8];
    pixmap
        .pixels()
        .iter()
        .any(|p| p.red() == r && p.green() == g && p.blue() == b && p.alpha() == 255)
}

#[test]
fn graph_show_draws_an_svg_picture_without_graphviz() {
    let p = Project::new();
    p.example_graph("example-b.json", "g.json");
    let svg = ok_graph(&p, &["--graph", "g.json", "show", "--format", "svg"]);
    let picture = checked_svg(&svg);
    assert!(picture.width() > 200 && picture.height() > 200);
    assert_eq!(
        svg.matches("<g><a href=\"#clm_").count(),
        7,
        "one box per claim"
    );
    assert_eq!(
        svg.matches("marker-end=").count(),
        2,
        "one edge per dependency"
    );
    // Refuted claims: red octagons with a thick border and the word, visible once drawn.
    assert_eq!(svg.matches("<polygon").count(), 2);
    assert_eq!(svg.matches("[REFUTED] refuted</text>").count(), 2);
    assert!(has_colour(&picture, 0xf5b7b1), "the refuted fill is drawn");
    assert!(svg.contains("<title>7 claims; machine-checked: 0 of 7</title>"));
    // Dependencies are drawn above what depends on them: each edge goes down.
    for path in svg.split("<path d=\"M").skip(2) {
        let points: Vec<f64> = path
            .split('"')
            .next()
            .unwrap()
            .split(['L', ','])
            .map(|v| v.parse().unwrap())
            .collect();
        assert!(points[1] < points[points.len() - 1], "{path}");
    }
    // `impact` as SVG: what dies, and the claim itself highlighted.
    let impact = ok_graph(
        &p,
        &[
            "--graph",
            "g.json",
            "impact",
            "clm_513be",
            "--format",
            "svg",
        ],
    );
    let picture = checked_svg(&impact);
    assert_eq!(impact.matches("<g><a href=").count(), 3, "{impact}");
    assert_eq!(impact.matches("marker-end=").count(), 2);
    assert!(has_colour(&picture, 0xf9e79f), "the subject is highlighted");
    assert!(impact.contains("2 claims around clm_513be873d8b58232 (highlighted)"));
    // The format is listed where it applies, refused where it does not.
    let (code, _, err) = run_graph(&p, &["--graph", "g.json", "summary", "--format", "svg"]);
    assert_eq!(code, 3, "a usage error: {err}");
    assert!(err.contains("[possible values: text, json]"), "{err}");
}

#[test]
fn a_hostile_claim_cannot_change_the_svg_picture() {
    let p = Project::new();
    let hostile = [
        "</text><script>alert(1)</script><text>",
        "<a href=\"javascript:alert(1)\">click</a> <image href=\"http://evil.example/x.png\"/>",
        "]]><!ENTITY x SYSTEM \"file:///etc/passwd\"> &x; &amp; &#0;",
        "line\nbreak \u{1b}[31mred\u{7} \u{202e}txet desrever \u{1}\u{fffe}",
        &"long ".repeat(300),
    ];
    for (i, statement) in hostile.iter().enumerate() {
        ok_graph(&p, &["record", statement, "--method", &format!("m{i}")]);
    }
    let svg = ok_graph(&p, &["show", "--format", "svg"]);
    checked_svg(&svg);
    assert_eq!(svg.matches("<g><a href=").count(), hostile.len(), "{svg}");
    assert!(!svg.contains('\u{1b}') && !svg.contains('\u{202e}') && !svg.contains('\u{1}'));
    // The statements are text: the parsed document's text holds them as written (cut).
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let text: String = doc
        .descendants()
        .filter(|n| n.is_text())
        .map(|n| n.text().unwrap())
        .collect();
    assert!(text.contains("</text><script>alert(1)</script>"), "{text}");
    assert!(
        text.contains("\\u202etxet"),
        "bidi controls are shown, not obeyed"
    );
    assert!(text.contains('\u{2026}'), "a long statement is cut");
}

#[test]
fn a_large_graph_is_pictured_as_its_runs_in_svg_too() {
    let p = Project::new();
    let helper = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/graph_bench.py");
    let out = Command::new("python3")
        .args([helper, "make", "600"])
        .arg(p.path().join("big.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    // As it is: 600 claims outside any run, each depending on earlier ones (one box).
    let svg = ok_graph(&p, &["--graph", "big.json", "show", "--format", "svg"]);
    checked_svg(&svg);
    assert!(
        svg.contains("600 claims, too many to draw one by one"),
        "{svg}"
    );
    assert_eq!(svg.matches("<g><title>").count(), 1, "{svg}");
    // 300 of them are drawn one by one: a deep tangle of long edges, laid out along one edge
    // into each claim, the others drawn straight, and said so.
    let out = Command::new("python3")
        .args([helper, "make", "300"])
        .arg(p.path().join("deep.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = ok_graph(&p, &["--graph", "deep.json", "show", "--format", "svg"]);
    checked_svg(&svg);
    assert_eq!(svg.matches("<g><a href=").count(), 300);
    assert!(svg.contains("(edges that skip layers are drawn straight)"));
}

#[test]
fn expressions_at_the_nesting_limit_in_a_large_document_are_checked_not_a_crash() {
    // Over a megabyte, so that the claims are read and re-checked on worker threads, which
    // need the stack a recipe at alkahest's limit of 2,048 levels takes (a thread's default
    // 2 MiB is too little: the process aborted).
    let p = Project::new();
    let deep = [
        format!("{}x{}", "(".repeat(2046), ")".repeat(2046)),
        format!("{}x{}", "sin(".repeat(1000), ")".repeat(1000)),
        format!("{}x", "-".repeat(2040)),
    ];
    let claims: Vec<String> = (0..300)
        .map(|i| {
            let check = sciproof_core::json::Object::new()
                .with("kind", "identity")
                .with("lhs", deep[i % 3].as_str())
                .with("rhs", "x");
            claim_with_check(&format!("deep {i}"), check)
        })
        .collect();
    let text = format!(r#"{{"claims": [{}]}}"#, claims.join(", "));
    assert!(text.len() > 1 << 20, "{}", text.len());
    p.write("deep.json", &text);
    let (code, out, err) = run_graph(&p, &["--graph", "deep.json", "verify"]);
    assert_eq!(code, 1, "{err}");
    // (x, sin nested, -x nested an even number of times: only the sines differ from x)
    assert!(out.contains("summary: {'failed': 100, 'ok': 200}"), "{out}");
}

#[test]
fn a_recipe_too_costly_to_re_check_is_inconclusive_not_a_hang() {
    // 3,000 true identities times 10^200 that the exact test does not know (atan u + atan(1/u)
    // = π/2 for u > 0): f64 sees only their rounding noise, far above the tolerance, and no
    // ball up to 512 bits can resolve it. Each ball of the sum takes 6,000 arctangents; when
    // every stage, point and precision had a budget of its own and a function value counted
    // as an addition, such a recipe took 4 s. Now its budget ends it: not refuted. (It was
    // sin(2x + k) = 2 sin(x + k/2) cos(x + k/2) until the exact test learnt the addition
    // theorems and proved it.)
    let p = Project::new();
    let expr = (1..=3000)
        .map(|k| format!("(atan(x+{k}) + atan(1/(x+{k})) - pi/2)*10^200"))
        .collect::<Vec<_>>()
        .join(" + ");
    let check = sciproof_core::json::Object::new()
        .with("kind", "zero")
        .with("expr", expr.as_str());
    p.write(
        "costly.json",
        &format!(
            r#"{{"claims": [{}]}}"#,
            claim_with_check("a costly identity", check)
        ),
    );
    let (code, out, err) = run_graph(
        &p,
        &["--graph", "costly.json", "verify", "--format", "json"],
    );
    assert_eq!(code, 2, "{err}");
    let doc = parse(&out).unwrap();
    let outcome = list(&doc, "outcomes")[0].as_object().unwrap();
    assert_eq!(
        outcome.get("outcome").unwrap().as_str(),
        Some("inconclusive")
    );
    let detail = outcome.get("detail").unwrap().as_str().unwrap();
    assert!(
        detail.ends_with("could not confirm it (the expression is too large): not refuted"),
        "{detail}"
    );
}
