//! The writer: Python's `json.dumps` output (`ensure_ascii=True`), byte for byte.

use super::{Number, Object, Value};
use crate::pyfmt::float_repr;

/// `json.dumps(value, indent=2)`: two-space indentation, `", "`-free line breaks, `": "` between
/// key and value, non-ASCII escaped. No trailing newline.
pub fn to_string_pretty(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, Some(0), Style::ASCII);
    out
}

/// `json.dumps(value)`: one line, separators `", "` and `": "`, non-ASCII escaped.
pub fn to_string_compact(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, None, Style::ASCII);
    out
}

/// The `json.dumps` options that change the bytes beyond indentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// `ensure_ascii=True`: every non-ASCII character as `\uXXXX` (surrogate pairs above the
    /// BMP). With `false`, they are written raw, as UTF-8.
    pub ensure_ascii: bool,
    /// `sort_keys=True`: the keys of every object in code-point order.
    pub sort_keys: bool,
    /// `separators=(",", ":")`: the one-line form without spaces (canonical JSON for hashing).
    pub tight: bool,
}

impl Style {
    /// Python's defaults: ASCII escapes, keys in their own order.
    pub const ASCII: Style = Style {
        ensure_ascii: true,
        sort_keys: false,
        tight: false,
    };
    /// `ensure_ascii=False`: non-ASCII raw, keys in their own order.
    pub const RAW: Style = Style {
        ensure_ascii: false,
        sort_keys: false,
        tight: false,
    };
    /// `ensure_ascii=False, sort_keys=True` (the claim-graph document).
    pub const SORTED_RAW: Style = Style {
        ensure_ascii: false,
        sort_keys: true,
        tight: false,
    };
    /// `sort_keys=True, separators=(",", ":"), ensure_ascii=False`: the canonical text that
    /// claim IDs and claim-check addresses are made of.
    pub const CANONICAL: Style = Style {
        ensure_ascii: false,
        sort_keys: true,
        tight: true,
    };
}

/// Appends a line break and the indentation of `level` (two spaces per level).
pub fn newline(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// Appends a list of `len` items as `json.dumps` lays it out (`[]` when empty); `item` writes
/// item `i` at the indentation it is given.
pub fn write_array(
    out: &mut String,
    len: usize,
    indent: Option<usize>,
    item: &mut dyn FnMut(&mut String, usize, Option<usize>),
) {
    write_seq(out, ['[', ']'], len, indent, false, item);
}

/// Appends what [`write_array`] writes at `Some(level)` for a list that `written` holds, as it
/// wrote it with at least one item, followed by `len` more: the items there are copied, not
/// written again, and the new ones are laid out as `write_array` lays them out (`item` writes
/// new item `i`). Returns `false`, appending nothing, when `written` does not end as such a
/// list does (an empty list, or the one-line form).
pub fn extend_array(
    out: &mut String,
    written: &str,
    level: usize,
    len: usize,
    item: &mut dyn FnMut(&mut String, usize, Option<usize>),
) -> bool {
    // (a list laid out with items ends with a line break, the list's indentation and `]`)
    let bytes = written.as_bytes();
    let Some(at) = bytes.len().checked_sub(2 * level + 2) else {
        return false;
    };
    let end = &bytes[at..];
    if end[0] != b'\n' || !end[1..end.len() - 1].iter().all(|&b| b == b' ') || !end.ends_with(b"]")
    {
        return false;
    }
    out.push_str(&written[..at]);
    for i in 0..len {
        out.push(',');
        newline(out, level + 1);
        item(out, i, Some(level + 1));
    }
    newline(out, level);
    out.push(']');
    true
}

/// The layout shared by lists and objects: `brackets` around `len` items, separators and
/// indentation as `json.dumps` writes them.
fn write_seq(
    out: &mut String,
    brackets: [char; 2],
    len: usize,
    indent: Option<usize>,
    tight: bool,
    item: &mut dyn FnMut(&mut String, usize, Option<usize>),
) {
    if len == 0 {
        out.push(brackets[0]);
        out.push(brackets[1]);
        return;
    }
    out.push(brackets[0]);
    for i in 0..len {
        if i > 0 {
            out.push(',');
            if indent.is_none() && !tight {
                out.push(' ');
            }
        }
        if let Some(level) = indent {
            newline(out, level + 1);
        }
        item(out, i, indent.map(|l| l + 1));
    }
    if let Some(level) = indent {
        newline(out, level);
    }
    out.push(brackets[1]);
}

/// Appends `value` as `json.dumps` writes it: `indent` is `Some(level)` for the `indent=2` form
/// (the value starts at nesting `level`), `None` for the one-line form with `", "`/`": "` (or
/// `","`/`":"` with [`Style::tight`]).
pub fn write_value(out: &mut String, value: &Value, indent: Option<usize>, style: Style) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(Number::Int(i)) => match i64::try_from(i) {
            // (writing to a `String` cannot fail)
            Ok(small) => out.push_str(itoa::Buffer::new().format(small)),
            Err(_) => out.push_str(&i.to_string()),
        },
        Value::Number(Number::Float(f)) => out.push_str(&json_float(*f)),
        Value::String(s) => write_str(out, s, style.ensure_ascii),
        Value::Array(items) => write_seq(
            out,
            ['[', ']'],
            items.len(),
            indent,
            style.tight,
            &mut |out, i, inner| write_value(out, &items[i], inner, style),
        ),
        Value::Object(object) => write_object(out, object, indent, style),
    }
}

/// Appends an object as [`write_value`] does.
pub fn write_object(out: &mut String, object: &Object, indent: Option<usize>, style: Style) {
    let entries = &object.entries;
    // (the order to write the keys in, when it is not the order they are in: objects read
    // from a saved document nearly always have their keys sorted already)
    let order: Option<Vec<usize>> =
        (style.sort_keys && !entries.windows(2).all(|w| w[0].0 < w[1].0)).then(|| {
            let mut order: Vec<usize> = (0..entries.len()).collect();
            order.sort_by(|&a, &b| entries[a].0.cmp(&entries[b].0));
            order
        });
    write_seq(
        out,
        ['{', '}'],
        entries.len(),
        indent,
        style.tight,
        &mut |out, i, inner| {
            let (key, value) = &entries[order.as_ref().map_or(i, |o| o[i])];
            write_str(out, key, style.ensure_ascii);
            out.push_str(if style.tight { ":" } else { ": " });
            write_value(out, value, inner, style);
        },
    );
}

/// A float as Python's encoder writes it: `repr`, with `NaN`, `Infinity`, `-Infinity`.
fn json_float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        }
    } else {
        float_repr(f)
    }
}

/// Appends `s` as a JSON string literal with Python's ASCII escaping.
pub fn write_string(out: &mut String, s: &str) {
    write_str(out, s, true);
}

/// Appends `s` as a JSON string literal, as `json.dumps` writes it with `ensure_ascii` as given:
/// `"`, `\\` and the short control escapes, other controls as `\u00xx`; everything else
/// raw when `ensure_ascii` is false (DEL and U+2028 included).
pub fn write_str(out: &mut String, s: &str, ensure_ascii: bool) {
    if plain(s.as_bytes(), ensure_ascii) {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        write_escaped(out, s, ensure_ascii);
    }
}

/// [`write_str`] one character at a time (what every string would get without the test for
/// plain ones).
fn write_escaped(out: &mut String, s: &str, ensure_ascii: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            c if !ensure_ascii && c >= ' ' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

/// Whether `bytes` are written as they are: no control, `"` or `\\`, and with `ensure_ascii`
/// nothing outside printable ASCII.
#[inline]
fn plain(bytes: &[u8], ensure_ascii: bool) -> bool {
    no_byte(bytes, |b| {
        (b < 0x20) | (b == b'"') | (b == b'\\') | (ensure_ascii & (b > b'~'))
    })
}

/// Whether no byte of `bytes` is `bad` (`bad` written with `|` and `&`, not `||`, so that it
/// has no branches). Tested 16 bytes at a time, which the compiler turns into vector
/// instructions, the tail as one more block padded with `a` (which `bad` must accept): strings
/// are most of a large document, and a test that stops at the first bad byte, or finishes the
/// tail a byte at a time, goes one byte at a time (most keys and values are under 16 bytes).
#[inline]
pub fn no_byte(bytes: &[u8], bad: impl Fn(u8) -> bool) -> bool {
    let mut blocks = bytes.chunks_exact(16);
    for block in &mut blocks {
        if block.iter().fold(false, |any, &b| any | bad(b)) {
            return false;
        }
    }
    let tail = blocks.remainder();
    let mut last = [b'a'; 16];
    last[..tail.len()].copy_from_slice(tail);
    !last.iter().fold(false, |any, &b| any | bad(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Object, parse};
    use proptest::strategy::Strategy;

    #[test]
    fn plain_is_decided_by_every_byte_of_blocks_and_tail() {
        let bad = |b: u8, ascii: bool| b < 0x20 || b == b'"' || b == b'\\' || (ascii && b > b'~');
        for len in 1..40 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'x'; len];
                    bytes[at] = b;
                    for ascii in [false, true] {
                        assert_eq!(
                            plain(&bytes, ascii),
                            !bad(b, ascii),
                            "{len} {at} {b} {ascii}"
                        );
                    }
                }
            }
        }
        assert!(plain(b"", true));
    }

    #[test]
    fn pretty_matches_python_indent_2() {
        let v = Value::Object(
            Object::new()
                .with("a", 1i64)
                .with("b", Value::Array(vec![Value::from(1e-9), Value::from(0.0)]))
                .with("c", Object::new())
                .with("d", Value::Array(vec![]))
                .with("e", "é\u{7f}\u{1F600}"),
        );
        assert_eq!(
            to_string_pretty(&v),
            "{\n  \"a\": 1,\n  \"b\": [\n    1e-09,\n    0.0\n  ],\n  \"c\": {},\n  \"d\": [],\n  \"e\": \"\\u00e9\\u007f\\ud83d\\ude00\"\n}"
        );
        assert_eq!(to_string_compact(&v).lines().count(), 1);
        assert!(to_string_compact(&v).starts_with("{\"a\": 1, \"b\": [1e-09, 0.0], "));
    }

    /// [`write_escaped`] into a new string.
    fn escaped_one_by_one(s: &str, ensure_ascii: bool) -> String {
        let mut out = String::new();
        write_escaped(&mut out, s, ensure_ascii);
        out
    }

    proptest::proptest! {
        #[test]
        fn strings_are_escaped_as_one_character_at_a_time(
            s in "(.|[\\x00-\\x7f]|\\\\|\"){0,80}",
            ensure_ascii: bool,
        ) {
            let mut out = String::new();
            write_str(&mut out, &s, ensure_ascii);
            proptest::prop_assert_eq!(out, escaped_one_by_one(&s, ensure_ascii));
        }
    }

    /// `items` written as a list of values at `level` ([`write_array`]).
    fn list(items: &[Value], level: usize) -> String {
        let mut out = String::new();
        write_array(&mut out, items.len(), Some(level), &mut |out, i, at| {
            write_value(out, &items[i], at, Style::SORTED_RAW)
        });
        out
    }

    proptest::proptest! {
        /// A list written with some items and extended by the rest is the list written whole;
        /// a list written without items, or on one line, is not extended.
        #[test]
        fn an_extended_list_is_the_list_written_whole(
            items in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::num::i64::ANY.prop_map(Value::from),
                    "[a\\]\"\n ]{0,6}".prop_map(Value::from),
                    proptest::collection::vec(proptest::num::i64::ANY.prop_map(Value::from), 0..3)
                        .prop_map(Value::Array),
                ],
                0..6,
            ),
            split in proptest::num::usize::ANY,
            level in 0usize..5,
        ) {
            use proptest::{prop_assert, prop_assert_eq};
            let k = split % (items.len() + 1);
            let (before, after) = items.split_at(k);
            let mut out = String::from("=");
            let extended = extend_array(&mut out, &list(before, level), level, after.len(), &mut |out, i, at| {
                write_value(out, &after[i], at, Style::SORTED_RAW)
            });
            prop_assert_eq!(extended, k > 0);
            if extended {
                prop_assert_eq!(&out[1..], list(&items, level));
            } else {
                prop_assert_eq!(out.as_str(), "=");
            }
            // (the one-line form is not a list this extends)
            let mut one_line = String::new();
            write_array(&mut one_line, before.len(), None, &mut |out, i, at| {
                write_value(out, &before[i], at, Style::SORTED_RAW)
            });
            let mut nothing = |_: &mut String, _: usize, _: Option<usize>| ();
            let extended = extend_array(&mut String::new(), &one_line, level, 1, &mut nothing);
            prop_assert!(!extended, "{}", one_line);
        }
    }

    proptest::proptest! {
        /// With `sort_keys`, an object's keys come out in code-point order whether they were
        /// in order already or not (nested objects too), and integers as their decimal digits.
        #[test]
        fn sorted_keys_and_integers_as_python_writes_them(
            entries in proptest::collection::btree_map("[ab\u{e9}\u{1f600}]{0,3}", proptest::num::i64::ANY, 0..12),
            shuffle in proptest::collection::vec(proptest::num::usize::ANY, 12),
            big: bool,
        ) {
            let mut keys: Vec<(&String, &i64)> = entries.iter().collect();
            for (i, s) in shuffle.iter().enumerate().take(keys.len()) {
                let j = s % keys.len();
                keys.swap(i, j);
            }
            let number = |n: i64| -> Value {
                if big {
                    Value::Number(crate::Number::Int(num_bigint::BigInt::from(n) * 1_000_000_000_000i64))
                } else {
                    Value::from(n)
                }
            };
            let mut shuffled = Object::new();
            for (k, v) in &keys {
                shuffled.insert(k.as_str(), number(**v));
            }
            let inner = shuffled.clone();
            shuffled.insert("~nested", Value::Object(inner));
            // (the expected text, made by hand from the keys in order)
            let text = |o: &std::collections::BTreeMap<String, String>| {
                let pairs: Vec<String> = o.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
                format!("{{{}}}", pairs.join(", "))
            };
            let mut inner: std::collections::BTreeMap<String, String> = entries
                .iter()
                .map(|(k, v)| {
                    let v = num_bigint::BigInt::from(*v) * if big { 1_000_000_000_000i64 } else { 1 };
                    (k.clone(), v.to_string())
                })
                .collect();
            let nested = text(&inner);
            inner.insert("~nested".into(), nested);
            let expected = text(&inner);
            let mut out = String::new();
            write_object(&mut out, &shuffled, None, Style::SORTED_RAW);
            proptest::prop_assert_eq!(out, expected);
        }
    }

    #[test]
    fn one_odd_character_anywhere_in_a_long_string() {
        // Every position of the blocks tested at once and of the bytes after them.
        for len in [15, 16, 17, 32, 40] {
            for at in 0..len {
                for odd in ['"', '\\', '\u{1}', '\u{1f}', '~', '\u{7f}', 'é', '\u{2028}'] {
                    let s: String = (0..len).map(|i| if i == at { odd } else { 'a' }).collect();
                    for ensure_ascii in [false, true] {
                        let mut out = String::new();
                        write_str(&mut out, &s, ensure_ascii);
                        assert_eq!(out, escaped_one_by_one(&s, ensure_ascii), "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn round_trip_keeps_values() {
        let text = r#"{"x": [1, 2.5, NaN, -Infinity, "a\u0001", null, true, 123456789012345678901234567890]}"#;
        let v = parse(text).unwrap();
        let again = to_string_compact(&v);
        assert_eq!(again, text);
    }
}
