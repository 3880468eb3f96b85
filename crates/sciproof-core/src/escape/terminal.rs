//! Making untrusted text safe to print on a terminal.
//!
//! Every renderer and prompt passes text that came from a manifest, a claim graph, a crate or a
//! policy through [`safe_text`] (directly, or through the Markdown, XML and LaTeX escapers that
//! build on it); JSON written for people to read passes through [`json_inert`].

use std::borrow::Cow;

/// Whether `c` is a Unicode bidirectional or invisible format control: U+061C, U+200B–U+200F,
/// U+2028–U+202E, U+2060–U+2069, U+FEFF. Printed raw they can reorder or hide what a terminal
/// or an editor shows (Trojan-Source spoofing of a command a user is asked to approve).
pub fn is_format_control(c: char) -> bool {
    matches!(
        c as u32,
        0x061C | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x2069 | 0xFEFF
    )
}

/// Whether `c` must never reach a terminal raw: C0 controls, DEL, C1 controls, and the format
/// controls of [`is_format_control`].
pub fn is_unsafe(c: char) -> bool {
    let code = c as u32;
    code < 32 || code == 127 || (0x80..0xa0).contains(&code) || is_format_control(c)
}

/// Escapes `value` for a terminal and shortens it to `limit` characters.
///
/// Guarantees: the result contains no character of [`is_unsafe`], so escape sequences in a
/// manifest can never move the cursor, recolour the terminal or hide text, and bidirectional
/// controls cannot reorder it. `\n` becomes the two characters `\n`, every other C0, DEL or C1
/// control `\xNN`, a format control `\uNNNN`. A longer result is cut to `limit` characters
/// followed by `... [N more characters]`. For text without format controls this matches the
/// reference's `safe_text`.
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
        } else if is_format_control(c) {
            out.push_str(&format!("\\u{code:04x}"));
            count += 6;
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

/// Whether `text` is printable ASCII and line breaks only, which holds nothing of
/// [`is_unsafe`]: checked on bytes in blocks ([`crate::json::no_byte`]), not decoded
/// characters (a million-claim report is hundreds of megabytes of such text).
fn plain(text: &str) -> bool {
    crate::json::no_byte(text.as_bytes(), |b| {
        ((b < 0x20) & (b != b'\n')) | (b > b'~')
    })
}

/// [`safe_text`] with the default limit of 500 characters.
pub fn safe(value: &str) -> String {
    safe_text(value, 500)
}

/// JSON text with every DEL, C1 and format control written as a `\uNNNN` escape. Such a
/// character can only stand inside a string of a valid document, where the escape means the
/// same character: the parsed value is unchanged, and what a terminal shows is inert.
pub fn json_inert(json: &str) -> Cow<'_, str> {
    let escaped = |c: char| is_unsafe(c) && !matches!(c, '\n' | '\r' | '\t');
    if plain(json) || !json.chars().any(escaped) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if escaped(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The last line of defence for anything written to a terminal: every character of
/// [`is_unsafe`] but the line break, written as `\uNNNN`. Renderers escape untrusted text
/// themselves (with [`safe_text`] and the Markdown, XML and LaTeX escapers); the command line
/// passes all of its output through this too, so a renderer that forgot a field still cannot
/// emit a byte a terminal obeys. JSON stays valid and means the same (see [`json_inert`]).
pub fn terminal_guard(text: &str) -> Cow<'_, str> {
    if plain(text) || !text.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c != '\n' && is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_ascii_is_never_unsafe() {
        for b in 0u8..0x80 {
            let c = char::from(b);
            assert_eq!(plain(&c.to_string()), c == '\n' || !is_unsafe(c), "{b:#x}");
            // (at every place of a text long enough for whole blocks and a tail)
            for at in 0..40 {
                let mut text = "x".repeat(40);
                text.replace_range(at..=at, &c.to_string());
                assert_eq!(plain(&text), c == '\n' || !is_unsafe(c), "{b:#x} at {at}");
            }
        }
        assert!(!plain(&format!("{}é", "a".repeat(32))));
        assert!(matches!(terminal_guard("ok\nfine"), Cow::Borrowed(_)));
        assert_eq!(terminal_guard("a\u{1b}b"), "a\\u001bb");
        assert_eq!(terminal_guard("é\u{202e}"), "é\\u202e");
    }

    #[test]
    fn control_characters_and_escape_sequences_are_neutralised() {
        assert_eq!(
            safe("a\u{1b}[2Jb\nc\u{7f}\u{9b}"),
            "a\\x1b[2Jb\\nc\\x7f\\x9b"
        );
        assert_eq!(safe_text("abcdef", 3), "abc... [3 more characters]");
        assert_eq!(safe_text("é", 1), "é");
    }

    #[test]
    fn bidi_and_invisible_controls_are_shown_not_obeyed() {
        assert_eq!(
            safe("rm -rf \u{202e}txt.exe\u{202c} \u{200b}\u{2066}x\u{2069}\u{feff}\u{61c}"),
            "rm -rf \\u202etxt.exe\\u202c \\u200b\\u2066x\\u2069\\ufeff\\u061c"
        );
        for c in ['\u{2028}', '\u{2029}', '\u{200f}', '\u{2060}'] {
            assert!(!safe(&c.to_string()).contains(c));
        }
        // Ordinary non-ASCII text is untouched.
        assert_eq!(safe("naïve ≤ 3 µm — ok"), "naïve ≤ 3 µm — ok");
    }

    #[test]
    fn inert_json_means_the_same_value() {
        let text = "{\"a\": \"x\u{202e}y\u{9b}z\u{7f}\"}";
        let inert = json_inert(text);
        assert!(!inert.chars().any(is_unsafe), "{inert}");
        assert_eq!(
            crate::json::parse(&inert).unwrap(),
            crate::json::parse(text).unwrap()
        );
        assert!(matches!(json_inert("{\"a\": 1}\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_guard_leaves_only_line_breaks() {
        let guarded = terminal_guard("a\u{1b}[2J\tb\r\nc\u{202e}d\u{9b}");
        assert_eq!(guarded, "a\\u001b[2J\\u0009b\\u000d\nc\\u202ed\\u009b");
        assert!(matches!(terminal_guard("plain\ntext é"), Cow::Borrowed(_)));
    }
}
