//! # sciproof-json
//!
//! The exact-semantics text layer of sciproof, kept apart so that nothing above it can bend it:
//! a JSON value model, a strict reader and a writer that matches Python's `json.dumps`
//! (this module), and Python's own number and string formatting ([`pyfmt`]). It depends on no
//! other part of sciproof and does no I/O.
//!
//! We write our own instead of using `serde_json` because evidence needs exact semantics that
//! general-purpose parsers do not give:
//!
//! * a repeated key in any object is **refused** (parsers disagree about which value wins, so
//!   the content would be ambiguous);
//! * integers are kept exact at any size ([`Number::Int`] holds a `BigInt`), never through `f64`;
//! * `NaN`, `Infinity` and `-Infinity` literals are read as Python's `json` module reads them;
//! * objects keep their key order, and the writer reproduces Python's `json.dumps(indent=2)`
//!   byte for byte (ASCII escapes, float `repr`), so a manifest we write hashes and signs the
//!   same way as one written by the reference implementation.

pub mod compact;
pub(crate) mod parse;
pub mod pyfmt;
pub mod scan;
mod skim;
pub mod stream;
pub mod tape;
mod write;

pub use parse::{ItemHook, JsonError, MAX_INT_DIGITS, MAX_NESTING, parse, parse_streaming};
pub use write::{
    Style, extend_array, newline, no_byte, to_string_compact, to_string_pretty, write_array,
    write_object, write_str, write_string, write_value,
};

pub use compact::Compact;

use num_bigint::BigInt;
use smol_str::SmolStr;

/// A JSON number exactly as written: an integer literal stays an exact integer, anything with a
/// fraction or exponent (or a `NaN`/`Infinity` literal) is a binary64 float.
#[derive(Debug, Clone, PartialEq)]
pub enum Number {
    /// An integer literal (`100`, `-7`, `123456789012345678901234567890`), exact.
    Int(BigInt),
    /// A float literal (`1.5`, `2e3`, `NaN`, `Infinity`).
    Float(f64),
}

/// A parsed JSON document. Objects preserve key order and never contain a key twice.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object (keys in order, none twice).
    Object(Object),
}

/// An ordered JSON object whose keys are unique.
///
/// Keys are kept as [`SmolStr`]: one of up to 23 bytes (nearly every key) is stored inline,
/// so reading an object allocates nothing per key (a million-claim graph has twenty million).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    entries: Vec<(SmolStr, Value)>,
}

impl Object {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty object with room for `n` keys.
    pub fn with_capacity(n: usize) -> Self {
        Object {
            entries: Vec::with_capacity(n),
        }
    }

    /// Appends `key` (or replaces its value in place if it is already there, keeping the order).
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Value>) {
        let key: String = key.into();
        let value = value.into();
        if let Some(slot) = self.entries.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = value;
        } else {
            self.entries.push((SmolStr::from(key), value));
        }
    }

    /// Builder form of [`Object::insert`].
    pub fn with(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.insert(key, value);
        self
    }

    /// The value stored under `key`, if any.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether `key` is present (even with a `null` value).
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Removes `key` and returns its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        Some(self.entries.remove(at).1)
    }

    /// The entries, taken out in document order (for taking an object apart in one pass).
    pub fn into_entries(self) -> impl Iterator<Item = (SmolStr, Value)> {
        self.entries.into_iter()
    }

    /// Entries in document order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the object has no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the keys of this object, and of every object inside it, are in code-point order,
    /// as in a canonical text ([`Compact`]): such an object is the one its canonical text
    /// parses back to.
    pub fn is_sorted_deep(&self) -> bool {
        self.entries.windows(2).all(|w| w[0].0 < w[1].0)
            && self.entries.iter().all(|(_, v)| v.is_sorted_deep())
    }

    pub(crate) fn push_unchecked(&mut self, key: &str, value: Value) {
        self.entries.push((SmolStr::new(key), value));
    }
}

impl Value {
    /// Whether every object in this value has its keys in code-point order
    /// ([`Object::is_sorted_deep`]).
    pub fn is_sorted_deep(&self) -> bool {
        match self {
            Value::Object(o) => o.is_sorted_deep(),
            Value::Array(items) => items.iter().all(Value::is_sorted_deep),
            _ => true,
        }
    }

    /// Python's name for the type of this value (`str`, `int`, `float`, `bool`, `list`, `dict`,
    /// `NoneType`), as the reference implementation prints it in validation errors.
    pub fn py_type_name(&self) -> &'static str {
        match self {
            Value::Null => "NoneType",
            Value::Bool(_) => "bool",
            Value::Number(Number::Int(_)) => "int",
            Value::Number(Number::Float(_)) => "float",
            Value::String(_) => "str",
            Value::Array(_) => "list",
            Value::Object(_) => "dict",
        }
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The object, if this is an object.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The array, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// A float or integer as `f64` (integers too large for `f64` become infinite).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(Number::Float(f)) => Some(*f),
            Value::Number(Number::Int(i)) => {
                Some(num_traits::ToPrimitive::to_f64(i).unwrap_or(f64::INFINITY))
            }
            _ => None,
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}
impl From<&String> for Value {
    fn from(s: &String) -> Self {
        Value::String(s.clone())
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<f64> for Value {
    fn from(f: f64) -> Self {
        Value::Number(Number::Float(f))
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Number(Number::Int(BigInt::from(i)))
    }
}
impl From<u64> for Value {
    fn from(i: u64) -> Self {
        Value::Number(Number::Int(BigInt::from(i)))
    }
}
impl From<usize> for Value {
    fn from(i: usize) -> Self {
        Value::Number(Number::Int(BigInt::from(i)))
    }
}
impl From<Object> for Value {
    fn from(o: Object) -> Self {
        Value::Object(o)
    }
}
impl From<Vec<Value>> for Value {
    fn from(a: Vec<Value>) -> Self {
        Value::Array(a)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(o: Option<T>) -> Self {
        o.map_or(Value::Null, Into::into)
    }
}

/// Whether two values are equal as JSON data: objects compare as maps (key order ignored),
/// arrays in order, numbers by kind and value (as Python compares parsed JSON, `1` equals
/// `1.0`).
pub fn same_content(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_content(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_content(v, w))
        }
        (Value::Number(Number::Int(i)), Value::Number(Number::Float(f)))
        | (Value::Number(Number::Float(f)), Value::Number(Number::Int(i))) => {
            num_rational::BigRational::from_float(*f)
                .is_some_and(|r| r == num_rational::BigRational::from_integer(i.clone()))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn into_entries_gives_every_entry_in_document_order() {
        let o = Object::new()
            .with("b", "1")
            .with("a", 2i64)
            .with("c", Value::Null);
        let entries: Vec<(String, Value)> =
            o.into_entries().map(|(k, v)| (k.to_string(), v)).collect();
        assert_eq!(
            entries,
            [
                ("b".to_string(), Value::from("1")),
                ("a".to_string(), Value::from(2i64)),
                ("c".to_string(), Value::Null)
            ]
        );
    }
}
