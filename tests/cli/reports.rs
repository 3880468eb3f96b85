//! Markdown and JUnit reports of adversarial manifests, checked with real consumers: a GFM
//! renderer (comrak) and the `junitparser` package.

use crate::util::*;

/// A project whose paths, values and claims carry Markdown, HTML and mention syntax.
fn adversarial() -> Project {
    let p = Project::new();
    let names = [
        "[x](http:evil.example)",
        "<img src=x onerror=alert(1)>",
        "@octocat #123 :tada:",
        "*em* _u_ ~~s~~",
        "www.evil.example",
        "a|b`c`",
    ];
    for n in names {
        p.write(&format!("out/{n}"), "x");
    }
    p.write(
        "m.json",
        "{\"s\": \"<script>alert(1)</script>\", \"v\": 1.0}",
    );
    p.write("t.csv", "[link](https://evil.example),**bold**\n1.0,2.0\n");
    let mut cmd = p.cmd();
    cmd.args([
        "capture",
        "--name",
        "adv",
        "--output",
        "out",
        "--output-numeric",
        "m.json",
        "--output-numeric",
        "t.csv",
    ]);
    cmd.args([
        "--claim",
        "m.json",
        "$.s == \"<b>@admin</b> [x](javascript:alert(1))\"",
        "--",
        "true",
    ]);
    cmd.assert().success();
    // make everything fail or differ
    p.write("out/@octocat #123 :tada:", "changed");
    p.write(
        "adv.sciproof.d/1-m.json",
        "{\"s\": \"<script>alert(1)</script>\", \"v\": 2.0}",
    );
    p
}

fn render(markdown: &str) -> String {
    let mut options = comrak::Options::default();
    options.extension.table = true;
    options.extension.autolink = true;
    options.extension.strikethrough = true;
    options.extension.tasklist = true;
    options.extension.footnotes = true;
    options.render.r#unsafe = true; // show raw HTML if any got through, so the test can see it
    comrak::markdown_to_html(markdown, &options)
}

#[test]
fn markdown_keeps_untrusted_text_inert_in_a_real_gfm_renderer() {
    let p = adversarial();
    let out = p
        .cmd()
        .args(["verify", "adv.sciproof.json", "--format", "markdown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let md = String::from_utf8(out.stdout).unwrap();
    let html = render(&md);
    for forbidden in [
        "<a ",
        "<img",
        "<script",
        "<em>",
        "<strong>",
        "<del>",
        "<b>",
        "<code>&lt;",
    ] {
        assert!(!html.contains(forbidden), "{forbidden} in\n{html}");
    }
    assert!(
        html.contains("<table>"),
        "the report's own tables still render"
    );
    // After decoding character references, mentions, references and shortcodes carry a
    // zero-width space, so GitHub's post-processing cannot revive them.
    let decoded = html
        .replace("&amp;", "&")
        .replace("&#64;", "@")
        .replace("&#35;", "#")
        .replace("&#58;", ":")
        .replace("&#8203;", "\u{200b}");
    assert!(decoded.contains("@\u{200b}octocat"));
    assert!(decoded.contains("#\u{200b}123"));
    assert!(decoded.contains(":\u{200b}tada:\u{200b}") || decoded.contains(":\u{200b}tada"));
    assert!(!decoded.contains("@octocat"));
}

#[test]
fn junit_is_valid_for_a_real_consumer_whatever_the_manifest_holds() {
    let p = adversarial();
    let out = p
        .cmd()
        .args(["verify", "adv.sciproof.json", "--format", "junit"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let xml = p.join("report.xml");
    std::fs::write(&xml, &out.stdout).unwrap();
    let script = r#"
import sys
from junitparser import JUnitXml, Failure, Skipped
xml = JUnitXml.fromfile(sys.argv[1])
cases = [c for suite in xml for c in suite]
failures = sum(1 for c in cases if any(isinstance(r, Failure) for r in c.result))
skipped = sum(1 for c in cases if any(isinstance(r, Skipped) for r in c.result))
print(len(cases), failures, skipped)
"#;
    let run = std::process::Command::new(reference_python())
        .arg("-c")
        .arg(script)
        .arg(&xml)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let counts: Vec<u64> = String::from_utf8(run.stdout)
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let (_, report) = p.verify_json("adv.sciproof.json");
    let statuses = statuses(&report);
    assert_eq!(counts[0], statuses.len() as u64);
    assert_eq!(
        counts[1],
        statuses.iter().filter(|(s, _)| s == "FAIL").count() as u64
    );
    assert_eq!(
        counts[2],
        statuses.iter().filter(|(s, _)| s == "INCONCLUSIVE").count() as u64
    );
}

#[test]
fn markdown_and_junit_match_the_reference_byte_for_byte() {
    let p = Project::new();
    p.capture("run");
    p.write("out/log.txt", "changed\n");
    std::fs::remove_file(p.join("data.json")).unwrap();
    for format in ["markdown", "junit"] {
        let ours = p
            .cmd()
            .args(["verify", "run.sciproof.json", "--format", format])
            .output()
            .unwrap();
        let theirs = reference_cmd(p.path())
            .args(["verify", "run.sciproof.json", "--format", format])
            .output()
            .unwrap();
        assert_eq!(ours.status.code(), theirs.status.code());
        // the reference describes its own Python as the environment of a shell command
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout),
            "{format}"
        );
    }
}

/// Captures the project's `train.sh` once per name (each run records `out/result.json`).
fn capture_runs(p: &Project, names: &[&str]) {
    for name in names {
        p.cmd()
            .args([
                "capture",
                "--name",
                name,
                "--output",
                "out/result.json",
                "--",
                "sh",
                "train.sh",
            ])
            .assert()
            .success();
    }
}

/// The page parsed by a real HTML5 parser (html5ever, through scraper).
fn parse_page(html: &str) -> scraper::Html {
    let page = scraper::Html::parse_document(html);
    assert!(page.errors.is_empty(), "parse errors: {:?}", page.errors);
    page
}

fn select<'a>(page: &'a scraper::Html, css: &str) -> Vec<scraper::ElementRef<'a>> {
    page.select(&scraper::Selector::parse(css).unwrap())
        .collect()
}

#[test]
fn the_html_report_puts_the_verdict_first_and_fetches_nothing() {
    let p = Project::new();
    capture_runs(&p, &["run"]);
    let pass = p
        .cmd()
        .args(["verify", "run.sciproof.json", "--format", "html"])
        .output()
        .unwrap();
    assert_eq!(pass.status.code(), Some(0));
    let html = String::from_utf8(pass.stdout).unwrap();
    let page = parse_page(&html);
    let csp = select(&page, "meta[http-equiv=Content-Security-Policy]");
    assert_eq!(csp.len(), 1);
    assert!(
        csp[0]
            .value()
            .attr("content")
            .unwrap()
            .starts_with("default-src 'none'")
    );
    assert!(
        select(
            &page,
            "script, link, img, iframe, object, embed, [src], [href]"
        )
        .is_empty()
    );
    let verdict = select(&page, "body > header.verdict");
    assert_eq!(verdict.len(), 1, "the verdict comes first");
    assert!(verdict[0].value().classes().any(|c| c == "PASS"));
    assert!(
        verdict[0].text().collect::<String>().contains("PASS"),
        "a word, never colour alone"
    );
    let rows = select(&page, "table.checks tbody tr");
    assert!(!rows.is_empty());
    assert!(
        select(&page, "details pre").len() == rows.len(),
        "each check's evidence, folded"
    );
    // A changed output: FAIL, and its row says so.
    p.write("out/result.json", "{\"accuracy\": 0.5}");
    let fail = p
        .cmd()
        .args(["verify", "run.sciproof.json", "--format", "html"])
        .output()
        .unwrap();
    assert_eq!(fail.status.code(), Some(1));
    let page = parse_page(&String::from_utf8(fail.stdout).unwrap());
    assert!(select(&page, "header.verdict.FAIL").len() == 1);
    assert!(
        select(&page, "td.FAIL")
            .iter()
            .any(|td| td.text().collect::<String>().contains("FAIL"))
    );
    assert!(
        select(&page, "h2")
            .iter()
            .any(|h| h.text().collect::<String>() == "Not checked")
    );
}

#[test]
fn hostile_text_in_a_manifest_stays_text_in_the_html_report() {
    let p = Project::new();
    let hostile = "x<script>alert(1)</script><img src=x onerror=alert(2)>\"'&\u{202e}.txt";
    p.write(hostile, "data\n");
    p.cmd()
        .args(["capture", "--name", "run", "--output"])
        .arg(hostile)
        .args(["--", "true"])
        .assert()
        .success();
    let out = p
        .cmd()
        .args(["verify", "run.sciproof.json", "--format", "html"])
        .output()
        .unwrap();
    let html = String::from_utf8(out.stdout).unwrap();
    let page = parse_page(&html);
    assert!(
        select(&page, "script, img, [onerror], [src]").is_empty(),
        "{html}"
    );
    assert!(!html.contains('\u{202e}') && !html.contains('\u{1b}'));
    let cells: String = select(&page, "table.checks td")
        .iter()
        .flat_map(|td| td.text())
        .collect();
    assert!(
        cells.contains("<script>alert(1)</script>"),
        "shown as text: {cells}"
    );
}

#[test]
fn list_as_an_html_page_has_a_row_and_a_verdict_per_manifest() {
    let p = Project::new();
    capture_runs(&p, &["one", "two"]);
    p.write("out/result.json", "{\"accuracy\": 0.5}");
    let out = p
        .cmd()
        .args(["list", "--check", "--format", "html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let page = parse_page(&String::from_utf8(out.stdout).unwrap());
    assert!(select(&page, "script, [src], [href]").is_empty());
    assert_eq!(
        select(&page, "body > header.verdict.FAIL").len(),
        1,
        "the worst verdict first"
    );
    let rows = select(&page, "table.manifests tbody tr");
    assert_eq!(rows.len(), 2);
    assert!(
        rows.iter()
            .all(|r| r.text().collect::<String>().contains("FAIL"))
    );
}

#[test]
fn diff_as_an_html_page_says_identical_or_different_first() {
    let p = Project::new();
    capture_runs(&p, &["a", "b"]);
    let same = p
        .cmd()
        .args([
            "diff",
            "a.sciproof.json",
            "a.sciproof.json",
            "--format",
            "html",
        ])
        .output()
        .unwrap();
    assert_eq!(same.status.code(), Some(0));
    let page = parse_page(&String::from_utf8(same.stdout).unwrap());
    assert_eq!(select(&page, "body > header.verdict.IDENTICAL").len(), 1);
    p.write("data.json", "{\"x\": [9, 9, 9]}");
    p.cmd()
        .args([
            "capture",
            "--name",
            "b",
            "--force",
            "--output",
            "out/result.json",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success();
    let changed = p
        .cmd()
        .args([
            "diff",
            "a.sciproof.json",
            "b.sciproof.json",
            "--format",
            "html",
        ])
        .output()
        .unwrap();
    assert_eq!(changed.status.code(), Some(1));
    let page = parse_page(&String::from_utf8(changed.stdout).unwrap());
    assert_eq!(select(&page, "body > header.verdict.DIFFERENT").len(), 1);
    assert!(!select(&page, "table.changes tbody tr").is_empty());
    assert!(select(&page, "script, [src], [href]").is_empty());
}

#[test]
fn graph_show_as_an_html_page_links_claims_and_keeps_statements_text() {
    let p = Project::new();
    let hostile = "<script>alert(1)</script> <a href=\"javascript:alert(2)\">x</a> \u{202e}";
    let root = p
        .cmd()
        .args(["graph", "record", hostile, "--method", "m"])
        .output()
        .unwrap();
    let root = String::from_utf8(root.stdout).unwrap().trim().to_string();
    let child = p
        .cmd()
        .args([
            "graph",
            "record",
            "rests on it",
            "--method",
            "m",
            "--depends-on",
            &root,
        ])
        .output()
        .unwrap();
    let child = String::from_utf8(child.stdout).unwrap().trim().to_string();
    let out = p
        .cmd()
        .args(["graph", "show", "--format", "html"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let html = String::from_utf8(out.stdout).unwrap();
    let page = parse_page(&html);
    assert!(select(&page, "script, [src], [onclick]").is_empty());
    assert!(!html.contains('\u{202e}'));
    let first = select(&page, "body > p.reason");
    assert!(
        first[0]
            .text()
            .collect::<String>()
            .starts_with("Machine-checkable: 0 of 2 claims")
    );
    // Every link is a fragment to a claim section of this page: one in each claim's section,
    // one from each box of the picture.
    let anchors = select(&page, "a[href]");
    assert_eq!(anchors.len(), 4, "{html}");
    assert_eq!(select(&page, "figure.picture > svg a[href]").len(), 2);
    for a in &anchors {
        let href = a.value().attr("href").unwrap();
        let id = href.strip_prefix('#').expect("a fragment");
        assert!(id == root || id == child, "{href}");
        assert_eq!(select(&page, &format!("section#{id}")).len(), 1);
    }
    let statement: String = select(&page, &format!("section#{root} p"))
        .iter()
        .flat_map(|p| p.text())
        .collect();
    assert!(
        statement.contains("<script>alert(1)</script>"),
        "{statement}"
    );
}
