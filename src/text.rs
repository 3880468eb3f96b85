//! Making untrusted text safe to print on a terminal.

/// Escapes `value` for a terminal and shortens it to `limit` characters.
///
/// Guarantees: the result contains no control character (C0, DEL, C1), so escape sequences in a
/// manifest can never move the cursor, recolour the terminal or hide text. `\n` becomes the two
/// characters `\n`, every other control character `\xNN`. A longer result is cut to `limit`
/// characters followed by `... [N more characters]`. This matches the reference's `safe_text`.
pub fn safe_text(value: &str, limit: usize) -> String {
    let mut out = String::with_capacity(value.len());
    let mut count = 0usize;
    for c in value.chars() {
        let code = c as u32;
        if c == '\n' {
            out.push_str("\\n");
            count += 2;
        } else if code < 32 || code == 127 || (0x80..0xa0).contains(&code) {
            out.push_str(&format!("\\x{code:02x}"));
            count += 4;
        } else {
            out.push(c);
            count += 1;
        }
    }
    if count > limit {
        let cut: String = out.chars().take(limit).collect();
        return format!("{cut}... [{} more characters]", count - limit);
    }
    out
}

/// [`safe_text`] with the default limit of 500 characters.
pub fn safe(value: &str) -> String {
    safe_text(value, 500)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_escape_sequences_are_neutralised() {
        assert_eq!(
            safe("a\u{1b}[2Jb\nc\u{7f}\u{9b}"),
            "a\\x1b[2Jb\\nc\\x7f\\x9b"
        );
        assert_eq!(safe_text("abcdef", 3), "abc... [3 more characters]");
        assert_eq!(safe_text("é", 1), "é");
    }
}
