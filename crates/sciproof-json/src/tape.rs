//! A parsed JSON document in little memory: the text itself, and one 12-byte entry per array
//! or object (where it closes, how many values it holds, where its subtree ends) in document
//! order. Scalars are not stored apart from the text: a value's kind and content are read from
//! the text when asked for (the parse has checked the whole text, so finding a literal's end
//! is a scan for its closing quote or the end of its number), and a walk steps over a
//! container in one jump. The same strict reader decides what is accepted ([`super::parse`](fn@super::parse)'s rules and
//! messages: repeated keys refused, exact integers, Python's literals, the nesting limit);
//! only what is kept differs. A numeric JSON output of 100 MB (an array of small records)
//! takes about 1.1 times its size this way; an 8-byte node per value took 2.2 times, and a
//! [`super::Value`] tree about 27 times.

use super::parse::{JsonError, Parser};
use super::{Number, Value};
use num_bigint::BigInt;
use std::borrow::Cow;
use std::hash::BuildHasher;

/// An array or an object: the offset of its closing bracket, the number of its items or
/// members, and the number of the first container after its whole subtree (containers are
/// numbered in the order their opening brackets appear).
#[derive(Debug, Clone, Copy)]
struct Container {
    close: u32,
    count: u32,
    after: u32,
}

/// The largest document a tape holds: 256 MiB, the limit of JSON numeric outputs (its offsets
/// and counts are kept in 32 bits).
pub const MAX_TEXT: usize = 1 << 28;

/// A parsed document (see the module documentation).
pub struct Tape {
    text: String,
    containers: Vec<Container>,
    /// How many values the document holds (object keys not counted).
    values: u64,
}

/// A value of a [`Tape`]: its literal (a container's from its opening to its closing bracket)
/// and, for a container, its number.
#[derive(Clone, Copy)]
pub struct Item<'t> {
    tape: &'t Tape,
    start: u32,
    end: u32,
    container: u32,
}

/// What a value is, with its content for scalars.
pub enum Kind<'t> {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// The literal, exact.
    Int(&'t str),
    /// A float.
    Float(f64),
    /// A string.
    Str(Cow<'t, str>),
    /// An array.
    Array,
    /// An object.
    Object,
}

impl Tape {
    /// Parses `text` (with the rules and messages of [`super::parse`](fn@super::parse)). Documents of up to
    /// [`MAX_TEXT`] are read.
    pub fn parse(text: String) -> Result<Tape, JsonError> {
        if text.len() > MAX_TEXT {
            return Err(JsonError {
                message: "document larger than 256 MiB".into(),
                line: 1,
                column: 1,
                offset: 0,
                detail: None,
            });
        }
        // Every container opens with a `[` or `{` (some of them may be inside strings):
        // counting those bounds the number of entries, so they are allocated once (growing the
        // list would copy it, and hold both copies at the peak).
        let bound = memchr::memchr2_iter(b'[', b'{', text.as_bytes()).count();
        let mut built = Built {
            containers: Vec::with_capacity(bound),
            values: 0,
        };
        {
            let mut parser = scanner(&text, 0);
            parser.skip_ws();
            value(&mut parser, &mut built)?;
            parser.skip_ws();
            if parser.pos != parser.bytes.len() {
                return Err(parser.error_at("Extra data", parser.pos));
            }
        }
        built.containers.shrink_to_fit();
        Ok(Tape {
            text,
            containers: built.containers,
            values: built.values,
        })
    }

    /// The top-level value.
    pub fn root(&self) -> Item<'_> {
        let start = skip_ws(self.text.as_bytes(), 0);
        Item::at(self, start, 0)
    }

    /// How many values the document holds (object keys not counted).
    pub fn values(&self) -> u64 {
        self.values
    }
}

/// A reader over `text` at `pos`, for its scanners.
fn scanner(text: &str, pos: usize) -> Parser<'_, '_> {
    Parser {
        text,
        bytes: text.as_bytes(),
        pos,
        depth: 0,
        hook: None,
    }
}

/// The offset of the first byte at or after `pos` that is not JSON white space.
fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

/// What a parse keeps.
struct Built {
    containers: Vec<Container>,
    values: u64,
}

fn value(p: &mut Parser<'_, '_>, built: &mut Built) -> Result<(), JsonError> {
    built.values += 1;
    match p.peek() {
        Some(b'{') => p.nested(|p| container(p, built, b'}')),
        Some(b'[') => p.nested(|p| container(p, built, b']')),
        Some(b'"') => p.scan_string(None).map(|_| ()),
        Some(b'-' | b'0'..=b'9') if !p.starts_with("-Infinity") => p.scan_number().map(|_| ()),
        _ => match literal(&p.bytes[p.pos..]) {
            Some(len) => {
                p.pos += len;
                Ok(())
            }
            None => Err(p.error_at("Expecting value", p.pos)),
        },
    }
}

/// The length of the word literal `bytes` starts with, if it does.
fn literal(bytes: &[u8]) -> Option<usize> {
    ["null", "true", "false", "NaN", "Infinity", "-Infinity"]
        .iter()
        .find(|word| bytes.starts_with(word.as_bytes()))
        .map(|word| word.len())
}

/// An array (`close` is `]`) or an object (`}`), from its opening bracket.
fn container(p: &mut Parser<'_, '_>, built: &mut Built, close: u8) -> Result<(), JsonError> {
    let at = built.containers.len();
    built.containers.push(Container {
        close: 0,
        count: 0,
        after: 0,
    });
    let count = if close == b']' {
        let mut count = 0u32;
        p.members(b']', &mut |p| {
            count += 1;
            value(p, built)
        })?;
        count
    } else {
        members(p, built)?
    };
    built.containers[at] = Container {
        close: (p.pos - 1) as u32,
        count,
        after: built.containers.len() as u32,
    };
    Ok(())
}

/// An object's members; returns how many there are.
fn members(p: &mut Parser<'_, '_>, built: &mut Built) -> Result<u32, JsonError> {
    let mut count = 0u32;
    let mut key = String::new();
    let mut seen = SeenKeys {
        text: p.text,
        places: Vec::new(),
        escaped: Vec::new(),
        table: None,
    };
    p.members(b'}', &mut |p| {
        let (key_pos, key_end) = p.key(&mut key)?;
        count += 1;
        // The value is read before the key is checked, as the tree reader does, so that both
        // report the same first error.
        value(p, built)?;
        if seen.repeated(key_pos + 1..key_end - 1, &key) {
            return Err(p.repeated_key(&key, key_pos));
        }
        Ok(())
    })?;
    Ok(count)
}

/// The keys of one object read so far, to refuse a repeated one. Each is kept as its place in
/// the text (or, holding an escape, decoded apart): 8 bytes a key, and 5 more in the table
/// that finds them once the object has more than 64 keys (a list is searched before), so that
/// an object of a million keys is checked in about 20 MB, not 80 MB of borrowed strings in a
/// set. The hash is a fast one: keys are not attacker-chosen hash-flooding input here (the
/// table lives for one object of a bounded document).
struct SeenKeys<'a> {
    text: &'a str,
    /// Offset and length of each key's content, or (length [`ESCAPED`]) its number in
    /// `escaped`.
    places: Vec<(u32, u32)>,
    escaped: Vec<String>,
    /// Numbers in `places`, by the hash of the key.
    table: Option<hashbrown::HashTable<u32>>,
}

/// The key at `place` (see [`SeenKeys::places`]).
fn seen_key<'k>(text: &'k str, escaped: &'k [String], place: (u32, u32)) -> &'k str {
    match place {
        (i, ESCAPED) => &escaped[i as usize],
        (at, len) => &text[at as usize..(at + len) as usize],
    }
}

impl SeenKeys<'_> {
    /// Whether the key whose content is written at `literal` and reads `key` was seen before;
    /// records it if not.
    fn repeated(&mut self, literal: std::ops::Range<usize>, key: &str) -> bool {
        let SeenKeys {
            text,
            places,
            escaped,
            table,
        } = self;
        let text: &str = text;
        let hash = |key: &str| rustc_hash::FxBuildHasher.hash_one(key);
        let found = match table {
            Some(t) => t
                .find(hash(key), |&i| {
                    seen_key(text, escaped, places[i as usize]) == key
                })
                .is_some(),
            None => places
                .iter()
                .any(|&place| seen_key(text, escaped, place) == key),
        };
        if found {
            return true;
        }
        let place = if text[literal.clone()].contains('\\') {
            escaped.push(key.to_string());
            (escaped.len() as u32 - 1, ESCAPED)
        } else {
            (literal.start as u32, literal.len() as u32)
        };
        places.push(place);
        let number = places.len() as u32 - 1;
        let rehash = |&i: &u32| hash(seen_key(text, escaped, places[i as usize]));
        match table {
            Some(t) => {
                t.insert_unique(hash(key), number, rehash);
            }
            None if places.len() > 64 => {
                let mut t = hashbrown::HashTable::with_capacity(places.len() * 2);
                for i in 0..places.len() as u32 {
                    t.insert_unique(rehash(&i), i, rehash);
                }
                *table = Some(t);
            }
            None => {}
        }
        false
    }
}

/// The items of a container, read from the text (which the parse has checked) one after the
/// other: white space and separators are stepped over, a scalar is scanned to its end, and a
/// container is jumped over with its entry.
struct Cursor<'t> {
    tape: &'t Tape,
    pos: usize,
    /// The number of the next container in the text.
    next: u32,
    left: u32,
}

impl<'t> Cursor<'t> {
    /// The items (or members) of `item`; none unless it is a container of kind `open`.
    fn of(item: &Item<'t>, open: u8) -> Cursor<'t> {
        let is = item.tape.text.as_bytes()[item.start as usize] == open;
        Cursor {
            tape: item.tape,
            pos: item.start as usize + 1,
            next: item.container + 1,
            left: if is { item.len() as u32 } else { 0 },
        }
    }

    /// The next value (after the separators before it).
    fn value(&mut self) -> Item<'t> {
        let bytes = self.tape.text.as_bytes();
        let start = skip_ws(bytes, self.pos);
        let item = Item::at(self.tape, start, self.next);
        if item.is_container() {
            self.next = self.tape.containers[item.container as usize].after;
        }
        self.pos = skip_ws(bytes, item.end as usize);
        if bytes.get(self.pos) == Some(&b',') {
            self.pos += 1;
        }
        item
    }

    /// The next key (after the separators before it) and the `:` after it.
    fn key(&mut self) -> Cow<'t, str> {
        let range = self.key_content();
        string_content(&self.tape.text[range])
    }

    /// Where the next key's content is written (after the separators before it); steps over
    /// the `:` after it.
    fn key_content(&mut self) -> std::ops::Range<usize> {
        let bytes = self.tape.text.as_bytes();
        let start = skip_ws(bytes, self.pos);
        let end = string_end(&self.tape.text, start);
        self.pos = skip_ws(bytes, end) + 1;
        start + 1..end - 1
    }
}

/// The end of the string literal at `start` (after its closing quote). The parse has checked
/// the literal, so only its closing quote is looked for, stepping over escapes.
fn string_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = start + 1;
    while let Some(found) = memchr::memchr2(b'"', b'\\', &bytes[at..]) {
        at += found;
        if bytes[at] == b'"' {
            return at + 1;
        }
        at += 2;
    }
    bytes.len()
}

/// The end of the number literal at `start` (checked by the parse, so followed by white
/// space, a separator, a closing bracket or the end).
fn number_end(bytes: &[u8], start: usize) -> usize {
    let mut at = start;
    while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = bytes.get(at) {
        at += 1;
    }
    at
}

/// The text of a string literal's content (checked by the parse).
fn string_content(content: &str) -> Cow<'_, str> {
    if content.contains('\\') {
        Cow::Owned(unescape(content))
    } else {
        Cow::Borrowed(content)
    }
}

impl<'t> Item<'t> {
    /// The value whose literal starts at `start`; `next` is the number of the first container
    /// at or after it.
    fn at(tape: &'t Tape, start: usize, next: u32) -> Item<'t> {
        let text = &tape.text;
        let end = match text.as_bytes().get(start) {
            Some(b'{' | b'[') => tape.containers[next as usize].close as usize + 1,
            Some(b'"') => string_end(text, start),
            Some(b'-' | b'0'..=b'9') if !text[start..].starts_with("-Infinity") => {
                number_end(text.as_bytes(), start)
            }
            _ => start + literal(&text.as_bytes()[start..]).unwrap_or(0),
        };
        Item {
            tape,
            start: start as u32,
            end: end as u32,
            container: next,
        }
    }

    fn text(&self) -> &'t str {
        &self.tape.text[self.start as usize..self.end as usize]
    }

    fn is_container(&self) -> bool {
        matches!(self.text().as_bytes().first(), Some(b'{' | b'['))
    }

    /// What this value is.
    pub fn kind(&self) -> Kind<'t> {
        let text = self.text();
        match text.as_bytes().first() {
            Some(b'{') => Kind::Object,
            Some(b'[') => Kind::Array,
            Some(b'"') => Kind::Str(string_content(&text[1..text.len() - 1])),
            Some(b'n') => Kind::Null,
            Some(b't') => Kind::Bool(true),
            Some(b'f') => Kind::Bool(false),
            Some(b'N') => Kind::Float(f64::NAN),
            Some(b'I') => Kind::Float(f64::INFINITY),
            _ if text == "-Infinity" => Kind::Float(f64::NEG_INFINITY),
            // A number: a float when written with a fraction or an exponent (the parse has
            // checked that each is complete).
            _ if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => {
                Kind::Float(text.parse().unwrap_or(f64::NAN))
            }
            _ => Kind::Int(text),
        }
    }

    /// The number of items of an array or members of an object (0 for a scalar).
    pub fn len(&self) -> usize {
        if self.is_container() {
            self.tape.containers[self.container as usize].count as usize
        } else {
            0
        }
    }

    /// Whether [`Item::len`] is 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items of an array (nothing for anything else).
    pub fn items(&self) -> impl Iterator<Item = Item<'t>> + 't {
        let mut cursor = Cursor::of(self, b'[');
        (0..cursor.left).map(move |_| cursor.value())
    }

    /// The members of an object as `(key, value)`, in document order (nothing for anything
    /// else).
    pub fn members(&self) -> impl Iterator<Item = (Cow<'t, str>, Item<'t>)> + 't {
        let mut cursor = Cursor::of(self, b'{');
        (0..cursor.left).map(move |_| {
            let key = cursor.key();
            (key, cursor.value())
        })
    }

    /// The members of an object sorted by key (code points, as Python sorts strings); none
    /// for anything else. Each member takes 20 bytes, so that the members of an object of a
    /// million keys can be put in order beside the document.
    pub fn sorted_members(&self) -> Sorted<'t> {
        let mut sorted = Sorted {
            tape: self.tape,
            members: Vec::with_capacity(if self.is_object() { self.len() } else { 0 }),
            escaped: Vec::new(),
        };
        let mut cursor = Cursor::of(self, b'{');
        for _ in 0..cursor.left {
            let range = cursor.key_content();
            let content = &self.tape.text[range.clone()];
            let (key, key_len) = if content.contains('\\') {
                sorted.escaped.push(unescape(content));
                (sorted.escaped.len() as u32 - 1, ESCAPED)
            } else {
                (range.start as u32, range.len() as u32)
            };
            let value = cursor.value();
            sorted.members.push(Member {
                key,
                key_len,
                start: value.start,
                end: value.end,
                container: value.container,
            });
        }
        let mut members = std::mem::take(&mut sorted.members);
        members.sort_unstable_by(|a, b| sorted.key_of(a).cmp(sorted.key_of(b)));
        sorted.members = members;
        sorted
    }

    fn is_object(&self) -> bool {
        self.tape.text.as_bytes()[self.start as usize] == b'{'
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<Item<'t>> {
        self.members().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The item `index` of an array.
    pub fn index(&self, index: usize) -> Option<Item<'t>> {
        self.items().nth(index)
    }

    /// The value as a [`Value`] tree (for small parts of a document).
    pub fn to_value(&self) -> Value {
        match self.kind() {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(b),
            Kind::Int(t) => Value::Number(Number::Int(t.parse::<BigInt>().unwrap_or_default())),
            Kind::Float(f) => Value::Number(Number::Float(f)),
            Kind::Str(s) => Value::String(s.into_owned()),
            Kind::Array => Value::Array(self.items().map(|i| i.to_value()).collect()),
            Kind::Object => {
                let mut o = super::Object::with_capacity(self.len());
                for (k, v) in self.members() {
                    o.push_unchecked(&k, v.to_value());
                }
                Value::Object(o)
            }
        }
    }
}

/// An object's members in the order of their keys (see [`Item::sorted_members`]).
pub struct Sorted<'t> {
    tape: &'t Tape,
    members: Vec<Member>,
    /// The keys that hold escapes, decoded.
    escaped: Vec<String>,
}

/// A member: its key's content in the text (offset and length; a length of [`ESCAPED`] makes
/// the offset the number of the decoded key in [`Sorted::escaped`]), and its value as an
/// [`Item`] without the tape.
#[derive(Clone, Copy)]
struct Member {
    key: u32,
    key_len: u32,
    start: u32,
    end: u32,
    container: u32,
}

/// The key length of a member whose key holds an escape.
const ESCAPED: u32 = u32::MAX;

impl<'t> Sorted<'t> {
    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The key of the member at `index` (in key order).
    pub fn key(&self, index: usize) -> &str {
        self.key_of(&self.members[index])
    }

    /// The value of the member at `index` (in key order).
    pub fn value(&self, index: usize) -> Item<'t> {
        let m = self.members[index];
        Item {
            tape: self.tape,
            start: m.start,
            end: m.end,
            container: m.container,
        }
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|m| self.key_of(m))
    }

    /// The members as `(key, value)`, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Item<'t>)> {
        (0..self.len()).map(|i| (self.key(i), self.value(i)))
    }

    fn key_of(&self, m: &Member) -> &str {
        match m.key_len {
            ESCAPED => &self.escaped[m.key as usize],
            len => &self.tape.text[m.key as usize..(m.key + len) as usize],
        }
    }
}

/// The text of a string literal's content whose escapes the reader has already checked.
fn unescape(content: &str) -> String {
    let quoted = format!("\"{content}\"");
    let mut p = scanner(&quoted, 0);
    let mut out = String::with_capacity(content.len());
    let _ = p.scan_string(Some(&mut out));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_container_entry_is_twelve_bytes_and_a_sorted_member_twenty() {
        assert_eq!(std::mem::size_of::<Container>(), 12);
        assert_eq!(std::mem::size_of::<Member>(), 20);
    }

    #[test]
    fn a_walk_jumps_over_containers_and_white_space() {
        let text = " \n{\"a\" :[ 1 ,{\"b\":[[],{}]} , \"x\\u0041\" ],\r\n\t\"c\":-Infinity , \"d\":{\"e\":  2.5e3}} \n";
        let tape = Tape::parse(text.to_string()).unwrap();
        let root = tape.root();
        assert!(matches!(root.kind(), Kind::Object));
        assert_eq!((root.len(), tape.values()), (3, 11));
        let a = root.get("a").unwrap();
        assert_eq!(a.len(), 3);
        assert!(matches!(a.index(0).unwrap().kind(), Kind::Int("1")));
        assert_eq!(a.index(1).unwrap().get("b").unwrap().len(), 2);
        assert!(matches!(a.index(2).unwrap().kind(), Kind::Str(s) if s == "xA"));
        assert!(a.index(3).is_none());
        assert!(matches!(root.get("c").unwrap().kind(), Kind::Float(f) if f == f64::NEG_INFINITY));
        let d = root.get("d").unwrap();
        assert!(matches!(d.get("e").unwrap().kind(), Kind::Float(2500.0)));
        assert!(root.get("e").is_none());
        // A scalar has neither items nor members.
        assert_eq!(d.get("e").unwrap().items().count(), 0);
        assert_eq!(a.members().count(), 0);
        assert_eq!(root.items().count(), 0);
    }

    #[test]
    fn refuses_what_the_tree_reader_refuses_with_the_same_message() {
        for text in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"kb": 1, "kb": x"#,
            r#"{"a\u0062": 1, "ab": 2}"#,
            "[1, 2,]",
            "{\n  \"a\": }",
            "01",
            "\"a\u{1}\"",
            r#""\ud800""#,
            r#""\ud800\u12""#,
            r#"["\u0041"#,
            "",
            "1 2",
        ] {
            let tree = super::super::parse(text).unwrap_err();
            let tape = Tape::parse(text.to_string()).err().unwrap();
            assert_eq!(tape, tree, "{text:?}");
        }
        let deep = "[".repeat(100_000);
        assert!(
            Tape::parse(deep)
                .err()
                .unwrap()
                .message
                .contains("nesting deeper")
        );
        let many: Vec<String> = (0..200).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}, \"k7\": 0}}", many.join(", "));
        assert!(
            Tape::parse(text)
                .err()
                .unwrap()
                .message
                .contains("duplicate object key 'k7'")
        );
        // Small and large objects, keys written with and without escapes: the first repeat
        // is refused where the tree reader refuses it, and distinct keys are accepted.
        for n in [3, 64, 65, 66, 200] {
            for (first, again) in [("k\\u0031", "k1"), ("k1", "k\\u0031"), ("k\\n", "k\\u000a")] {
                let mut members: Vec<String> = (2..n).map(|i| format!("\"k{i}\": {i}")).collect();
                members.insert(0, format!("\"{first}\": 0"));
                let distinct = format!("{{{}}}", members.join(", "));
                assert!(Tape::parse(distinct.clone()).is_ok(), "{distinct}");
                members.push(format!("\"{again}\": [1]"));
                members.push("\"k2\": 0".to_string());
                let text = format!("{{{}}}", members.join(", "));
                let tree = super::super::parse(&text).unwrap_err();
                assert_eq!(Tape::parse(text.clone()).err().unwrap(), tree, "{text}");
            }
        }
    }

    fn json_value() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("false".to_string()),
            Just("NaN".to_string()),
            Just("Infinity".to_string()),
            Just("-Infinity".to_string()),
            Just("-0".to_string()),
            "-?[1-9]?[0-9](\\.[0-9]{1,3})?([eE][+-]?[0-9]{1,2})?",
            any::<i64>().prop_map(|i| i.to_string()),
            "[0-9]{1,30}".prop_map(|s| s.trim_start_matches('0').to_string() + "0"),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| format!("{f:e}")),
            "[a-z\\\\\"\\u{e9}\\u{1F600}\\[{]{0,6}"
                .prop_map(|s| crate::to_string_compact(&Value::String(s))),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                (
                    proptest::collection::vec((ws(), inner.clone(), ws()), 0..6),
                    ws()
                )
                    .prop_map(|(v, empty)| {
                        let items: Vec<String> = v
                            .into_iter()
                            .map(|(a, v, b)| format!("{a}{v}{b}"))
                            .collect();
                        format!("[{}{empty}]", items.join(","))
                    }),
                (
                    proptest::collection::btree_map(
                        "[a-z\\\\\"{\\[]{0,4}",
                        (ws(), ws(), inner, ws()),
                        0..6
                    ),
                    ws()
                )
                    .prop_map(|(m, empty)| {
                        let members: Vec<String> = m
                            .into_iter()
                            .map(|(k, (a, b, v, c))| {
                                let k = crate::to_string_compact(&Value::String(k));
                                format!("{a}{k}{b}:{a}{v}{c}")
                            })
                            .collect();
                        format!("{{{}{empty}}}", members.join(","))
                    }),
            ]
        })
    }

    /// JSON white space, often none.
    fn ws() -> impl Strategy<Value = String> {
        "[ \t\r\n]{0,2}"
    }

    proptest! {
        /// The tape holds exactly the value the tree reader gives, whatever white space lies
        /// between its tokens.
        #[test]
        fn the_tape_holds_the_same_value_as_the_tree((a, text, b) in (ws(), json_value(), ws())) {
            let text = format!("{a}{text}{b}");
            let tree = super::super::parse(&text).unwrap();
            let tape = Tape::parse(text.clone()).unwrap();
            prop_assert_eq!(
                crate::to_string_compact(&tape.root().to_value()),
                crate::to_string_compact(&tree)
            );
            prop_assert_eq!(tape.values(), count(&tree));
            sorted_members_agree(tape.root())?;
        }
    }

    /// Every object's sorted members are its members sorted by key.
    fn sorted_members_agree(item: Item<'_>) -> Result<(), TestCaseError> {
        let mut members: Vec<_> = item.members().collect();
        members.sort_by(|a, b| a.0.cmp(&b.0));
        let sorted = item.sorted_members();
        prop_assert_eq!(sorted.len(), members.len());
        prop_assert_eq!(
            sorted.keys().collect::<Vec<_>>(),
            members.iter().map(|m| &*m.0).collect::<Vec<_>>()
        );
        for ((k, v), (sk, sv)) in members.iter().zip(sorted.iter()) {
            prop_assert_eq!(&**k, sk);
            prop_assert_eq!(
                crate::to_string_compact(&sv.to_value()),
                crate::to_string_compact(&v.to_value())
            );
        }
        for child in item.items().chain(members.into_iter().map(|m| m.1)) {
            sorted_members_agree(child)?;
        }
        Ok(())
    }

    fn count(v: &Value) -> u64 {
        match v {
            Value::Object(o) => 1 + o.iter().map(|(_, v)| count(v)).sum::<u64>(),
            Value::Array(a) => 1 + a.iter().map(count).sum::<u64>(),
            _ => 1,
        }
    }
}
