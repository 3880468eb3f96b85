//! The strict JSON reader (see the module documentation of [`crate`]).

use super::{Number, Object, Value};
use num_bigint::BigInt;
use smol_str::SmolStr;
use std::fmt;

/// Integer literals with more digits than this are refused, as Python's `int()` refuses them
/// (its default `sys.get_int_max_str_digits()`), so that both tools accept the same documents.
pub const MAX_INT_DIGITS: usize = 4300;

/// Objects and arrays nested deeper than this are refused instead of exhausting the stack.
pub const MAX_NESTING: usize = 512;

/// Why a document is not acceptable JSON, with the place (1-based line and column, 0-based
/// character offset as Python reports it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// What is wrong, without the place (`Expecting value`, `duplicate object key 'a': ...`).
    pub message: String,
    /// 1-based line of the offending character.
    pub line: usize,
    /// 1-based column (in characters) of the offending character.
    pub column: usize,
    /// 0-based offset in characters from the start of the document.
    pub offset: usize,
    /// Why it matters, shown after the place (for a repeated key).
    pub detail: Option<String>,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: line {} column {} (char {})",
            self.message, self.line, self.column, self.offset
        )?;
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        Ok(())
    }
}

impl std::error::Error for JsonError {}

/// Parses one JSON document (surrounded by optional whitespace).
///
/// Guarantees: a repeated key in any object, a control character inside a string, a lone UTF-16
/// surrogate escape, an integer of more than [`MAX_INT_DIGITS`] digits, nesting deeper than
/// [`MAX_NESTING`] and anything after the document are errors; `NaN`, `Infinity` and
/// `-Infinity` are accepted as floats; integers are exact.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    run(Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
        hook: None,
    })
}

/// Parses like [`parse`] a value that stands `depth` levels deep in a larger document (an item
/// cut out of it), so that the nesting limit counts from the document's top, as a parse of the
/// whole document counts it.
pub(crate) fn parse_at_depth(text: &str, depth: usize) -> Result<Value, JsonError> {
    run(Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth,
        hook: None,
    })
}

/// What [`parse_streaming`] hands over: the items of one array member of the top-level object.
pub type ItemHook<'h> = dyn FnMut(Value) -> Result<(), String> + 'h;

/// Parses like [`parse`], except that the items of the array stored under `key` in the
/// top-level object are passed to `on_item` one at a time, in order, as soon as each is read,
/// and are not kept (the returned document holds an empty array there). Large documents are
/// read without holding every item twice. An error returned by `on_item` stops the parse and
/// is reported at the item's position.
pub fn parse_streaming(
    text: &str,
    key: &str,
    on_item: &mut ItemHook<'_>,
) -> Result<Value, JsonError> {
    run(Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
        hook: Some((key.to_string(), on_item)),
    })
}

fn run(mut parser: Parser<'_, '_>) -> Result<Value, JsonError> {
    parser.skip_ws();
    let value = parser.value()?;
    parser.skip_ws();
    if parser.pos != parser.bytes.len() {
        return Err(parser.error_at("Extra data", parser.pos));
    }
    Ok(value)
}

pub(super) struct Parser<'a, 'h> {
    pub(super) text: &'a str,
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    pub(super) depth: usize,
    pub(super) hook: Option<(String, &'h mut ItemHook<'h>)>,
}

impl<'a> Parser<'a, '_> {
    pub(super) fn error_at(&self, message: impl Into<String>, byte_pos: usize) -> JsonError {
        let before = &self.text[..byte_pos.min(self.text.len())];
        let offset = before.chars().count();
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        JsonError {
            message: message.into(),
            line,
            column,
            offset,
            detail: None,
        }
    }

    pub(super) fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(super) fn starts_with(&self, literal: &str) -> bool {
        self.bytes[self.pos..].starts_with(literal.as_bytes())
    }

    pub(super) fn value(&mut self) -> Result<Value, JsonError> {
        match self.peek() {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'n') if self.starts_with("null") => {
                self.pos += 4;
                Ok(Value::Null)
            }
            Some(b't') if self.starts_with("true") => {
                self.pos += 4;
                Ok(Value::Bool(true))
            }
            Some(b'f') if self.starts_with("false") => {
                self.pos += 5;
                Ok(Value::Bool(false))
            }
            Some(b'N') if self.starts_with("NaN") => {
                self.pos += 3;
                Ok(Value::Number(Number::Float(f64::NAN)))
            }
            Some(b'I') if self.starts_with("Infinity") => {
                self.pos += 8;
                Ok(Value::Number(Number::Float(f64::INFINITY)))
            }
            Some(b'-') if self.starts_with("-Infinity") => {
                self.pos += 9;
                Ok(Value::Number(Number::Float(f64::NEG_INFINITY)))
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error_at("Expecting value", self.pos)),
        }
    }

    pub(super) fn nested<T>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Result<T, JsonError>,
    ) -> Result<T, JsonError> {
        if self.depth >= MAX_NESTING {
            return Err(self.error_at(
                format!("nesting deeper than {MAX_NESTING} levels"),
                self.pos,
            ));
        }
        self.depth += 1;
        let result = inner(self);
        self.depth -= 1;
        result
    }

    /// The members of an object or the items of an array, after its opening bracket: `item`
    /// is called for each, the separators and the closing bracket `close` are checked here.
    pub(super) fn members(
        &mut self,
        close: u8,
        item: &mut dyn FnMut(&mut Self) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        self.pos += 1; // the opening bracket
        self.skip_ws();
        if self.peek() == Some(close) {
            self.pos += 1;
            return Ok(());
        }
        loop {
            item(self)?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws();
                }
                Some(c) if c == close => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.error_at("Expecting ',' delimiter", self.pos)),
            }
        }
    }

    /// An object member's key and its `:`; returns where the key's literal starts (for a
    /// repeated-key error) and ends. The value follows.
    pub(super) fn key(&mut self, decoded: &mut String) -> Result<(usize, usize), JsonError> {
        if self.peek() != Some(b'"') {
            return Err(self.error_at(
                "Expecting property name enclosed in double quotes",
                self.pos,
            ));
        }
        let key_pos = self.pos;
        decoded.clear();
        self.scan_string(Some(decoded))?;
        let key_end = self.pos;
        self.colon()?;
        Ok((key_pos, key_end))
    }

    /// The `:` after a key, and the space around it.
    fn colon(&mut self) -> Result<(), JsonError> {
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.error_at("Expecting ':' delimiter", self.pos));
        }
        self.pos += 1;
        self.skip_ws();
        Ok(())
    }

    /// The error for a repeated key at `key_pos`.
    pub(super) fn repeated_key(&self, key: &str, key_pos: usize) -> JsonError {
        let mut error = self.error_at(duplicate_key_message(key), key_pos);
        error.detail =
            Some("parsers disagree about which value wins, so the content is ambiguous".into());
        error
    }

    /// An object member's key (as [`Parser::key`]), made straight from the text when it has no
    /// escapes: a key of up to 23 bytes is then held inline, with no allocation at all.
    fn object_key(&mut self) -> Result<(SmolStr, usize), JsonError> {
        let key_pos = self.pos;
        if self.peek() == Some(b'"') && !self.scan_string(None)? {
            let key = SmolStr::new(&self.text[key_pos + 1..self.pos - 1]);
            self.colon()?;
            return Ok((key, key_pos));
        }
        self.pos = key_pos;
        let mut decoded = String::new();
        self.key(&mut decoded)?;
        Ok((SmolStr::from(decoded), key_pos))
    }

    fn object(&mut self) -> Result<Value, JsonError> {
        // The members are collected in a vector of this thread's pool and copied out exactly
        // sized: one allocation per object, where a vector grown from nothing took one per
        // doubling (four for a claim's twenty keys).
        let mut entries = ENTRIES.with_borrow_mut(Vec::pop).unwrap_or_default();
        // Objects of up to 64 keys are checked for repeated keys by a scan of their keys'
        // fingerprints (no allocation; a key is compared in full only with keys of the same
        // fingerprint); a hash set is built only once an object grows large.
        let mut seen: Option<std::collections::HashSet<SmolStr>> = None;
        let mut prints = [0u64; SCANNED_KEYS];
        self.members(b'}', &mut |p| {
            let (key, key_pos) = p.object_key()?;
            let streamed = p.depth == 1
                && p.peek() == Some(b'[')
                && p.hook.as_ref().is_some_and(|(k, _)| *k == key);
            let value = if streamed {
                p.streamed_array()?
            } else {
                p.value()?
            };
            let repeated = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None => {
                    let n = entries.len();
                    let print = fingerprint(key.as_bytes());
                    let repeated = prints[..n].contains(&print)
                        && entries
                            .iter()
                            .zip(&prints)
                            .any(|((k, _), p)| *p == print && *k == key);
                    if n < SCANNED_KEYS {
                        prints[n] = print;
                    } else {
                        seen = Some(
                            entries
                                .iter()
                                .map(|(k, _)| k.clone())
                                .chain([key.clone()])
                                .collect(),
                        );
                    }
                    repeated
                }
            };
            if repeated {
                return Err(p.repeated_key(&key, key_pos));
            }
            entries.push((key, value));
            Ok(())
        })?;
        // (moved into a vector of exactly their number; the scratch keeps its room)
        let mut exact = Vec::with_capacity(entries.len());
        exact.append(&mut entries);
        let object = Object { entries: exact };
        if entries.capacity() <= POOLED_ENTRIES {
            ENTRIES.with_borrow_mut(|pool| {
                if pool.len() < POOLED_VECTORS {
                    pool.push(entries);
                }
            });
        }
        Ok(Value::Object(object))
    }

    /// An array whose items go to the hook instead of into the document.
    fn streamed_array(&mut self) -> Result<Value, JsonError> {
        self.depth += 1;
        let result = self.members(b']', &mut |p| {
            let at = p.pos;
            let item = p.value()?;
            if let Some((_, hook)) = p.hook.as_mut()
                && let Err(message) = hook(item)
            {
                return Err(p.error_at(message, at));
            }
            Ok(())
        });
        self.depth -= 1;
        result.map(|()| Value::Array(Vec::new()))
    }

    fn array(&mut self) -> Result<Value, JsonError> {
        let mut items = Vec::new();
        self.members(b']', &mut |p| {
            items.push(p.value()?);
            Ok(())
        })?;
        Ok(Value::Array(items))
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.bytes.get(at..at + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(text, 16).ok()
    }

    fn string(&mut self) -> Result<String, JsonError> {
        // Most strings hold no escape: their text is copied once, into a string of its size.
        self.string_text().map(std::borrow::Cow::into_owned)
    }

    /// Reads a string literal: its text, borrowed from the document when it holds no escape.
    pub(super) fn string_text(&mut self) -> Result<std::borrow::Cow<'a, str>, JsonError> {
        let from = self.pos + 1;
        let n = plain_len(&self.bytes[from..]);
        if self.bytes.get(from + n) == Some(&b'"') {
            self.pos = from + n + 1;
            return Ok(std::borrow::Cow::Borrowed(&self.text[from..from + n]));
        }
        let mut out = String::new();
        self.scan_string(Some(&mut out))?;
        Ok(std::borrow::Cow::Owned(out))
    }

    /// Reads a string literal (escapes and control characters checked); its text is appended
    /// to `out` when given. Returns whether it held an escape.
    pub(super) fn scan_string(&mut self, mut out: Option<&mut String>) -> Result<bool, JsonError> {
        let start = self.pos;
        self.pos += 1; // opening quote
        let mut escaped = false;
        // Python reads a lone surrogate, which no Rust string can hold: it is refused, but at
        // the closing quote, so that an error Python finds further on in the same string
        // (`"\ud800\u12"`) is reported as Python words and places it.
        let mut lone_surrogate: Option<JsonError> = None;
        loop {
            let run_start = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            if let Some(out) = out.as_deref_mut() {
                out.push_str(&self.text[run_start..self.pos]);
            }
            match self.peek() {
                None => {
                    return Err(self.error_at("Unterminated string starting at", start));
                }
                Some(b'"') => {
                    self.pos += 1;
                    return match lone_surrogate {
                        Some(error) => Err(error),
                        None => Ok(escaped),
                    };
                }
                Some(b'\\') => {
                    escaped = true;
                    let escape_pos = self.pos;
                    let Some(kind) = self.bytes.get(self.pos + 1).copied() else {
                        return Err(self.error_at("Unterminated string starting at", start));
                    };
                    self.pos += 2;
                    let simple = match kind {
                        b'"' => Some('"'),
                        b'\\' => Some('\\'),
                        b'/' => Some('/'),
                        b'b' => Some('\u{8}'),
                        b'f' => Some('\u{c}'),
                        b'n' => Some('\n'),
                        b'r' => Some('\r'),
                        b't' => Some('\t'),
                        b'u' => None,
                        _ => return Err(self.error_at("Invalid \\escape", escape_pos)),
                    };
                    if let Some(c) = simple {
                        if let Some(out) = out.as_deref_mut() {
                            out.push(c);
                        }
                        continue;
                    }
                    // Python wants a character after the four digits, anywhere in the
                    // document: `"\u0041` at its very end is an invalid escape, not an
                    // unterminated string. (The error is placed at the `u`, as Python places it.)
                    let Some(first) = self
                        .hex4(self.pos)
                        .filter(|_| self.pos + 4 < self.bytes.len())
                    else {
                        return Err(self.error_at("Invalid \\uXXXX escape", escape_pos + 1));
                    };
                    self.pos += 4;
                    // A high surrogate followed by `\u` and six more characters takes the next
                    // four as its partner, which must be hex digits even when they are no low
                    // surrogate (Python's rule: `"\ud800\u12GG"` is an invalid escape at the
                    // second `u`).
                    let mut code = first;
                    if (0xD800..0xDC00).contains(&first)
                        && self.pos + 6 < self.bytes.len()
                        && self.bytes.get(self.pos..self.pos + 2) == Some(b"\\u")
                    {
                        let Some(second) = self.hex4(self.pos + 2) else {
                            return Err(self.error_at("Invalid \\uXXXX escape", self.pos + 1));
                        };
                        if (0xDC00..0xE000).contains(&second) {
                            self.pos += 6;
                            code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                        }
                    }
                    match char::from_u32(code) {
                        Some(c) => {
                            if let Some(out) = out.as_deref_mut() {
                                out.push(c);
                            }
                        }
                        None => {
                            lone_surrogate.get_or_insert_with(|| {
                                self.error_at(
                                    format!(
                                        "lone surrogate \\u{code:04x} cannot be represented as text"
                                    ),
                                    escape_pos,
                                )
                            });
                        }
                    }
                }
                Some(_) => {
                    return Err(self.error_at("Invalid control character at", self.pos));
                }
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let token = self.scan_number()?;
        let literal = &self.text[token.start..token.end];
        if token.float {
            let value: f64 = literal
                .parse()
                .map_err(|_| self.error_at("Expecting value", token.start))?;
            return Ok(Value::Number(Number::Float(value)));
        }
        let value = int_of(literal).ok_or_else(|| self.error_at("Expecting value", token.start))?;
        Ok(Value::Number(Number::Int(value)))
    }

    /// Reads a number literal in Python's grammar (`-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`),
    /// refusing an integer of more than [`MAX_INT_DIGITS`] digits.
    pub(super) fn scan_number(&mut self) -> Result<NumberToken, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error_at("Expecting value", start)),
        }
        let int_end = self.pos;
        let mut float = false;
        if self.peek() == Some(b'.') && self.bytes.get(self.pos + 1).is_some_and(u8::is_ascii_digit)
        {
            self.pos += 1;
            self.digits();
            float = true;
        }
        if let Some(b'e' | b'E') = self.peek() {
            let save = self.pos;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                self.pos = save;
            } else {
                float = true;
            }
        }
        if !float {
            let digit_count = int_end - start - usize::from(self.bytes[start] == b'-');
            if digit_count > MAX_INT_DIGITS {
                return Err(self.error_at(
                    format!(
                        "Exceeds the limit ({MAX_INT_DIGITS} digits) for integer string conversion: \
                         value has {digit_count} digits"
                    ),
                    start,
                ));
            }
        }
        Ok(NumberToken {
            start,
            end: self.pos,
            float,
        })
    }
}

/// How many bytes at the start of `bytes` a string literal holds as they are: up to the first
/// `"`, `\\` or control character (or all of them). Tested sixteen bytes at a time, which the
/// compiler turns into vector instructions (a byte at a time was a tenth of reading a claim).
pub(super) fn plain_len(bytes: &[u8]) -> usize {
    let special = |b: u8| (b == b'"') | (b == b'\\') | (b < 0x20);
    let mut blocks = bytes.chunks_exact(16);
    let mut at = 0;
    for block in &mut blocks {
        if block.iter().fold(false, |any, &b| any | special(b)) {
            break;
        }
        at += 16;
    }
    at + bytes[at..]
        .iter()
        .position(|&b| special(b))
        .unwrap_or(bytes.len() - at)
}

/// The integer an integer literal (as [`Parser::scan_number`] reads it) writes.
pub(super) fn int_of(literal: &str) -> Option<BigInt> {
    // (an integer of up to 18 digits fits an i64, whose parsing needs no allocation)
    if literal.len() <= 18
        && let Ok(small) = literal.parse::<i64>()
    {
        return Some(BigInt::from(small));
    }
    literal.parse().ok()
}

/// A number literal's place in the text.
pub(super) struct NumberToken {
    pub start: usize,
    pub end: usize,
    /// Written with a fraction or an exponent.
    pub float: bool,
}

fn duplicate_key_message(key: &str) -> String {
    let shown: String = if key.chars().count() <= 60 {
        key.to_string()
    } else {
        format!("{}...", key.chars().take(60).collect::<String>())
    };
    format!("duplicate object key {}", crate::pyfmt::str_repr(&shown))
}

thread_local! {
    /// The scratch vectors [`Parser::object`] collects members in, one per level of nesting in
    /// use (kept for the next objects this thread reads).
    static ENTRIES: std::cell::RefCell<Vec<Vec<(SmolStr, Value)>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Scratch vectors kept per thread, and the most members each may keep room for (a rare large
/// object does not stay with the thread).
const POOLED_VECTORS: usize = 64;
const POOLED_ENTRIES: usize = 1024;

/// Keys of an object checked for repeats by scanning fingerprints ([`fingerprint`]); a larger
/// object gets a hash set.
const SCANNED_KEYS: usize = 64;

/// A key's fingerprint for the repeated-key scan: its length and its first and last eight
/// bytes mixed. Equal keys have equal fingerprints; unequal ones rarely do, and are then told
/// apart by comparing them in full.
fn fingerprint(key: &[u8]) -> u64 {
    let word = |bytes: &[u8]| {
        let mut w = [0u8; 8];
        w[..bytes.len()].copy_from_slice(bytes);
        u64::from_le_bytes(w)
    };
    let n = key.len();
    let head = word(&key[..n.min(8)]);
    let tail = word(&key[n.saturating_sub(8)..]);
    head ^ tail.rotate_left(29) ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: &Value) -> BigInt {
        match v {
            Value::Number(Number::Int(i)) => i.clone(),
            other => panic!("not an int: {other:?}"),
        }
    }

    #[test]
    fn plain_runs_end_at_the_first_special_byte() {
        for len in 0..40 {
            for at in 0..=len {
                for special in [b'"', b'\\', 0x1f, 0] {
                    let mut bytes = vec![b'a'; len];
                    if at < len {
                        bytes[at] = special;
                    }
                    // (and another after it, which must not be the one found)
                    bytes.push(b'"');
                    let expected = if at < len { at } else { len };
                    assert_eq!(plain_len(&bytes), expected, "{len} {at} {special}");
                }
            }
        }
        assert_eq!(plain_len(b""), 0);
        assert_eq!(plain_len("é\u{7f}x".as_bytes()), 4);
    }

    #[test]
    fn duplicate_keys_are_refused_at_any_depth() {
        let err = parse(r#"{"a": {"b": 1, "b": 2}}"#).unwrap_err();
        assert_eq!(err.message, "duplicate object key 'b'");
        assert!(
            err.to_string().ends_with(
                ": parsers disagree about which value wins, so the content is ambiguous"
            )
        );
        assert_eq!((err.line, err.column), (1, 16));
        assert!(parse(r#"[{"x": 1}, {"x": 2}]"#).is_ok());
    }

    proptest::proptest! {
        /// An object is refused exactly when a key repeats (decoded: `"a"` and `"\u0061"` are
        /// the same key), at the first repeat, whatever the number of keys (the fingerprint
        /// scan below 64 keys, the hash set above) and however alike the keys are.
        #[test]
        fn a_key_is_refused_exactly_when_it_repeats(
            keys in proptest::collection::vec(
                ("(abcdefgh|abcdefghi)?[ab]{0,3}(stuvwxyz)?(0123456789)?", proptest::bool::ANY),
                0..140,
            ),
        ) {
            let literal = |(key, escaped): &(String, bool)| match key.strip_prefix('a') {
                Some(rest) if *escaped => format!("\"\\u0061{rest}\""),
                _ => format!("\"{key}\""),
            };
            let text = format!(
                "{{{}}}",
                keys.iter()
                    .enumerate()
                    .map(|(i, k)| format!("{}: {i}", literal(k)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let mut seen = std::collections::HashSet::new();
            let first_repeat = keys.iter().find(|(k, _)| !seen.insert(k.clone()));
            match (parse(&text), first_repeat) {
                (Ok(Value::Object(o)), None) => proptest::prop_assert_eq!(o.len(), keys.len()),
                (Err(e), Some((key, _))) => {
                    proptest::prop_assert_eq!(e.message, duplicate_key_message(key))
                }
                (got, expected) => proptest::prop_assert!(
                    false,
                    "{text}: parsed {got:?}, repeated key {expected:?}"
                ),
            }
        }
    }

    #[test]
    fn integers_stay_exact_at_any_size() {
        let big = "123456789012345678901234567890123456789";
        let v = parse(big).unwrap();
        assert_eq!(int(&v).to_string(), big);
        assert_eq!(
            int(&parse("9007199254740993").unwrap()).to_string(),
            "9007199254740993"
        );
        assert!(matches!(parse("1.0").unwrap(), Value::Number(Number::Float(f)) if f == 1.0));
        assert!(matches!(parse("1e2").unwrap(), Value::Number(Number::Float(f)) if f == 100.0));
    }

    #[test]
    fn python_literals_for_non_finite_numbers() {
        assert!(matches!(parse("NaN").unwrap(), Value::Number(Number::Float(f)) if f.is_nan()));
        assert!(matches!(parse("[Infinity, -Infinity]").unwrap(), Value::Array(a) if a.len() == 2));
        assert!(
            matches!(parse("1e400").unwrap(), Value::Number(Number::Float(f)) if f.is_infinite())
        );
    }

    #[test]
    fn python_int_digit_limit() {
        assert!(parse(&"9".repeat(MAX_INT_DIGITS)).is_ok());
        let err = parse(&"9".repeat(MAX_INT_DIGITS + 1)).unwrap_err();
        assert!(err.message.contains("4301 digits"));
    }

    #[test]
    fn syntax_errors_are_located() {
        let err = parse("{\n  \"a\": }").unwrap_err();
        assert_eq!(err.to_string(), "Expecting value: line 2 column 8 (char 9)");
        assert_eq!(
            parse("").unwrap_err().to_string(),
            "Expecting value: line 1 column 1 (char 0)"
        );
        assert_eq!(parse("1 2").unwrap_err().message, "Extra data");
        assert_eq!(parse("\u{feff}{}").unwrap_err().message, "Expecting value");
        assert_eq!(
            parse("\"a\u{1}\"").unwrap_err().message,
            "Invalid control character at"
        );
        assert_eq!(parse("01").unwrap_err().message, "Extra data");
        assert!(parse("[1,]").is_err());
        assert!(parse("{\"a\":1,}").is_err());
    }

    #[test]
    fn keys_are_read_and_refused_as_python_reads_them() {
        // (the messages and places Python 3.11's json.loads gives)
        for (text, error) in [
            (
                "{\"a\" 1}",
                "Expecting ':' delimiter: line 1 column 6 (char 5)",
            ),
            (
                "{\"a\u{1}\": 1}",
                "Invalid control character at: line 1 column 4 (char 3)",
            ),
            (
                "{\"a\\u00\": 1}",
                "Invalid \\uXXXX escape: line 1 column 5 (char 4)",
            ),
            (
                "{1: 2}",
                "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
            ),
            (
                "{\"a",
                "Unterminated string starting at: line 1 column 2 (char 1)",
            ),
            (
                "{\"a\\q\": 1}",
                "Invalid \\escape: line 1 column 4 (char 3)",
            ),
            (
                "[\"\\u12G4\"]",
                "Invalid \\uXXXX escape: line 1 column 4 (char 3)",
            ),
        ] {
            assert_eq!(parse(text).unwrap_err().to_string(), error, "{text}");
        }
        // Escaped and long keys (held on the heap) read as Python reads them.
        let Value::Object(o) =
            parse("{\"\\u0061bcdefghijklmnopqrstuvwxyz\": 1, \"x\" : 2 ,\"y\"\n:3}").unwrap()
        else {
            panic!("not an object")
        };
        let keys: Vec<&str> = o.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["abcdefghijklmnopqrstuvwxyz", "x", "y"]);
    }

    #[test]
    fn escapes_and_surrogate_pairs() {
        let v = parse(r#""\u00e9\ud83d\ude00\n\/""#).unwrap();
        assert_eq!(v, Value::String("é😀\n/".into()));
        assert!(
            parse(r#""\ud800""#)
                .unwrap_err()
                .message
                .contains("lone surrogate")
        );
    }

    #[test]
    fn unicode_escapes_are_refused_as_python_refuses_them() {
        // Python 3.11's json.loads, text and message for text and message.
        for (text, error) in [
            (
                r#""\ud800\u12""#,
                "Invalid \\uXXXX escape: line 1 column 9 (char 8)",
            ),
            (
                r#""\ud800\u12GG""#,
                "Invalid \\uXXXX escape: line 1 column 9 (char 8)",
            ),
            (
                r#""\ud800\u"#,
                "Invalid \\uXXXX escape: line 1 column 9 (char 8)",
            ),
            (
                r#"["\ud800\u12"]"#,
                "Invalid \\uXXXX escape: line 1 column 10 (char 9)",
            ),
            (
                r#""\ud800\q""#,
                "Invalid \\escape: line 1 column 8 (char 7)",
            ),
            (
                r#""\udc00\u12""#,
                "Invalid \\uXXXX escape: line 1 column 9 (char 8)",
            ),
            (
                r#""\udc00\u0000\u0001"#,
                "Invalid \\uXXXX escape: line 1 column 15 (char 14)",
            ),
            (
                r#""\udc00x\u0001"#,
                "Invalid \\uXXXX escape: line 1 column 10 (char 9)",
            ),
            (
                r#""\ud800\"#,
                "Unterminated string starting at: line 1 column 1 (char 0)",
            ),
            // Four digits at the very end of the document.
            (
                r#""\ud800"#,
                "Invalid \\uXXXX escape: line 1 column 3 (char 2)",
            ),
            (
                r#"["\u0041"#,
                "Invalid \\uXXXX escape: line 1 column 4 (char 3)",
            ),
            (
                r#""\ud800\udc00"#,
                "Invalid \\uXXXX escape: line 1 column 9 (char 8)",
            ),
            (
                r#"["é\u0041"#,
                "Invalid \\uXXXX escape: line 1 column 5 (char 4)",
            ),
            (
                r#"["\u0041]"#,
                "Unterminated string starting at: line 1 column 2 (char 1)",
            ),
        ] {
            assert_eq!(parse(text).unwrap_err().to_string(), error, "{text}");
        }
        // What Python reads and no Rust string can hold is refused at the first lone surrogate
        // once its string has been read without an error of Python's.
        for (text, at) in [
            (r#""\ud800\u12345""#, 1),
            (r#""a\udc00\ud800""#, 2),
            (r#""\ud800\u0041""#, 1),
            (r#"["\udc00", 1 2]"#, 2),
        ] {
            let error = parse(text).unwrap_err();
            assert!(error.message.contains("lone surrogate"), "{text}: {error}");
            assert_eq!(
                error.to_string().rsplit_once("(char ").unwrap().1,
                format!("{at})")
            );
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).unwrap_err().message.contains("nesting deeper"));
    }
}
