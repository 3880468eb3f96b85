//! The frame every `--format html` page shares: one self-contained document with a strict
//! Content-Security-Policy (nothing may be fetched or run; only the inline style applies), the
//! style, and the title. Each model's HTML renderer writes only its body; the verdict colours
//! are classes named after the status word (`PASS`, `FAIL`, `INCONCLUSIVE`), always shown
//! together with the word.

use crate::escape::html::text;
use crate::report::Status;

/// The page's style: colours for the three verdicts, readable tables.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1c2833}\
.verdict{padding:.6em 1em;border-radius:6px;font-size:1.4em;color:#fff}\
.verdict .word{font-weight:bold;margin-right:.6em}\
.PASS,.IDENTICAL{background:#1e8449}.FAIL{background:#c0392b}.INCONCLUSIVE{background:#7d6608}.DIFFERENT{background:#a04000}\
td.PASS,td.FAIL,td.INCONCLUSIVE{color:#fff;font-weight:bold;white-space:nowrap}\
table{border-collapse:collapse;margin:1em 0;width:100%}th,td{border:1px solid #d5d8dc;padding:.3em .5em;text-align:left;vertical-align:top}\
th{background:#f2f3f4}pre{white-space:pre-wrap;word-break:break-all;background:#f8f9f9;padding:.5em}\
.reason{font-style:italic}details summary{cursor:pointer;color:#5d6d7e}\
.picture{overflow:auto;margin:1em 0;border:1px solid #d5d8dc}";

/// The Content-Security-Policy: nothing may be fetched or run; only the inline style applies.
pub const POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/// A whole page around `body` (already escaped HTML), titled `title` (untrusted text).
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        text(title, 200)
    )
}

/// The mark shown before a status word (never instead of it).
pub fn symbol(status: Status) -> &'static str {
    match status {
        Status::Pass => "\u{2714}",
        Status::Fail => "\u{2718}",
        Status::Inconclusive => "?",
    }
}

/// The verdict as a coloured banner with its mark and word, then `name`.
pub fn verdict(status: Status, name: &str) -> String {
    banner(
        status.as_str(),
        &format!("{} {}", symbol(status), status.as_str()),
        name,
    )
}

/// A coloured banner: `class` picks the colour (a status word, `IDENTICAL` or `DIFFERENT`),
/// `word` says it in words, then `name` (untrusted text).
pub fn banner(class: &str, word: &str, name: &str) -> String {
    format!(
        "<header class=\"verdict {class}\"><span class=\"word\">{word}</span><span class=\"name\">{}</span></header>\n",
        text(name, 200)
    )
}

/// A `<h2>` and a list of untrusted lines.
pub fn list(title: &str, items: &[String]) -> String {
    let mut out = format!("<h2>{title}</h2>\n<ul>\n");
    for i in items {
        out.push_str(&format!("<li>{}</li>\n", text(i, 1000)));
    }
    out.push_str("</ul>\n");
    out
}
