//! A parsed JSON document in little memory: the text, and one 8-byte node per value on a
//! "tape" in document order, strings and numbers kept as ranges of the text (decoded when
//! asked for). The same strict reader decides what is accepted ([`super::parse`]'s rules and
//! messages: repeated keys refused, exact integers, Python's literals, the nesting limit);
//! only what is built differs. A numeric JSON output of 100 MB takes about 2 to 4 times its
//! size this way, instead of about 27 times as a [`super::Value`] tree.

use super::parse::{JsonError, Parser};
use super::{Number, Value};
use num_bigint::BigInt;
use std::borrow::Cow;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Tag {
    Null,
    True,
    False,
    Int,
    Float,
    NaN,
    Infinity,
    NegInfinity,
    Str,
    EscapedStr,
    Array,
    Object,
}

/// One value in 8 bytes. Scalars: `a..a+b` is the literal's range in the text (a string's
/// without its quotes). Arrays and objects: `a` is the number of items or members, `b` the
/// index of the first node after the whole value. An object's members follow it as key (a
/// string node), value (its whole subtree), key, value... The tag takes the top 4 bits of the
/// word that holds `b`, which leaves 28 bits: enough for any document of up to 256 MiB
/// ([`MAX_TEXT`]), whose literals and node counts are all smaller.
#[derive(Debug, Clone, Copy)]
struct Node {
    a: u32,
    tag_and_b: u32,
}

/// The largest document a tape holds: 256 MiB, the limit of JSON numeric outputs.
pub const MAX_TEXT: usize = 1 << 28;

/// The tags, by their number.
const TAGS: [Tag; 12] = [
    Tag::Null,
    Tag::True,
    Tag::False,
    Tag::Int,
    Tag::Float,
    Tag::NaN,
    Tag::Infinity,
    Tag::NegInfinity,
    Tag::Str,
    Tag::EscapedStr,
    Tag::Array,
    Tag::Object,
];

impl Node {
    fn new(tag: Tag, a: usize, b: usize) -> Node {
        debug_assert!(b < MAX_TEXT);
        Node {
            a: a as u32,
            tag_and_b: ((tag as u32) << 28) | b as u32,
        }
    }

    fn tag(self) -> Tag {
        TAGS[(self.tag_and_b >> 28) as usize]
    }

    fn b(self) -> u32 {
        self.tag_and_b & (MAX_TEXT as u32 - 1)
    }

    /// Sets the count and the end of a container once its members are read.
    fn close(&mut self, count: usize, end: usize) {
        *self = Node::new(self.tag(), count, end);
    }
}

/// A parsed document (see the module documentation).
pub struct Tape {
    text: String,
    nodes: Vec<Node>,
}

/// A value of a [`Tape`].
#[derive(Clone, Copy)]
pub struct Item<'t> {
    tape: &'t Tape,
    at: u32,
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
    /// Parses `text` (with the rules and messages of [`super::parse`]). Documents of up to
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
        // Every value but the first follows a `,`, `:`, `[` or `{`: counting those bounds the
        // number of nodes, so the tape is allocated once (growing it would copy it, and hold
        // both copies at the peak).
        let bound = 1 + text
            .bytes()
            .filter(|b| matches!(b, b',' | b':' | b'[' | b'{'))
            .count();
        let mut nodes = Vec::with_capacity(bound);
        {
            let mut parser = Parser {
                text: &text,
                bytes: text.as_bytes(),
                pos: 0,
                depth: 0,
                hook: None,
            };
            parser.skip_ws();
            value(&mut parser, &mut nodes)?;
            parser.skip_ws();
            if parser.pos != parser.bytes.len() {
                return Err(parser.error_at("Extra data", parser.pos));
            }
        }
        nodes.shrink_to_fit();
        Ok(Tape { text, nodes })
    }

    /// The top-level value.
    pub fn root(&self) -> Item<'_> {
        Item { tape: self, at: 0 }
    }

    /// How many values the document holds (object keys not counted).
    pub fn values(&self) -> u64 {
        let keys: u64 = self
            .nodes
            .iter()
            .filter(|n| n.tag() == Tag::Object)
            .map(|n| u64::from(n.a))
            .sum();
        self.nodes.len() as u64 - keys
    }
}

fn push(nodes: &mut Vec<Node>, tag: Tag, a: usize, b: usize) {
    nodes.push(Node::new(tag, a, b));
}

fn value(p: &mut Parser<'_, '_>, nodes: &mut Vec<Node>) -> Result<(), JsonError> {
    let literal = |p: &mut Parser<'_, '_>, nodes: &mut Vec<Node>, tag: Tag, len: usize| {
        push(nodes, tag, p.pos, len);
        p.pos += len;
        Ok(())
    };
    match p.peek() {
        Some(b'{') => p.nested(|p| object(p, nodes)),
        Some(b'[') => p.nested(|p| array(p, nodes)),
        Some(b'"') => {
            let start = p.pos;
            let escaped = p.scan_string(None)?;
            let tag = if escaped { Tag::EscapedStr } else { Tag::Str };
            push(nodes, tag, start + 1, p.pos - start - 2);
            Ok(())
        }
        Some(b'n') if p.starts_with("null") => literal(p, nodes, Tag::Null, 4),
        Some(b't') if p.starts_with("true") => literal(p, nodes, Tag::True, 4),
        Some(b'f') if p.starts_with("false") => literal(p, nodes, Tag::False, 5),
        Some(b'N') if p.starts_with("NaN") => literal(p, nodes, Tag::NaN, 3),
        Some(b'I') if p.starts_with("Infinity") => literal(p, nodes, Tag::Infinity, 8),
        Some(b'-') if p.starts_with("-Infinity") => literal(p, nodes, Tag::NegInfinity, 9),
        Some(b'-' | b'0'..=b'9') => {
            let token = p.scan_number()?;
            let tag = if token.float { Tag::Float } else { Tag::Int };
            push(nodes, tag, token.start, token.end - token.start);
            Ok(())
        }
        _ => Err(p.error_at("Expecting value", p.pos)),
    }
}

fn array(p: &mut Parser<'_, '_>, nodes: &mut Vec<Node>) -> Result<(), JsonError> {
    let at = nodes.len();
    push(nodes, Tag::Array, 0, 0);
    let mut count = 0usize;
    p.members(b']', &mut |p| {
        count += 1;
        value(p, nodes)
    })?;
    let end = nodes.len();
    nodes[at].close(count, end);
    Ok(())
}

fn object(p: &mut Parser<'_, '_>, nodes: &mut Vec<Node>) -> Result<(), JsonError> {
    let at = nodes.len();
    push(nodes, Tag::Object, 0, 0);
    let mut count = 0usize;
    let mut key = String::new();
    // Keys seen so far, borrowed from the text where they hold no escape: a scan for small
    // objects, a set (with a fast hash: keys are not attacker-chosen hash-flooding input here,
    // the set lives for one object of a bounded document) once an object grows large.
    let text = p.text;
    let mut small: Vec<Cow<'_, str>> = Vec::new();
    let mut seen: Option<rustc_hash::FxHashSet<Cow<'_, str>>> = None;
    p.members(b'}', &mut |p| {
        let (key_pos, key_end) = p.key(&mut key)?;
        let literal = &text[key_pos + 1..key_end - 1];
        let escaped = literal.contains('\\');
        let tag = if escaped { Tag::EscapedStr } else { Tag::Str };
        push(nodes, tag, key_pos + 1, key_end - key_pos - 2);
        let this: Cow<'_, str> = if escaped {
            Cow::Owned(key.clone())
        } else {
            Cow::Borrowed(literal)
        };
        count += 1;
        // The value is read before the key is checked, as the tree reader does, so that both
        // report the same first error.
        value(p, nodes)?;
        let repeated = match &mut seen {
            Some(set) => !set.insert(this),
            None => {
                let repeated = small.contains(&this);
                small.push(this);
                if small.len() > 64 {
                    seen = Some(std::mem::take(&mut small).into_iter().collect());
                }
                repeated
            }
        };
        if repeated {
            return Err(p.repeated_key(&key, key_pos));
        }
        Ok(())
    })?;
    let end = nodes.len();
    nodes[at].close(count, end);
    Ok(())
}

impl<'t> Item<'t> {
    fn node(&self) -> Node {
        self.tape.nodes[self.at as usize]
    }

    fn text(&self) -> &'t str {
        let n = self.node();
        &self.tape.text[n.a as usize..(n.a + n.b()) as usize]
    }

    /// The node after this value's whole subtree.
    fn next(&self) -> u32 {
        let n = self.node();
        match n.tag() {
            Tag::Array | Tag::Object => n.b(),
            _ => self.at + 1,
        }
    }

    /// What this value is.
    pub fn kind(&self) -> Kind<'t> {
        let n = self.node();
        match n.tag() {
            Tag::Null => Kind::Null,
            Tag::True => Kind::Bool(true),
            Tag::False => Kind::Bool(false),
            Tag::Int => Kind::Int(self.text()),
            Tag::Float => Kind::Float(self.text().parse().unwrap_or(f64::NAN)),
            Tag::NaN => Kind::Float(f64::NAN),
            Tag::Infinity => Kind::Float(f64::INFINITY),
            Tag::NegInfinity => Kind::Float(f64::NEG_INFINITY),
            Tag::Str => Kind::Str(Cow::Borrowed(self.text())),
            Tag::EscapedStr => Kind::Str(Cow::Owned(unescape(self.text()))),
            Tag::Array => Kind::Array,
            Tag::Object => Kind::Object,
        }
    }

    /// The number of items of an array or members of an object (0 for a scalar).
    pub fn len(&self) -> usize {
        match self.node().tag() {
            Tag::Array | Tag::Object => self.node().a as usize,
            _ => 0,
        }
    }

    /// Whether [`Item::len`] is 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items of an array (nothing for anything else).
    pub fn items(&self) -> impl Iterator<Item = Item<'t>> + 't {
        let (tape, count) = (
            self.tape,
            if self.node().tag() == Tag::Array {
                self.len()
            } else {
                0
            },
        );
        let mut at = self.at + 1;
        (0..count).map(move |_| {
            let item = Item { tape, at };
            at = item.next();
            item
        })
    }

    /// The members of an object as `(key, value)`, in document order (nothing for anything
    /// else).
    pub fn members(&self) -> impl Iterator<Item = (Cow<'t, str>, Item<'t>)> + 't {
        let (tape, count) = (
            self.tape,
            if self.node().tag() == Tag::Object {
                self.len()
            } else {
                0
            },
        );
        let mut at = self.at + 1;
        (0..count).map(move |_| {
            let key = Item { tape, at };
            let value = Item { tape, at: at + 1 };
            at = value.next();
            let Kind::Str(k) = key.kind() else {
                unreachable!("object keys are strings")
            };
            (k, value)
        })
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

/// The text of a string literal's content whose escapes the reader has already checked.
fn unescape(content: &str) -> String {
    let quoted = format!("\"{content}\"");
    let mut p = Parser {
        text: &quoted,
        bytes: quoted.as_bytes(),
        pos: 0,
        depth: 0,
        hook: None,
    };
    let mut out = String::with_capacity(content.len());
    let _ = p.scan_string(Some(&mut out));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_node_keeps_its_tag_and_both_numbers() {
        for (n, tag) in TAGS.iter().enumerate() {
            assert_eq!(*tag as usize, n);
            for (a, b) in [(0, 0), (7, 9), (u32::MAX as usize, MAX_TEXT - 1)] {
                let mut node = Node::new(*tag, a, b);
                assert_eq!(
                    (node.tag(), node.a as usize, node.b() as usize),
                    (*tag, a, b)
                );
                node.close(3, b / 2);
                assert_eq!((node.tag(), node.a, node.b() as usize), (*tag, 3, b / 2));
            }
        }
        assert_eq!(std::mem::size_of::<Node>(), 8);
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
    }

    fn json_value() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("NaN".to_string()),
            Just("-Infinity".to_string()),
            any::<i64>().prop_map(|i| i.to_string()),
            "[0-9]{1,30}".prop_map(|s| s.trim_start_matches('0').to_string() + "0"),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| format!("{f:e}")),
            "[a-z\\\\\"\\u{e9}\\u{1F600}]{0,6}"
                .prop_map(|s| crate::to_string_compact(&Value::String(s))),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6)
                    .prop_map(|v| format!("[{}]", v.join(", "))),
                proptest::collection::btree_map("[a-z\\\\\"]{0,4}", inner, 0..6).prop_map(|m| {
                    let members: Vec<String> = m
                        .into_iter()
                        .map(|(k, v)| {
                            format!("{}: {v}", crate::to_string_compact(&Value::String(k)))
                        })
                        .collect();
                    format!("{{{}}}", members.join(", "))
                }),
            ]
        })
    }

    proptest! {
        /// The tape holds exactly the value the tree reader gives.
        #[test]
        fn the_tape_holds_the_same_value_as_the_tree(text in json_value()) {
            let tree = super::super::parse(&text).unwrap();
            let tape = Tape::parse(text.clone()).unwrap();
            prop_assert_eq!(
                crate::to_string_compact(&tape.root().to_value()),
                crate::to_string_compact(&tree)
            );
            prop_assert_eq!(tape.values(), count(&tree));
        }
    }

    fn count(v: &Value) -> u64 {
        match v {
            Value::Object(o) => 1 + o.iter().map(|(_, v)| count(v)).sum::<u64>(),
            Value::Array(a) => 1 + a.iter().map(count).sum::<u64>(),
            _ => 1,
        }
    }
}
