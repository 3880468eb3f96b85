//! A forward reader for callers that know the shape of what they read (a claim of a graph
//! document), so that they can take each value straight from the text instead of building a
//! tree of [`Value`]s and taking it apart again.
//!
//! Every step reads exactly what [`parse`](fn@crate::parse) would read at that place, or
//! **declines** (`None`): at anything that is not valid JSON, and wherever the caller's shape
//! does not hold. A caller that is declined reads the whole text again with
//! [`parse`](fn@crate::parse), which then reports the problem with its place; so a scanner never
//! has to word an error, and whatever it accepts it reads as the parser does. What it does not
//! check is up to its caller, and said at each step ([`Scanner::key`]: repeated keys).
//!
//! A scanner also tells whether what it read is written exactly as a saved document writes it
//! (`json.dumps(indent=2, sort_keys=True, ensure_ascii=False)` at its depth:
//! [`Scanner::in_saved_form`]), so that a caller can copy such text instead of writing it again.

use super::parse::{Parser, int_of, plain_len};
use super::{Compact, MAX_NESTING, Number, Object, Value, write_str};
use std::borrow::Cow;

/// Nesting below which [`Scanner::compact`] writes an object's canonical text straight from
/// its text; deeper objects (rare) go through a [`Value`], which checks [`MAX_NESTING`].
const DIRECT_DEPTH: usize = 32;

/// Reads one JSON text step by step (see the module documentation).
pub struct Scanner<'a> {
    p: Parser<'a, 'static>,
    /// Whether everything read so far is in the saved form (see [`Scanner::in_saved_form`]).
    saved: bool,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`, which is one JSON value nested `depth` levels deep in
    /// the document it belongs to (0 for a whole document; what [`MAX_NESTING`] counts).
    pub fn new(text: &'a str, depth: usize) -> Scanner<'a> {
        Scanner {
            p: Parser {
                text,
                bytes: text.as_bytes(),
                pos: 0,
                depth,
                hook: None,
            },
            saved: true,
        }
    }

    /// Whether everything read so far is written exactly as `json.dumps(indent=2,
    /// sort_keys=True, ensure_ascii=False)` writes it with the text's first value at the depth
    /// given to [`Scanner::new`]: each member and item on its own line indented by two spaces
    /// per level, `": "` after keys, empty containers as `{}` and `[]`, strings escaped as
    /// Python escapes them, no floats, and the keys of every object in order. The keys of
    /// objects read member by member ([`Scanner::members`]) are the caller's to check; values
    /// read whole ([`Scanner::value`], [`Scanner::object`]) are never vouched for. Whitespace
    /// before the first value and after the last is not looked at.
    pub fn in_saved_form(&self) -> bool {
        self.saved
    }

    /// Where the scanner is: the byte offset in the text (past any whitespace once
    /// [`Scanner::peek`] has looked).
    pub fn offset(&self) -> usize {
        self.p.pos
    }

    /// Skips the whitespace that is next, which in the saved form is a line break and `indent`
    /// spaces (found at once when it is).
    fn line(&mut self, indent: usize) {
        let (bytes, at) = (self.p.bytes, self.p.pos);
        let end = at + 1 + indent;
        let found = match bytes.get(at..at + 16) {
            // (a line break and up to fourteen spaces, and the byte after them, in one word:
            // the indentation of nearly every line of a saved claim)
            Some(word) if indent < 15 => {
                const LINE: u128 = u128::from_le_bytes(*b"\n               ");
                let word = u128::from_le_bytes(word.try_into().expect("sixteen bytes"));
                (word ^ LINE) & ((1 << (8 * (indent + 1))) - 1) == 0
                    && !matches!(bytes[end], b' ' | b'\t' | b'\n' | b'\r')
            }
            _ => {
                bytes.get(at) == Some(&b'\n')
                    && bytes.get(at + 1..end).is_some_and(spaces)
                    && !matches!(bytes.get(end), Some(b' ' | b'\t' | b'\n' | b'\r'))
            }
        };
        if found {
            self.p.pos = end;
            return;
        }
        self.p.skip_ws();
        self.line_break(at, indent);
    }

    /// Whether the whitespace from `from` to here is a line break and `indent` spaces.
    fn line_break(&mut self, from: usize, indent: usize) {
        let ws = &self.p.bytes[from..self.p.pos];
        if ws.len() != indent + 1 || ws[0] != b'\n' || ws[1..].iter().any(|&b| b != b' ') {
            self.saved = false;
        }
    }

    /// The next byte after any whitespace (not consumed).
    pub fn peek(&mut self) -> Option<u8> {
        self.p.skip_ws();
        self.p.peek()
    }

    /// Consumes `byte` (after any whitespace) when it is next.
    pub fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.p.pos += 1;
            true
        } else {
            false
        }
    }

    /// Whether only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// Consumes `null` when it is next.
    pub fn null(&mut self) -> bool {
        if self.peek() == Some(b'n') && self.p.starts_with("null") {
            self.p.pos += 4;
            true
        } else {
            false
        }
    }

    /// An object member's key written without escapes, and the `:` after it. Declines at an
    /// escaped key. **Repeated keys are not checked**: the caller must decline on one.
    pub fn key(&mut self) -> Option<&'a str> {
        let key = self.quoted_key()?;
        self.colon().then_some(key)
    }

    /// A key written without escapes (declines at an escaped one), up to its closing quote.
    fn quoted_key(&mut self) -> Option<&'a str> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.p.pos;
        let n = plain_len(&self.p.bytes[start + 1..]);
        if self.p.bytes.get(start + 1 + n) != Some(&b'"') {
            // (an escape, a control character or no end: declined, as the general way words it)
            return None;
        }
        self.p.pos = start + n + 2;
        Some(&self.p.text[start + 1..self.p.pos - 1])
    }

    /// Whether the key `expected` (which needs no escapes) is next, up to its closing quote,
    /// which is then read as [`Scanner::quoted_key`] reads it; nothing is read otherwise.
    fn quoted_key_is(&mut self, expected: &str) -> bool {
        debug_assert_eq!(plain_len(expected.as_bytes()), expected.len());
        if self.peek() != Some(b'"') {
            return false;
        }
        let (bytes, from) = (self.p.bytes, self.p.pos + 1);
        let end = from + expected.len();
        let found =
            bytes.get(from..end) == Some(expected.as_bytes()) && bytes.get(end) == Some(&b'"');
        if found {
            self.p.pos = end + 1;
        }
        found
    }

    /// The `:` after a key (`": "` and the value, as saved).
    fn colon(&mut self) -> bool {
        let at = self.p.pos;
        if self.p.bytes.get(at..at + 2) == Some(b": ")
            && !matches!(self.p.bytes.get(at + 2), Some(b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.p.pos += 2;
            return true;
        }
        self.saved = false;
        self.eat(b':')
    }

    /// The members of the object that is next: `member` is called with each key (as
    /// [`Scanner::key`] reads it, repeats unchecked) to read its value.
    pub fn members(
        &mut self,
        mut member: impl FnMut(&mut Self, &'a str) -> Option<()>,
    ) -> Option<()> {
        self.nested(b'{', b'}', &mut |s| {
            let key = s.key()?;
            member(s, key)
        })
    }

    /// The members of the object that is next, for an object whose keys are nearly always
    /// `keys` in that order (a saved claim's): `member` is called with each key's place in
    /// `keys`. A key is first compared with the key after the previous one's place, and only
    /// when it is another found with `place_of` (a saved claim's twenty keys are then read
    /// without a search); the object is declined at a key `place_of` does not know. As with
    /// [`Scanner::members`], repeated keys are the caller's to check.
    pub fn members_of(
        &mut self,
        keys: &[&str],
        place_of: impl Fn(&str) -> Option<usize>,
        mut member: impl FnMut(&mut Self, usize) -> Option<()>,
    ) -> Option<()> {
        let mut next = 0;
        self.nested(b'{', b'}', &mut |s| {
            let expected = keys.get(next).is_some_and(|key| s.quoted_key_is(key));
            let other = if expected {
                None
            } else {
                Some(s.quoted_key()?)
            };
            if !s.colon() {
                return None;
            }
            let place = match other {
                None => next,
                Some(key) => place_of(key)?,
            };
            next = place + 1;
            member(s, place)
        })
    }

    /// The items of the array that is next, each read by `item`.
    pub fn items(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.nested(b'[', b']', &mut item)
    }

    /// An object or array between `open` and `close`, each member or item read by `inner`.
    fn nested(
        &mut self,
        open: u8,
        close: u8,
        inner: &mut dyn FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        if self.peek() != Some(open) || self.p.depth >= MAX_NESTING {
            return None;
        }
        self.p.pos += 1;
        self.p.depth += 1;
        // (as saved, each member or item on a line of its own, indented by its depth, and the
        // closing bracket on the next line, indented by the container's; `{}` and `[]` empty)
        let indent = 2 * self.p.depth;
        let done = if self.p.peek() == Some(close) {
            self.p.pos += 1;
            Some(())
        } else {
            self.line(indent);
            if self.p.peek() == Some(close) {
                // (whitespace inside an empty container)
                self.saved = false;
                self.p.pos += 1;
                Some(())
            } else {
                loop {
                    if inner(self).is_none() {
                        break None;
                    }
                    // (as saved, a comma right after the value, or the closing bracket on
                    // the next line)
                    let spaced = self.p.peek() != Some(b',');
                    if spaced {
                        self.line(indent - 2);
                    }
                    match self.p.peek() {
                        Some(b',') => {
                            if spaced {
                                self.saved = false;
                            }
                            self.p.pos += 1;
                            self.line(indent);
                        }
                        Some(c) if c == close => {
                            self.p.pos += 1;
                            break Some(());
                        }
                        _ => break None,
                    }
                }
            }
        };
        self.p.depth -= 1;
        done
    }

    /// The string that is next, decoded (borrowed from the text when it has no escapes).
    pub fn string(&mut self) -> Option<Cow<'a, str>> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.p.pos;
        let text = self.p.string_text().ok()?;
        if let Cow::Owned(decoded) = &text {
            // (escaped as saved only when written back the same)
            let mut written = String::with_capacity(self.p.pos - start);
            write_str(&mut written, decoded, false);
            if written.as_bytes() != &self.p.bytes[start..self.p.pos] {
                self.saved = false;
            }
        }
        Some(text)
    }

    /// The value that is next, as [`parse`](fn@crate::parse) reads it.
    pub fn value(&mut self) -> Option<Value> {
        self.saved = false;
        self.p.skip_ws();
        self.p.value().ok()
    }

    /// The object that is next, as [`parse`](fn@crate::parse) reads it.
    pub fn object(&mut self) -> Option<Object> {
        if self.peek() != Some(b'{') {
            return None;
        }
        match self.value()? {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The object that is next as its canonical compact text (what [`Compact::from_object`]
    /// gives for the object [`Scanner::object`] reads). Written straight from the text when it
    /// is already in the canonical order with nothing to rewrite (keys sorted and unescaped,
    /// integers and no floats: every object a saved graph holds); otherwise read as a value
    /// and written from that.
    pub fn compact(&mut self) -> Option<Compact> {
        self.compact_and(false).map(|(compact, _)| compact)
    }

    /// The object that is next, both as [`Scanner::object`] reads it and as its canonical
    /// compact text ([`Scanner::compact`]), read once when it is in canonical order.
    pub fn compact_object(&mut self) -> Option<(Compact, Object)> {
        self.compact_and(true)
            .map(|(compact, object)| match object {
                Value::Object(o) => (compact, o),
                _ => unreachable!("an object is read as an object"),
            })
    }

    /// [`Scanner::compact`], and with `build` the object too (else `null` in its place).
    fn compact_and(&mut self, build: bool) -> Option<(Compact, Value)> {
        if self.peek() != Some(b'{') {
            return None;
        }
        let start = self.p.pos;
        thread_local! {
            static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
        }
        let direct = SCRATCH.with_borrow_mut(|text| {
            text.clear();
            let written = self.canonical(text, 0, build).map(|value| {
                let compact = if text == "{}" {
                    Compact::empty()
                } else {
                    Compact::from_canonical(text)
                };
                (compact, value)
            });
            if text.capacity() > 1 << 16 {
                *text = String::new();
            }
            written
        });
        if direct.is_some() {
            return direct;
        }
        // (read again from its start the general way: the direct writing declines at floats,
        // escaped or unsorted keys, deep nesting and invalid text alike)
        self.p.pos = start;
        let object = self.object()?;
        let compact = Compact::from_object(&object);
        Some((
            compact,
            if build {
                Value::Object(object)
            } else {
                Value::Null
            },
        ))
    }

    /// Appends the canonical compact text of the value that is next, or declines (see
    /// [`Scanner::compact`]); with `build`, returns the value as the parser reads it (else
    /// `null`). `level` counts the levels below the first object.
    fn canonical(&mut self, out: &mut String, level: usize, build: bool) -> Option<Value> {
        let value = match self.peek()? {
            b'{' if level < DIRECT_DEPTH => {
                out.push('{');
                let mut last: Option<&str> = None;
                let mut entries = Vec::new();
                self.members(|s, key| {
                    // (strictly increasing, so no key repeats; byte order of UTF-8 is
                    // code-point order, the order `sort_keys` writes)
                    if last.is_some_and(|l| l >= key) {
                        return None;
                    }
                    if last.is_some() {
                        out.push_str(", ");
                    }
                    last = Some(key);
                    out.push('"');
                    out.push_str(key);
                    out.push_str("\": ");
                    let value = s.canonical(out, level + 1, build)?;
                    if build {
                        entries.push((smol_str::SmolStr::new(key), value));
                    }
                    Some(())
                })?;
                out.push('}');
                Value::Object(Object { entries })
            }
            b'[' if level < DIRECT_DEPTH => {
                out.push('[');
                let mut items = Vec::new();
                let mut first = true;
                self.items(|s| {
                    if !first {
                        out.push_str(", ");
                    }
                    first = false;
                    let value = s.canonical(out, level + 1, build)?;
                    if build {
                        items.push(value);
                    }
                    Some(())
                })?;
                out.push(']');
                Value::Array(items)
            }
            b'"' => {
                let start = self.p.pos;
                let text = self.string()?;
                match &text {
                    // (a string without escapes is written as it is)
                    Cow::Borrowed(_) => out.push_str(&self.p.text[start..self.p.pos]),
                    Cow::Owned(text) => write_str(out, text, false),
                }
                match build {
                    true => Value::String(text.into_owned()),
                    false => Value::Null,
                }
            }
            b'-' | b'0'..=b'9' => {
                let token = self.p.scan_number().ok()?;
                let literal = &self.p.text[token.start..token.end];
                // (a float is written as Python's repr of it, which the literal need not be;
                // `-0` is the integer 0)
                if token.float || literal == "-0" {
                    return None;
                }
                out.push_str(literal);
                match build {
                    true => Value::Number(Number::Int(int_of(literal)?)),
                    false => Value::Null,
                }
            }
            b't' if self.p.starts_with("true") => {
                self.p.pos += 4;
                out.push_str("true");
                Value::Bool(true)
            }
            b'f' if self.p.starts_with("false") => {
                self.p.pos += 5;
                out.push_str("false");
                Value::Bool(false)
            }
            b'n' if self.null() => {
                out.push_str("null");
                Value::Null
            }
            _ => return None,
        };
        Some(value)
    }
}

/// Whether `bytes` are all spaces, compared eight at a time (the indentation of a line deeper
/// than [`Scanner::line`] checks in one word, or near the end of a text).
fn spaces(bytes: &[u8]) -> bool {
    const EIGHT: u64 = u64::from_ne_bytes([b' '; 8]);
    let mut words = bytes.chunks_exact(8);
    words.all(|w| w.try_into().map(u64::from_ne_bytes).ok() == Some(EIGHT))
        && words.remainder().iter().all(|&b| b == b' ')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, to_string_compact};
    use proptest::prelude::*;

    /// What the general way gives for an object's text: its canonical compact text.
    fn general(text: &str) -> Option<String> {
        match parse(text) {
            Ok(Value::Object(o)) => Some(Compact::from_object(&o).text().to_string()),
            _ => None,
        }
    }

    fn compact(text: &str) -> Option<String> {
        let mut s = Scanner::new(text, 0);
        let c = s.compact()?;
        s.at_end().then(|| c.text().to_string())
    }

    #[test]
    fn compact_texts_are_the_general_ones() {
        for text in [
            "{}",
            " { } ",
            r#"{"a": 1, "b": [true, false, null, -5, 0], "c": {"d": "e"}}"#,
            r#"{"b": 1, "a": 2}"#,
            r#"{"a": 1.50, "b": 1e3, "c": -0, "d": NaN}"#,
            r#"{"a": "\u00e9\n\"", "b": "\/"}"#,
            r#"{"\u0061": 1}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": [1, 2,]}"#,
            r#"{"a": 123456789012345678901234567890}"#,
            "{\"a\":\n\t[ ]  ,\"b\" :{}}",
            r#"{"é": 1, "z": 2}"#,
            r#"{"z": 1, "é": 2}"#,
        ] {
            assert_eq!(compact(text), general(text), "{text}");
            // (and the object, read in the same pass)
            let mut s = Scanner::new(text, 0);
            let read = s
                .compact_object()
                .map(|(_, o)| to_string_compact(&Value::Object(o)));
            let parsed = parse(text).ok().map(|v| to_string_compact(&v));
            assert_eq!(read, parsed, "{text}");
        }
    }

    #[test]
    fn deep_objects_are_read_the_general_way() {
        let deep = format!("{}1{}", "{\"a\": ".repeat(100), "}".repeat(100));
        assert_eq!(compact(&deep), general(&deep));
        let too_deep = format!("{}1{}", "{\"a\": ".repeat(600), "}".repeat(600));
        assert_eq!(compact(&too_deep), None);
        assert!(general(&too_deep).is_none());
    }

    #[test]
    fn keys_members_and_strings() {
        let mut s = Scanner::new(r#" {"a" : "x\ty", "b\n": 1} "#, 0);
        let mut seen = Vec::new();
        let read = s.members(|s, key| {
            seen.push(key.to_string());
            s.string().map(|v| seen.push(v.into_owned()))
        });
        // (the escaped key declines)
        assert_eq!(read, None);
        assert_eq!(seen, ["a", "x\ty"]);
        let mut s = Scanner::new(r#"[ "a", null ,"b"]"#, 0);
        let mut got = Vec::new();
        s.items(|s| {
            if !s.null() {
                got.push(s.string()?.into_owned());
            }
            Some(())
        })
        .unwrap();
        assert!(s.at_end());
        assert_eq!(got, ["a", "b"]);
        for bad in ["[1 2]", "[,]", "[1,]", "[", "{\"a\" 1}", "\"a\u{1}\""] {
            let mut s = Scanner::new(bad, 0);
            let ok = if bad.starts_with('{') {
                s.members(|s, _| s.value().map(drop))
            } else if bad.starts_with('[') {
                s.items(|s| s.value().map(drop))
            } else {
                s.string().map(drop)
            };
            assert_eq!(ok, None, "{bad}");
        }
    }

    /// JSON texts of objects, canonical or not, valid or not.
    fn texts() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("1".to_string()),
            Just("-0".to_string()),
            Just("2.5".to_string()),
            Just("1E2".to_string()),
            Just("true".to_string()),
            Just("null".to_string()),
            Just("\"x\"".to_string()),
            Just("\"\\u00e9\\\"\"".to_string()),
            Just("\"é\"".to_string()),
            Just("-".to_string()),
            Just("\"\u{1}\"".to_string()),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(", "))),
                prop::collection::vec(
                    (
                        prop::sample::select(vec!["a", "ab", "b", "c", "\\u0062", "é"]),
                        inner
                    ),
                    0..4
                )
                .prop_map(|m| {
                    let members: Vec<String> =
                        m.iter().map(|(k, v)| format!("\"{k}\" :{v}")).collect();
                    format!("{{{}}}", members.join(" ,\n"))
                }),
            ]
        })
        .prop_map(|v| {
            if v.starts_with('{') {
                v
            } else {
                format!("{{\"k\": {v}}}")
            }
        })
    }

    /// The saved form of the object `text` holds (indent 2, keys sorted, non-ASCII raw).
    fn saved(text: &str) -> Option<String> {
        let Ok(Value::Object(o)) = parse(text) else {
            return None;
        };
        let mut out = String::new();
        crate::write_object(&mut out, &o, Some(0), crate::Style::SORTED_RAW);
        Some(out)
    }

    /// Whether the scanner finds `text` in the saved form (reading it whole with `compact`).
    fn found_saved(text: &str) -> bool {
        let mut s = Scanner::new(text, 0);
        s.compact().is_some() && s.at_end() && s.in_saved_form()
    }

    fn has_float(v: &Value) -> bool {
        match v {
            Value::Number(crate::Number::Float(_)) => true,
            Value::Array(items) => items.iter().any(has_float),
            Value::Object(o) => o.iter().any(|(_, v)| has_float(v)),
            _ => false,
        }
    }

    #[test]
    fn the_saved_form_is_told_apart() {
        assert!(found_saved("{}"));
        assert!(found_saved(
            "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": \"\\\"é\"\n}"
        ));
        for near in [
            "{ }",
            "{\"a\": 1}",
            "{\n  \"a\" : 1\n}",
            "{\n  \"a\":  1\n}",
            "{\n  \"a\": 1 \n}",
            "{\n  \"a\": 1\n }",
            "{\n   \"a\": 1\n}",
            "{\n\t\"a\": 1\n}",
            "{\n  \"a\": [ ]\n}",
            "{\n  \"a\": 1 ,\n  \"b\": 2\n}",
            "{\n  \"b\": 1,\n  \"a\": 2\n}",
            "{\n  \"a\": 1.0\n}",
            "{\n  \"a\": \"\\u00e9\"\n}",
            "{\n  \"a\": \"\\/\"\n}",
        ] {
            assert!(!found_saved(near), "{near}");
        }
        // (at depth 2, as a claim in its document)
        let mut s = Scanner::new("{\n      \"a\": [\n        1\n      ]\n    }", 2);
        assert!(s.compact().is_some() && s.in_saved_form());
    }

    /// The members of the object `text` as [`Scanner::members_of`] reads them with `KEYS`
    /// (`known`) or as [`Scanner::members`] reads them with a search of `KEYS`: what was read,
    /// the result, where the scanner stopped and whether it found the saved form.
    fn members_read(text: &str, known: bool) -> (Vec<String>, Option<()>, usize, bool) {
        const KEYS: [&str; 5] = ["a", "ab", "b", "c", "k"];
        let place_of = |key: &str| KEYS.iter().position(|k| *k == key);
        let mut read = Vec::new();
        let mut member = |s: &mut Scanner<'_>, place: usize| {
            let value = match s.peek() {
                Some(b'"') => s.string()?.into_owned(),
                Some(b'{') => s.compact()?.text().to_string(),
                _ => to_string_compact(&s.value()?),
            };
            read.push(format!("{place}: {value}"));
            Some(())
        };
        let mut s = Scanner::new(text, 0);
        let done = if known {
            s.members_of(&KEYS, place_of, member)
        } else {
            s.members(|s, key| member(s, place_of(key)?))
        };
        (read, done, s.offset(), s.in_saved_form())
    }

    #[test]
    fn members_of_known_keys_are_read_as_members_are() {
        for text in [
            "{\n  \"a\": 1,\n  \"ab\": \"x\",\n  \"b\": {},\n  \"c\": [],\n  \"k\": null\n}",
            // (out of order, repeated, skipped, and keys that start like the one expected)
            "{\n  \"c\": 1,\n  \"a\": 2,\n  \"a\": 3,\n  \"k\": 4\n}",
            r#"{"ab": 1, "abc": 2}"#,
            r#"{"a" : 1, "b":2}"#,
            r#"{"a" 1}"#,
            r#"{"\u0061": 1}"#,
            r#"{"a"#,
            r#"{"a": 1, "zz": 2}"#,
        ] {
            assert_eq!(
                members_read(text, true),
                members_read(text, false),
                "{text}"
            );
        }
    }

    #[test]
    fn indentation_is_told_apart_at_every_depth() {
        // `[`, an item on a line indented by `item` spaces, `]` on a line indented by
        // `close`, then `tail` (a short text ends before a whole word can be read).
        for depth in 0..12 {
            for (item, close) in [(2, 0), (1, 0), (3, 0), (2, 1), (0, 0)] {
                let (item, close) = (2 * depth + item, 2 * depth + close);
                for tail in ["", "                "] {
                    for (ws, sep) in [("", "\n"), ("", "\r\n"), (" ", "\n"), ("\t", "\n")] {
                        let text = format!(
                            "[{sep}{}{ws}1\n{}]{tail}",
                            " ".repeat(item),
                            " ".repeat(close)
                        );
                        let mut s = Scanner::new(&text, depth);
                        s.items(|s| s.value().map(drop)).expect("valid");
                        // (`value` vouches for nothing: read the item as a string instead)
                        let text = text.replacen('1', "\"x\"", 1);
                        let mut s = Scanner::new(&text, depth);
                        s.items(|s| s.string().map(drop)).expect("valid");
                        let saved = format!(
                            "[\n{}\"x\"\n{}]{tail}",
                            " ".repeat(2 * depth + 2),
                            " ".repeat(2 * depth)
                        );
                        let expected = text == saved;
                        assert_eq!(s.in_saved_form(), expected, "{text:?} at {depth}");
                    }
                }
            }
        }
    }

    #[test]
    fn spaces_are_found_at_every_length_and_place() {
        for n in 0..40 {
            assert!(spaces(&vec![b' '; n]), "{n}");
            for at in 0..n {
                let mut bytes = vec![b' '; n];
                bytes[at] = b'\t';
                assert!(!spaces(&bytes), "{n} {at}");
            }
        }
    }

    proptest! {
        #[test]
        fn compact_is_the_general_way_or_declines_with_it(text in texts()) {
            prop_assert_eq!(compact(&text), general(&text));
            // Read with the object too: the same text, and the object the parser reads.
            let mut s = Scanner::new(&text, 0);
            let both = s.compact_object().filter(|_| s.at_end());
            match parse(&text) {
                Ok(Value::Object(o)) => {
                    let (c, read) = both.expect("read");
                    prop_assert_eq!(Some(c.text().to_string()), general(&text));
                    prop_assert_eq!(to_string_compact(&Value::Object(read)), to_string_compact(&Value::Object(o)));
                }
                _ => prop_assert!(both.is_none()),
            }
        }

        #[test]
        fn members_of_known_keys_are_any_members(text in texts()) {
            prop_assert_eq!(members_read(&text, true), members_read(&text, false));
            if let Some(saved) = saved(&text) {
                prop_assert_eq!(members_read(&saved, true), members_read(&saved, false));
            }
        }

        #[test]
        fn only_the_saved_form_is_found_saved(text in texts()) {
            let saved_text = saved(&text);
            if found_saved(&text) {
                prop_assert_eq!(Some(&text), saved_text.as_ref());
            }
            if let (Some(saved_text), Ok(value)) = (saved_text, parse(&text))
                && !has_float(&value)
            {
                prop_assert!(found_saved(&saved_text), "{}", saved_text);
            }
        }
    }
}
