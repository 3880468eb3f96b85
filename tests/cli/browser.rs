//! The HTML pages and SVG pictures opened in a real browser: Debian's Chromium, headless (./test
//! installs it). Every page is made from hostile data whose every trick points at a loopback
//! port the test listens on: the page must fetch nothing (the port sees no connection, the
//! browser's network log names no URL of it or of another file), run nothing (a script that ran
//! would mark the document, and the DOM after loading has no mark), and show its verdict in
//! colour and in words (a screenshot of the right size with a pixel of the verdict's colour).
//!
//! The screenshots are kept in `target/screenshots/`; with `SCIPROOF_SCREENSHOTS=DIR` they are
//! also copied to DIR (`SCIPROOF_SCREENSHOTS=docs/screenshots cargo test --release --test cli
//! browser` makes the README's pictures).

use crate::util::Project;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A loopback port that counts the connections made to it.
struct Trap {
    port: u16,
    hits: Arc<AtomicUsize>,
}

impl Trap {
    fn new() -> Trap {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                counter.fetch_add(1, Ordering::SeqCst);
                drop(stream);
            }
        });
        Trap { port, hits }
    }

    /// Text that tries every way a page could be made to fetch from, or run script for, the
    /// trap: markup, attributes, URLs, CSS, SVG, bidi controls.
    fn bait(&self) -> String {
        let url = format!("http://127.0.0.1:{}", self.port);
        [
            format!("<script>document.documentElement.dataset.pwned=1</script><script src=\"{url}/s.js\"></script>"),
            format!("<img src=\"{url}/i.png\" onerror=\"document.documentElement.dataset.pwned=1\">"),
            format!("\" onmouseover=\"x\" style=\"background:url({url}/a.png)\" x=\""),
            format!("<a href=\"javascript:document.documentElement.dataset.pwned=1\">j</a><a href=\"{url}/l\">l</a>"),
            format!("</style><style>@import url({url}/c.css);body{{background:url(\\000068ttp://127.0.0.1:{}/e)}}</style>", self.port),
            format!("<svg><image href=\"{url}/v.png\"/><script>document.documentElement.dataset.pwned=1</script></svg>"),
            format!("<iframe src=\"{url}/f\"></iframe><link rel=\"stylesheet\" href=\"{url}/k.css\"><base href=\"{url}/\">"),
            format!("<meta http-equiv=\"refresh\" content=\"0;url={url}/r\"> file:///etc/passwd \u{202e}gnp.exe"),
        ]
        .join(" ")
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

/// What Chromium made of a page.
struct Opened {
    /// The document after loading (and after any script that ran).
    dom: String,
    /// Every URL in the browser's network log.
    urls: Vec<String>,
    /// The screenshot.
    png: PathBuf,
}

/// Opens `page` in headless Chromium at `width`x`height`: the DOM after loading, the network
/// log and a screenshot.
fn open(page: &Path, width: u32, height: u32) -> Opened {
    let work = tempfile::tempdir().unwrap();
    let url = format!("file://{}", page.display());
    let runs = std::cell::Cell::new(0);
    let run = |extra: &[String]| {
        // A fresh profile each time, inside `work`, so that it goes with it.
        runs.set(runs.get() + 1);
        let profile = work.path().join(format!("profile-{}", runs.get()));
        let out = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                // A page that never finishes loading (a refresh loop) is stopped and shown.
                "--timeout=10000",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--window-size={width},{height}"))
            .args(extra)
            .arg(&url)
            .output()
            .expect("chromium (Debian's package; ./test installs it)");
        assert!(
            out.status.success(),
            "chromium: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let log = work.path().join("net.json");
    let dom = run(&[
        format!("--log-net-log={}", log.display()),
        "--dump-dom".into(),
    ]);
    let png = page.with_extension("png");
    run(&[format!("--screenshot={}", png.display())]);
    let log = std::fs::read_to_string(&log).unwrap();
    let log = sciproof_core::json::parse(&log).expect("the network log is JSON");
    let mut urls = Vec::new();
    let field =
        |v: &sciproof_core::json::Value, k: &str| v.as_object().and_then(|o| o.get(k)).cloned();
    if let Some(events) = field(&log, "events").as_ref().and_then(|e| e.as_array()) {
        for e in events {
            if let Some(u) = field(e, "params")
                .and_then(|p| field(&p, "url"))
                .and_then(|u| u.as_str().map(str::to_string))
            {
                urls.push(u.to_string());
            }
        }
    }
    Opened {
        dom: String::from_utf8(dom.stdout).unwrap(),
        urls,
        png,
    }
}

/// The screenshot, decoded.
fn pixels(png: &Path) -> resvg::tiny_skia::Pixmap {
    resvg::tiny_skia::Pixmap::load_png(png).unwrap()
}

/// Whether the rows `rows` of `image` have a pixel of colour `#rrggbb`.
fn colour_in(image: &resvg::tiny_skia::Pixmap, rgb: u32, rows: std::ops::Range<u32>) -> bool {
    let [r, g, b] = [(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8];
    rows.flat_map(|y| (0..image.width()).map(move |x| (x, y)))
        .filter_map(|(x, y)| image.pixel(x, y))
        .any(|p| p.red() == r && p.green() == g && p.blue() == b)
}

/// Keeps a screenshot for the README (see the module's documentation).
fn keep(png: &Path, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(png, dir.join(name)).unwrap();
    if let Some(docs) = std::env::var_os("SCIPROOF_SCREENSHOTS") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join(docs);
        std::fs::create_dir_all(&docs).unwrap();
        std::fs::copy(png, docs.join(name)).unwrap();
    }
}

/// Checks that `opened` fetched nothing but its own file and ran no script; `shown`: the page
/// shows the bait (as text).
fn inert(opened: &Opened, page: &Path, trap: &Trap, shown: bool) {
    assert_eq!(trap.hits(), 0, "the page fetched from the trap");
    let own = format!("file://{}", page.display());
    for u in &opened.urls {
        assert!(
            !u.contains("127.0.0.1") && (!u.starts_with("file:") || *u == own),
            "the page asked for {u}"
        );
    }
    assert!(
        !opened.dom.contains("data-pwned"),
        "a script from the data ran"
    );
    assert_eq!(
        opened.dom.contains("dataset.pwned=1&lt;/script&gt;"),
        shown,
        "the bait is on the page as text, or not at all"
    );
    assert!(opened.dom.contains("Content-Security-Policy"));
}

/// Writes `html` (a command's output) to `name` in the project.
fn page(p: &Project, name: &str, html: &[u8]) -> PathBuf {
    let path = p.join(name);
    std::fs::write(&path, html).unwrap();
    path
}

fn stdout(p: &Project, args: &[&str]) -> (Option<i32>, Vec<u8>) {
    let out = p.cmd().args(args).output().unwrap();
    (out.status.code(), out.stdout)
}

#[test]
fn a_verify_page_from_hostile_data_opens_in_chromium_inert_with_its_verdict_in_colour() {
    let trap = Trap::new();
    let p = Project::new();
    let bait = trap.bait();
    let quoted =
        sciproof_core::json::to_string_compact(&sciproof_core::json::Value::String(bait.clone()));
    p.write("out/result.json", &format!("{{\"note\": {quoted}}}"));
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--output-numeric",
            "out/result.json",
        ])
        .args(["--claim", "out/result.json", &format!("$.note == {quoted}")])
        .args(["--note", &bait])
        .args(["--", "sh", "-c", "true \"$1\"", "sh", &bait])
        .assert()
        .success();
    p.write("out/result.json", "{\"note\": \"changed\"}");
    let (code, html) = stdout(&p, &["verify", "run.sciproof.json", "--format", "html"]);
    assert_eq!(code, Some(1));
    let path = page(&p, "verify.html", &html);
    let opened = open(&path, 1000, 700);
    inert(&opened, &path, &trap, true);
    assert!(
        opened.dom.contains("&lt;script&gt;"),
        "the bait is shown as text"
    );
    let shot = pixels(&opened.png);
    assert_eq!((shot.width(), shot.height()), (1000, 700));
    assert!(
        colour_in(&shot, 0xc0392b, 0..200),
        "the FAIL banner is drawn at the top"
    );
    keep(&opened.png, "verify.png");
}

#[test]
fn list_and_diff_pages_open_in_chromium_inert() {
    let trap = Trap::new();
    let p = Project::new();
    let bait = trap.bait();
    // The bait in the notes and in the command of each run (the diff shows the commands).
    for (name, tail) in [("one", ""), ("two", " 2")] {
        let arg = format!("{bait}{tail}");
        p.cmd()
            .args(["capture", "--name", name, "--output", "out/result.json"])
            .args(["--note", &bait, "--", "sh", "-c", "sh train.sh", "sh", &arg])
            .assert()
            .success();
    }
    let (code, html) = stdout(&p, &["list", "--check", "--format", "html"]);
    assert_eq!(code, Some(0));
    let path = page(&p, "list.html", &html);
    let opened = open(&path, 1000, 500);
    // A list shows names and verdicts, which sciproof checked: the bait in notes and
    // commands is not on it.
    inert(&opened, &path, &trap, false);
    assert!(colour_in(&pixels(&opened.png), 0x1e8449, 0..200), "PASS");
    keep(&opened.png, "list.png");

    p.write("data.json", "{\"x\": [9, 9, 9]}");
    p.cmd()
        .args([
            "capture",
            "--name",
            "two",
            "--force",
            "--output",
            "out/result.json",
        ])
        .args(["--note", &bait, "--", "sh", "-c", "sh train.sh", "sh"])
        .arg(format!("{bait} 2"))
        .assert()
        .success();
    let (code, html) = stdout(
        &p,
        &[
            "diff",
            "one.sciproof.json",
            "two.sciproof.json",
            "--format",
            "html",
        ],
    );
    assert_eq!(code, Some(1));
    let path = page(&p, "diff.html", &html);
    let opened = open(&path, 1000, 700);
    inert(&opened, &path, &trap, true);
    assert!(
        colour_in(&pixels(&opened.png), 0xa04000, 0..200),
        "DIFFERENT"
    );
    keep(&opened.png, "diff.png");
}

#[test]
fn a_graph_page_and_its_pictures_open_in_chromium_inert() {
    let trap = Trap::new();
    let p = Project::new();
    p.example_graph("example-b.json", "claims.json");
    let bait = trap.bait();
    let (code, _) = stdout(
        &p,
        &[
            "graph", "record", &bait, "--method", &bait, "--label", &bait,
        ],
    );
    assert_eq!(code, Some(0));
    let (code, html) = stdout(&p, &["graph", "show", "--format", "html"]);
    assert_eq!(code, Some(0));
    let path = page(&p, "graph.html", &html);
    let opened = open(&path, 1100, 900);
    inert(&opened, &path, &trap, true);
    assert!(opened.dom.contains("<svg"), "the picture is inline");
    keep(&opened.png, "graph.png");

    // The SVG picture on its own, and the refuted claims drawn red.
    let (code, svg) = stdout(&p, &["graph", "show", "--format", "svg"]);
    assert_eq!(code, Some(0));
    let path = page(&p, "graph.svg", &svg);
    let opened = open(&path, 900, 600);
    assert_eq!(trap.hits(), 0);
    assert!(!opened.dom.contains("data-pwned"));
    let shot = pixels(&opened.png);
    assert!(
        colour_in(&shot, 0xf5b7b1, 0..shot.height()),
        "refuted boxes"
    );
    keep(&opened.png, "graph-svg.png");

    // Megabytes of bait in the fields that are not part of a claim's identity.
    let grow = r#"
import json, sys
d = json.load(open("claims.json"))
bait = sys.argv[1]
d["title"] = bait * (1_000_000 // len(bait))
for c in d["claims"][:3]:
    c["label"] = bait * (1_000_000 // len(bait))
    c["evidence"] = "\u202e" * 1000 + bait * (1_000_000 // len(bait))
    c["notes"] = bait * (1_000_000 // len(bait))
json.dump(d, open("claims.json", "w"))
"#;
    let grown = Command::new("python3")
        .args(["-c", grow, &bait])
        .current_dir(p.path())
        .output()
        .unwrap();
    assert!(grown.status.success(), "{grown:?}");
    let (code, html) = stdout(&p, &["graph", "show", "--format", "html"]);
    assert_eq!(code, Some(0));
    assert!(
        html.len() < 200_000,
        "long texts are cut: {} bytes",
        html.len()
    );
    let path = page(&p, "grown.html", &html);
    inert(&open(&path, 1100, 900), &path, &trap, true);
    let (code, svg) = stdout(&p, &["graph", "show", "--format", "svg"]);
    assert_eq!(code, Some(0));
    assert!(
        svg.len() < 100_000,
        "long texts are cut: {} bytes",
        svg.len()
    );
    let path = page(&p, "grown.svg", &svg);
    let opened = open(&path, 900, 600);
    assert_eq!(trap.hits(), 0);
    assert!(!opened.dom.contains("data-pwned"));
}

#[test]
fn the_dot_picture_is_drawn_by_graphviz() {
    let p = Project::new();
    p.example_graph("example-b.json", "claims.json");
    let (code, dot) = stdout(&p, &["graph", "show", "--format", "dot"]);
    assert_eq!(code, Some(0));
    std::fs::write(p.join("graph.dot"), dot).unwrap();
    let out = Command::new("dot")
        .args(["-Tpng", "-Gdpi=72", "-o"])
        .arg(p.join("graph-dot.png"))
        .arg(p.join("graph.dot"))
        .output()
        .expect("dot (Debian's graphviz; ./test installs it)");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shot = pixels(&p.join("graph-dot.png"));
    assert!(
        colour_in(&shot, 0xf5b7b1, 0..shot.height()),
        "refuted boxes"
    );
    keep(&p.join("graph-dot.png"), "graph-dot.png");
}

#[test]
fn the_checks_catch_a_page_that_fetches_and_runs_the_bait() {
    // The same bait put into a page raw, without our escaping or policy: the trap sees the
    // fetches and the DOM carries the mark, so the checks above can fail. (Its refresh is
    // taken out: it would replace the marked document before the DOM is read.)
    let trap = Trap::new();
    let p = Project::new();
    let bait = trap.bait().replace("http-equiv=\"refresh\"", "name=\"x\"");
    let path = page(
        &p,
        "raw.html",
        format!("<!DOCTYPE html><html><body>{bait}</body></html>").as_bytes(),
    );
    let opened = open(&path, 400, 300);
    assert!(trap.hits() > 0, "a raw page fetches from the trap");
    assert!(
        opened.dom.contains("data-pwned=\"1\""),
        "and runs its script"
    );
}
