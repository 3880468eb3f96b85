//! GitHub-flavoured Markdown: untrusted text made inert (no links, autolinks, mentions, issue
//! references, emoji shortcodes, HTML or emphasis can come out of it), in the two styles
//! sciproof writes.
//!
//! * [`escape`]: the verification report's, list's and diff's style. Markdown punctuation is
//!   backslash-escaped or written as a character reference, and mentions, references and
//!   shortcode or URL colons get a zero-width space, so that they stay inert even after GitHub
//!   decodes the character references.
//! * [`code`], [`text`], [`heading`], [`cell`]: the claim-graph documents' style, which leaves
//!   ordinary prose as the reference (alkahest) writes it, so a benign document is
//!   byte-identical to the reference's, and escapes only what would become live markup.
//!
//! Both start from [`safe_text`]: no terminal control survives either.

use super::terminal::safe_text;
use crate::pyfmt::is_py_space;

/// Makes untrusted text inert in GitHub-flavoured Markdown (see the module documentation),
/// after terminal-safe escaping with `limit` and collapsing whitespace.
pub fn escape(text: &str, limit: usize) -> String {
    let safe = safe_text(text, limit);
    let collapsed = safe
        .split(is_py_space)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = String::with_capacity(collapsed.len() * 2);
    let chars: Vec<char> = collapsed.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\\' => out.push_str("\\\\"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' => out.push_str("\\|"),
            '`' => out.push_str("&#96;"),
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '@' => out.push_str("&#64;&#8203;"),
            '#' => out.push_str("&#35;&#8203;"),
            '*' => out.push_str("&#42;"),
            '_' => out.push_str("&#95;"),
            '~' => out.push_str("&#126;"),
            ':' if chars.get(i + 1).is_none_or(|n| !is_py_space(*n)) => {
                out.push_str("&#58;&#8203;")
            }
            _ => out.push(c),
        }
    }
    // `www.` would be autolinked: break it the same way.
    let mut result = String::with_capacity(out.len());
    let bytes = out.as_bytes();
    let mut i = 0;
    while i < out.len() {
        if bytes.len() >= i + 4 && bytes[i..i + 4].eq_ignore_ascii_case(b"www.") {
            result.push_str(&out[i..i + 3]);
            result.push_str("&#46;");
            i += 4;
        } else {
            let c = out[i..].chars().next().unwrap_or(' ');
            result.push(c);
            i += c.len_utf8();
        }
    }
    result
}

/// The longest text of one field that a document shows (a 1 MB statement is cut, with the
/// number of characters left out).
const FIELD_LIMIT: usize = 20_000;

/// Untrusted text made safe to stand on one line: terminal controls and bidirectional or
/// invisible format controls shown as escapes, line breaks as spaces, `|` as `\|` (so a value
/// stays inside its table cell).
fn one_line(text: &str) -> String {
    safe_text(&text.replace('\n', " "), FIELD_LIMIT).replace('|', "\\|")
}

/// `|` as `\|` and line breaks as spaces, so a value stays inside its table cell or line, with
/// every control neutralised (see `one_line`).
pub fn cell(text: &str) -> String {
    one_line(text)
}

/// An inline code span of untrusted text that nothing can break out of: delimited by one
/// backtick more than the longest run of backticks inside (padded with spaces when the text
/// starts or ends with one, as CommonMark requires). Inside a code span no Markdown or HTML is
/// interpreted. Plain text without backticks gives `` `text` ``, as the reference writes it.
pub fn code(text: &str) -> String {
    let body = one_line(text);
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    if longest == 0 {
        return format!("`{body}`");
    }
    let fence = "`".repeat(longest + 1);
    format!("{fence} {body} {fence}")
}

/// Untrusted text in a plain-text position of a line (a list item: the evidence, notes, a
/// re-check's detail), with `|` escaped as the reference escapes it there. See `inert`.
pub fn text(text: &str) -> String {
    inert(&one_line(text))
}

/// Untrusted text in a heading (the title, a claim's label), where the reference does not
/// escape `|`. See `inert`.
pub fn heading(text: &str) -> String {
    inert(&safe_text(&text.replace('\n', " "), FIELD_LIMIT))
}

/// Makes everything GitHub would turn into live markup inert, with the escapes of the
/// verification report, and leaves ordinary prose as it is (a benign document renders as the
/// reference renders it): `<` before a letter, `/`, `!` or `?` (a tag, comment or autolink),
/// `&` before `#` or a letter (a character reference, which could decode into markup or a
/// mention), `[` and `]` (links and images), `@` before a name (a mention), `#` before a digit
/// (an issue reference), `:` before `/` or a name character (a URL scheme or an emoji
/// shortcode), `www.` (an autolink).
fn inert(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let name = |n: char| n.is_alphanumeric() || matches!(n, '_' | '-' | '+');
        match c {
            '<' if next
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')) =>
            {
                out.push_str("&lt;")
            }
            '&' if next.is_some_and(|n| n == '#' || n.is_ascii_alphanumeric()) => {
                out.push_str("&amp;")
            }
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '@' if next.is_some_and(name) => out.push_str("&#64;&#8203;"),
            '#' if next.is_some_and(|n| n.is_ascii_digit()) => out.push_str("&#35;&#8203;"),
            ':' if next.is_some_and(|n| n == '/' || name(n)) => out.push_str("&#58;&#8203;"),
            '.' if i >= 3
                && chars[i - 3..i]
                    .iter()
                    .collect::<String>()
                    .eq_ignore_ascii_case("www") =>
            {
                out.push_str("&#46;")
            }
            _ => out.push(c),
        }
    }
    out
}
