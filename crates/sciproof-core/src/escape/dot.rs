//! Graphviz DOT: text becomes one double-quoted string that Graphviz shows as written. It is
//! made terminal-safe first (controls and bidirectional marks become visible `\xNN`/`\uNNNN`,
//! a line break the two characters `\n`), then every backslash and quote is escaped, so no
//! Graphviz escape (`\N`, `\G`, `\l`, ...) and no HTML-like label can come from the data.

use super::terminal::safe_text;

/// `text` as a quoted DOT string, limited to `limit` characters of text.
pub fn quoted(text: &str, limit: usize) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in safe_text(text, limit).chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Lines of text joined with Graphviz's centred line break, each quoted-safe, as one quoted
/// string.
pub fn lines(parts: &[&str], limit: usize) -> String {
    let inner: Vec<String> = parts
        .iter()
        .map(|p| {
            let q = quoted(p, limit);
            q[1..q.len() - 1].to_string()
        })
        .collect();
    format!("\"{}\"", inner.join("\\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_in_the_data_is_live() {
        assert_eq!(quoted("a \"b\" \\N", 100), "\"a \\\"b\\\" \\\\N\"");
        assert_eq!(quoted("x\ny", 100), "\"x\\\\ny\"");
        assert_eq!(quoted("\u{202e}evil", 100), "\"\\\\u202eevil\"");
        assert_eq!(quoted("<b>html</b>", 100), "\"<b>html</b>\"");
        assert_eq!(lines(&["one", "t\"wo"], 100), "\"one\\nt\\\"wo\"");
    }
}
