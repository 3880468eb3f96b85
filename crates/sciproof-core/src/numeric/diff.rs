//! Differences: what the comparison reports, and the collector that lists at most ten of them
//! and summarises the rest.

use super::value::{Scalar, short};
use crate::json::{Object, Value};
use num_bigint::BigInt;

/// At most this many differences are listed; the rest are summarised in one more line.
pub const MAX_LISTED: usize = 10;

/// What sort of difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Two numbers outside the tolerance (or two integers that differ).
    Number,
    /// Values of another kind, or of different kinds, that differ.
    Value,
    /// A difference in shape: counts of values, rows, cells, keys.
    Structure,
    /// The line that summarises differences not listed.
    Summary,
}

impl Kind {
    /// The `kind` string of the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Number => "number",
            Kind::Value => "value",
            Kind::Structure => "structure",
            Kind::Summary => "summary",
        }
    }
}

/// A value as strict JSON carries it in `difference_details`.
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    /// JSON null.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer, exact.
    Int(BigInt),
    /// A finite float.
    Float(f64),
    /// Text: strings, non-finite floats ("NaN", "Infinity", "-Infinity"), shortened reprs.
    Text(String),
}

impl Shown {
    /// The JSON-safe form of a leaf value: NaN and infinities as strings, integers of more than
    /// 30 digits and key lists as shortened reprs, strings over 200 characters shortened.
    pub fn of(value: &Scalar) -> Shown {
        match value {
            Scalar::Null => Shown::Null,
            Scalar::Bool(b) => Shown::Bool(*b),
            Scalar::Int(i) => {
                let text = i.to_string();
                if text.len() <= 30 {
                    Shown::Int(i.clone())
                } else {
                    Shown::Text(short(text, 60))
                }
            }
            Scalar::Float(f) => Shown::float(*f),
            Scalar::Str(s) => Shown::Text(if s.chars().count() <= 200 {
                s.clone()
            } else {
                format!(
                    "{}... ({} characters)",
                    s.chars().take(200).collect::<String>(),
                    s.chars().count()
                )
            }),
            Scalar::Keys(_) | Scalar::Repr(_) => Shown::Text(short(value.repr(), 60)),
        }
    }

    /// A float, non-finite values as the strings of the report schema.
    pub fn float(f: f64) -> Shown {
        if f.is_nan() {
            Shown::Text("NaN".into())
        } else if f.is_infinite() {
            Shown::Text(if f > 0.0 { "Infinity" } else { "-Infinity" }.into())
        } else {
            Shown::Float(f)
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Shown::Null => Value::Null,
            Shown::Bool(b) => Value::Bool(*b),
            Shown::Int(i) => Value::Number(crate::json::Number::Int(i.clone())),
            Shown::Float(f) => Value::from(*f),
            Shown::Text(t) => Value::from(t.as_str()),
        }
    }
}

/// One difference between a recorded and a found file.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// What kind of difference.
    pub kind: Kind,
    /// `$.a[0]`, `r2c1 (column 'loss')`, `data[0, 1]`; `None` for count lines and summaries.
    pub location: Option<String>,
    /// The value recorded.
    pub recorded: Shown,
    /// The value found.
    pub found: Shown,
    /// `|a - b|` for two finite numbers.
    pub abs_diff: Option<f64>,
    /// `abs_diff / max(|a|, |b|)` (0 when both are 0).
    pub rel_diff: Option<f64>,
    /// The largest absolute difference the tolerance would have accepted.
    pub allowed: Option<f64>,
    /// The line for people.
    pub message: String,
}

impl Difference {
    /// A difference without values (structure counts, summaries).
    pub fn plain(kind: Kind, location: Option<String>, message: String) -> Self {
        Difference {
            kind,
            location,
            recorded: Shown::Null,
            found: Shown::Null,
            abs_diff: None,
            rel_diff: None,
            allowed: None,
            message,
        }
    }

    /// The `difference_details` entry: `kind, location, recorded, found, abs_diff, rel_diff,
    /// allowed, message`.
    pub fn to_json(&self) -> Value {
        let number = |x: Option<f64>| x.filter(|f| f.is_finite()).map_or(Value::Null, Value::from);
        Object::new()
            .with("kind", self.kind.as_str())
            .with("location", self.location.clone())
            .with("recorded", self.recorded.to_json())
            .with("found", self.found.to_json())
            .with("abs_diff", number(self.abs_diff))
            .with("rel_diff", number(self.rel_diff))
            .with("allowed", number(self.allowed))
            .with("message", &self.message)
            .into()
    }
}

/// Collects differences: keeps the first [`MAX_LISTED`], counts all.
#[derive(Debug, Default)]
pub struct Collector {
    listed: Vec<Difference>,
    total: u64,
}

impl Collector {
    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one difference.
    pub fn push(&mut self, d: Difference) {
        self.total += 1;
        if self.listed.len() < MAX_LISTED {
            self.listed.push(d);
        }
    }

    /// Records `count` differences of which only those in `listed` are known in detail (the
    /// rest were not kept, for example by a parallel worker).
    pub fn absorb(&mut self, listed: Vec<Difference>, count: u64) {
        let extra = count.saturating_sub(listed.len() as u64);
        for d in listed {
            self.push(d);
        }
        self.total += extra;
    }

    /// How many differences were recorded.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The list: `prefix` (differences known only at the end, such as counts, that belong
    /// first), then the collected ones, cut to [`MAX_LISTED`], then one summary line when
    /// anything was left out.
    pub fn finish(self, prefix: Vec<Difference>) -> Vec<Difference> {
        let total = self.total + prefix.len() as u64;
        let mut all: Vec<Difference> = prefix.into_iter().chain(self.listed).collect();
        all.truncate(MAX_LISTED);
        let listed = all.len() as u64;
        if total > listed {
            all.push(Difference::plain(
                Kind::Summary,
                None,
                format!(
                    "... and {} more differences ({total} in all)",
                    total - listed
                ),
            ));
        }
        all
    }
}
