//! Difference statistics in every numeric comparison, through the real binary: CSV, TSV,
//! JSON, `.npy` and `.npz` outputs of one command (`tests/support/numeric_outputs.py`), rerun
//! bit-identical, within tolerance and different; shown in JSON, text, Markdown, JUnit and HTML,
//! and by `diff --show-values`.

use crate::util::*;
use sciproof_core::json::Value;

const OUTPUTS: [&str; 5] = ["out.csv", "out.tsv", "out.json", "out.npy", "out.npz"];

/// A project whose command writes the five outputs, captured in mode `base` as `name`.
fn project(name: &str) -> Project {
    let p = Project::new();
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/numeric_outputs.py"
    ))
    .unwrap();
    p.write("gen.py", &script);
    p.write("mode", "base\n");
    capture(&p, name);
    p
}

fn capture(p: &Project, name: &str) {
    let mut cmd = p.cmd();
    cmd.args(["capture", "--name", name, "--force"]);
    for o in OUTPUTS {
        cmd.args(["--output-numeric", o]);
    }
    cmd.args(["--", "python3", "gen.py"]).assert().success();
}

fn rerun(p: &Project, format: &str) -> (i32, String) {
    let out = p
        .cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--rerun",
            "--yes",
            "--format",
            format,
        ])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn statistics_of(report: &Value, output: &str) -> (String, Value) {
    let check = check_for(report, &format!("rerun output {output}"));
    let message = field(&check, "message").as_str().unwrap().to_string();
    (
        message,
        field(field(&check, "evidence"), "statistics").clone(),
    )
}

fn number(v: &Value) -> u64 {
    let n = v.as_f64().unwrap_or_else(|| panic!("not a count: {v:?}"));
    assert!(n >= 0.0 && n.fract() == 0.0, "not a count: {v:?}");
    n as u64
}

/// (values, bit-identical, outside) of the `total`.
fn totals(statistics: &Value) -> (u64, u64, u64) {
    let t = field(statistics, "total");
    (
        number(field(t, "values")),
        number(field(t, "bit_identical")),
        number(field(t, "outside_tolerance")),
    )
}

fn largest(statistics: &Value, which: &str) -> String {
    let at = field(field(statistics, "total"), which);
    field(at, "location").as_str().unwrap().to_string()
}

fn group_names(statistics: &Value) -> Vec<String> {
    field(statistics, "groups")
        .as_array()
        .unwrap()
        .iter()
        .map(|g| field(g, "name").as_str().unwrap().to_string())
        .collect()
}

/// Values per output: 101 rows of 3 cells (header included); 20 losses, 20 steps and a
/// name; a 3x4 array; the same array and a bias of two.
const VALUES: [u64; 5] = [303, 303, 41, 12, 14];

#[test]
fn every_format_says_which_case_it_is_with_statistics_per_group() {
    let p = project("run");

    // the same bytes: bit-identical without reading a value
    let (code, text) = rerun(&p, "json");
    assert_eq!(code, 0, "{text}");
    let report = sciproof_core::json::parse(&text).unwrap();
    for o in OUTPUTS {
        let (message, s) = statistics_of(&report, o);
        assert!(
            message.ends_with("— bit-identical: byte for byte the recorded copy"),
            "{o}: {message}"
        );
        assert_eq!(field(&s, "case").as_str(), Some("bit_identical"));
    }

    // within the tolerance: counted, with the largest relative error and where it is
    p.write("mode", "tiny\n");
    let (code, text) = rerun(&p, "json");
    assert_eq!(code, 0, "{text}");
    let report = sciproof_core::json::parse(&text).unwrap();
    let changed = [3, 3, 1, 1, 1];
    for (i, o) in OUTPUTS.iter().enumerate() {
        let (message, s) = statistics_of(&report, o);
        assert_eq!(field(&s, "case").as_str(), Some("within_tolerance"), "{o}");
        assert_eq!(field(&s, "byte_identical"), &Value::Bool(false));
        assert_eq!(
            totals(&s),
            (VALUES[i], VALUES[i] - changed[i], 0),
            "{o}: {message}"
        );
        assert!(
            message.contains("— equal within tolerance: "),
            "{o}: {message}"
        );
        assert!(message.contains("largest relative error"), "{o}: {message}");
    }
    let (_, csv) = statistics_of(&report, "out.csv");
    assert_eq!(largest(&csv, "largest_rel_diff"), "r8c1 (column 'loss')");
    assert_eq!(field(&csv, "grouped_by").as_str(), Some("column"));
    assert_eq!(
        group_names(&csv),
        [
            "c0 (column 'step')",
            "c1 (column 'loss')",
            "c2 (column 'acc')"
        ]
    );
    let (_, json) = statistics_of(&report, "out.json");
    assert_eq!(field(&json, "grouped_by").as_str(), Some("key_path"));
    assert_eq!(
        group_names(&json),
        ["$.history[*].loss", "$.history[*].step", "$.name"]
    );
    assert_eq!(largest(&json, "largest_abs_diff"), "$.history[7].loss");
    let (_, npy) = statistics_of(&report, "out.npy");
    assert_eq!(field(&npy, "grouped_by").as_str(), Some("array"));
    assert_eq!(largest(&npy, "largest_rel_diff"), "data[1, 1]");
    let (_, npz) = statistics_of(&report, "out.npz");
    assert_eq!(group_names(&npz), ["out.npz:bias", "out.npz:weights"]);
    assert_eq!(largest(&npz, "largest_abs_diff"), "out.npz:weights[1, 1]");
    let share = field(field(&npz, "total"), "largest_tolerance_share");
    let share = field(share, "value").as_f64().unwrap();
    assert!(share > 0.0 && share < 1.0, "{share}");

    // outside the tolerance: how many, what share, the largest errors
    p.write("mode", "big\n");
    let (code, text) = rerun(&p, "json");
    assert_eq!(code, 1);
    let report = sciproof_core::json::parse(&text).unwrap();
    for (i, o) in OUTPUTS.iter().enumerate() {
        let (message, s) = statistics_of(&report, o);
        assert_eq!(field(&s, "case").as_str(), Some("different"), "{o}");
        assert_eq!(
            totals(&s),
            (VALUES[i], VALUES[i] - changed[i], changed[i]),
            "{o}"
        );
        assert!(
            message.contains(&format!(
                "— different: {} of {} values (",
                changed[i], VALUES[i]
            )),
            "{o}: {message}"
        );
    }
    let (_, csv) = statistics_of(&report, "out.csv");
    let loss = &field(&csv, "groups").as_array().unwrap()[1];
    assert_eq!(number(field(loss, "outside_tolerance")), 1);
    let percent = field(loss, "outside_percent").as_f64().unwrap();
    assert!((percent - 100.0 / 101.0).abs() < 1e-9, "{percent}");
}

#[test]
fn text_markdown_junit_and_html_show_the_statistics_per_group() {
    let p = project("run");
    p.write("mode", "big\n");
    let (code, text) = rerun(&p, "text");
    assert_eq!(code, 1);
    assert!(
        text.contains(
            "        c1 (column 'loss'): 101 values, 1 outside the tolerance (0.99%), 100 bit-identical, largest absolute error 0.5 at r8c1 (column 'loss')"
        ),
        "{text}"
    );
    assert!(
        text.contains("        1 other column: all bit-identical"),
        "{text}"
    );
    assert!(
        text.contains("        $.history[*].loss: 20 values, 1 outside the tolerance (5%)"),
        "{text}"
    );
    assert!(
        text.contains("        data: 12 values, 1 outside the tolerance"),
        "{text}"
    );

    let (_, markdown) = rerun(&p, "markdown");
    assert!(
        markdown.contains("### Numeric statistics: out.tsv"),
        "{markdown}"
    );
    assert!(
        markdown.contains(
            "| c2 (column 'acc') | 101 | 99 | 2 | 0.5 | r4c2 (column 'acc') | 0.5 | r4c2 (column 'acc') |"
        ),
        "{markdown}"
    );

    let (_, junit) = rerun(&p, "junit");
    let xml = roxmltree::Document::parse(&junit).expect("well-formed JUnit");
    let failure = xml
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .find(|n| n.attribute("name") == Some("rerun output out.npz"))
        .and_then(|n| n.children().find(|c| c.has_tag_name("failure")))
        .expect("a failure for out.npz");
    let body = failure.text().unwrap();
    assert!(
        body.contains("\nout.npz:weights: 12 values, 1 outside the tolerance"),
        "{body}"
    );

    let (_, html) = rerun(&p, "html");
    assert!(
        html.contains("<h2>Numeric statistics: out.json</h2>"),
        "{html}"
    );
    assert!(html.contains("<td>$.history[*].loss</td><td>20</td><td>19</td><td>1</td>"));
    assert!(
        html.contains("<p>2 other key paths: all bit-identical</p>"),
        "{html}"
    );
    assert!(
        markdown.contains("\n2 other key paths: all bit-identical\n"),
        "{markdown}"
    );

    // a pass within the tolerance lists its groups too (JUnit: as the testcase's output)
    p.write("mode", "tiny\n");
    let (code, junit) = rerun(&p, "junit");
    assert_eq!(code, 0);
    let xml = roxmltree::Document::parse(&junit).unwrap();
    let out = xml
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .find(|n| n.attribute("name") == Some("rerun output out.csv"))
        .and_then(|n| n.children().find(|c| c.has_tag_name("system-out")))
        .expect("the statistics of out.csv");
    assert!(
        out.text()
            .unwrap()
            .starts_with("c1 (column 'loss'): 101 values, 100 bit-identical")
    );
}

#[test]
fn diff_reports_the_case_and_with_show_values_the_statistics_per_column() {
    let p = project("old");
    p.write("mode", "big\n");
    capture(&p, "new");
    let out = p
        .cmd()
        .args(["diff", "old.sciproof.json", "new.sciproof.json", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let diff = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let changes = field(&diff, "changes").as_array().unwrap();
    let change = |subject: &str| {
        changes
            .iter()
            .find(|c| field(c, "subject").as_str() == Some(subject))
            .unwrap_or_else(|| panic!("no change of {subject}"))
            .clone()
    };
    let csv = change("out.csv");
    let message = field(&csv, "message").as_str().unwrap();
    assert!(
        message.contains("— different: 3 of 303 values (0.99%) outside the tolerance"),
        "{message}"
    );
    assert!(!message.contains("c1 (column 'loss'): "), "{message}");
    let numeric = field(field(&csv, "evidence"), "numeric");
    let statistics = field(numeric, "statistics");
    assert_eq!(field(statistics, "case").as_str(), Some("different"));
    assert_eq!(totals(statistics), (303, 300, 3));

    let out = p
        .cmd()
        .args([
            "diff",
            "old.sciproof.json",
            "new.sciproof.json",
            "--show-values",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("c1 (column 'loss'): 101 values, 1 outside the tolerance (0.99%)"),
        "{text}"
    );
    assert!(
        text.contains("out.npz:weights: 12 values, 1 outside"),
        "{text}"
    );

    // update shows the same difference of the recorded copies (old run: big, new run: tiny)
    p.write("mode", "tiny\n");
    let out = p
        .cmd()
        .args(["update", "new.sciproof.json", "--yes"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("outside the baseline tolerance (rtol=1e-09, atol=0.0): r4c2 (column 'acc')")
            && text.contains("— different: 3 of 303 values (0.99%) outside the tolerance"),
        "{text}"
    );
}

#[test]
fn calibrate_says_the_case_of_an_archive_it_cannot_measure_value_by_value() {
    let p = Project::new();
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/numeric_outputs.py"
    ))
    .unwrap();
    p.write("gen.py", &script);
    p.write("mode", "base\n");
    p.cmd()
        .args(["capture", "--name", "run", "--output-numeric", "out.npz"])
        .args(["--", "python3", "gen.py"])
        .assert()
        .success();
    let calibrate = |mode: &str| {
        p.write("mode", mode);
        let out = p
            .cmd()
            .args(["calibrate", "run.sciproof.json", "--runs", "2", "--yes"])
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, text) = calibrate("tiny\n");
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("(furthest, run 1: equal within tolerance: 14 values, 13 bit-identical, largest relative error 2e-13 at out.npz:weights[1, 1];"),
        "{text}"
    );
    let (code, text) = calibrate("big\n");
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("2 of 2 runs differ from the recorded copy beyond the recorded tolerance (rtol=1e-09, atol=0.0) (first, run 1: different: 1 of 14 values (7.14%) outside the tolerance"),
        "{text}"
    );
}
