//! The values a numeric comparison sees, with Python's typing: exact integers, floats, text,
//! booleans, null, and the key lists of JSON objects.

use crate::pyfmt::{float_repr, str_repr};
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// One leaf value.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// A JSON integer, exact at any size.
    Int(BigInt),
    /// A JSON float or a CSV/TSV cell that Python's `float()` accepts.
    Float(f64),
    /// Text.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// Null.
    Null,
    /// The sorted keys of a JSON object (the `#keys` leaf).
    Keys(Vec<String>),
    /// Another Python value, known by its `repr` (an array's shape, `[3, 4]`).
    Repr(String),
}

impl Scalar {
    /// Whether this is a number (int or float, never a boolean).
    pub fn is_number(&self) -> bool {
        matches!(self, Scalar::Int(_) | Scalar::Float(_))
    }

    /// The value as `f64` (`None` when not a number or an integer beyond the float range).
    pub fn to_f64(&self) -> Option<f64> {
        match self {
            Scalar::Float(f) => Some(*f),
            Scalar::Int(i) => i.to_f64().filter(|f| f.is_finite()),
            _ => None,
        }
    }

    /// Python's `repr` of the value (`0.91`, `True`, `None`, `'text'`, `['a', 'b']`).
    pub fn repr(&self) -> String {
        match self {
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => float_repr(*f),
            Scalar::Str(s) => str_repr(s),
            Scalar::Bool(true) => "True".into(),
            Scalar::Bool(false) => "False".into(),
            Scalar::Null => "None".into(),
            Scalar::Keys(keys) => format!(
                "[{}]",
                keys.iter()
                    .map(|k| str_repr(k))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Scalar::Repr(r) => r.clone(),
        }
    }

    /// Whether two non-numeric values are the same type and equal (the "value" rule).
    pub fn same_value(&self, other: &Scalar) -> bool {
        self == other
    }
}

/// `repr` shortened to `limit` characters, `... (N characters)` after it when cut.
pub fn short(text: String, limit: usize) -> String {
    let n = text.chars().count();
    if n <= limit {
        text
    } else {
        format!(
            "{}... ({n} characters)",
            text.chars().take(limit).collect::<String>()
        )
    }
}
