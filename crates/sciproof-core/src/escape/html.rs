//! HTML (the `--format html` pages): text becomes character data or a quoted attribute value
//! that no browser reads as markup. It is made terminal-safe first (controls and bidirectional
//! marks become visible `\xNN`/`\uNNNN`), then `& < > " '` become character references. Pages
//! never put data into URLs, scripts or styles, so this one escaper covers every place they do
//! put it.

use super::terminal::safe_text;

/// `text`, limited to `limit` characters, for element content or a quoted attribute.
pub fn text(value: &str, limit: usize) -> String {
    let mut out = String::with_capacity(value.len());
    for c in safe_text(value, limit).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_stays_text() {
        assert_eq!(
            text("<script>alert('x')</script>", 100),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
        );
        assert_eq!(
            text("\" onmouseover=\"x", 100),
            "&quot; onmouseover=&quot;x"
        );
        assert_eq!(text("a & b\u{202e}", 100), "a &amp; b\\u202e");
    }
}
