//! XML 1.0 (JUnit reports): always well-formed. Text is made terminal-safe first, characters
//! XML 1.0 cannot carry are replaced by `?`, and the markup characters are escaped.

use super::terminal::safe_text;

/// Terminal-safe text limited to `limit`, with characters outside XML 1.0 replaced by `?`.
fn clean(text: &str, limit: usize) -> String {
    safe_text(text, limit)
        .chars()
        .map(|c| match c as u32 {
            0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF => c,
            _ => '?',
        })
        .collect()
}

/// Escaped for XML: `& < >` always; in an attribute also `"` and the line breaks and tabs
/// (which attribute normalisation would otherwise turn into spaces).
fn escape(text: &str, limit: usize, attribute: bool) -> String {
    let mut out = String::new();
    for c in clean(text, limit).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' if attribute => out.push_str("&#13;"),
            '\t' if attribute => out.push_str("&#09;"),
            c => out.push(c),
        }
    }
    out
}

/// Text for an attribute value (`"` and line breaks escaped too), limited to `limit`.
pub fn attr(text: &str, limit: usize) -> String {
    escape(text, limit, true)
}

/// Text for element content, limited to `limit`.
pub fn body(text: &str, limit: usize) -> String {
    escape(text, limit, false)
}
