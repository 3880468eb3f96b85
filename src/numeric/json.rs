//! JSON outputs: parsed strictly (no repeated keys, exact integers, Python's `NaN`/`Infinity`)
//! and compared structurally. Locations are `$.key[0]`; an object also has a `#keys` leaf (its
//! sorted keys) and a list a `#len` leaf. Where the structures differ, the difference is
//! reported and the comparison goes on with what still lines up (the keys both objects have,
//! the first elements of two lists of different lengths).

use super::NumericError;
use super::diff::{Collector, Difference, Kind, Shown};
use super::rule::compare_values;
use super::value::{Scalar, short};
use crate::json::{Number, Value};
use num_bigint::BigInt;

/// JSON documents larger than this are refused (they are parsed whole; CSV, TSV and `.npy` are
/// streamed and have no limit).
pub const MAX_JSON_BYTES: u64 = 256 * 1024 * 1024;

/// Reads and parses a JSON output. `name` is the file name used in messages.
pub fn load(path: &std::path::Path, name: &str) -> Result<Value, NumericError> {
    let meta = std::fs::metadata(path).map_err(|e| NumericError::io(name, &e))?;
    if meta.len() > MAX_JSON_BYTES {
        return Err(NumericError(format!(
            "{name} is larger than the JSON comparison limit ({} MiB); CSV, TSV and .npy files have no limit",
            MAX_JSON_BYTES >> 20
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| NumericError::io(name, &e))?;
    parse(&bytes, name)
}

/// Parses JSON bytes with the messages of the reference.
pub fn parse(bytes: &[u8], name: &str) -> Result<Value, NumericError> {
    let text = super::utf8(bytes, name)?;
    if text.starts_with('\u{feff}') {
        return Err(NumericError(format!(
            "{name} is not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"
        )));
    }
    crate::json::parse(text).map_err(|e| NumericError(format!("{name} is not valid JSON: {e}")))
}

/// The leaf value of a JSON scalar; `None` for an object or a list (not a single value).
pub fn scalar(v: &Value) -> Option<Scalar> {
    Some(match v {
        Value::Null => Scalar::Null,
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(Number::Int(i)) => Scalar::Int(i.clone()),
        Value::Number(Number::Float(f)) => Scalar::Float(*f),
        Value::String(s) => Scalar::Str(s.clone()),
        Value::Array(_) | Value::Object(_) => return None,
    })
}

/// The number of leaves of `v` (an object or list counts one for its `#keys`/`#len` leaf).
pub fn count_leaves(v: &Value) -> u64 {
    match v {
        Value::Object(o) => 1 + o.iter().map(|(_, v)| count_leaves(v)).sum::<u64>(),
        Value::Array(a) => 1 + a.iter().map(count_leaves).sum::<u64>(),
        _ => 1,
    }
}

fn sorted_keys(o: &crate::json::Object) -> Vec<String> {
    let mut keys: Vec<String> = o.iter().map(|(k, _)| k.to_string()).collect();
    keys.sort();
    keys
}

fn describe(v: &Value) -> String {
    match v {
        Value::Object(o) => format!(
            "an object with keys {}",
            short(Scalar::Keys(sorted_keys(o)).repr(), 60)
        ),
        Value::Array(a) => format!("a list of {} values", a.len()),
        other => short(scalar(other).map(|s| s.repr()).unwrap_or_default(), 60),
    }
}

fn walk(location: &str, e: &Value, a: &Value, rtol: f64, atol: f64, out: &mut Collector) {
    match (e, a) {
        (Value::Object(eo), Value::Object(ao)) => {
            let ek = sorted_keys(eo);
            let ak = sorted_keys(ao);
            if let Some(d) = compare_values(
                &format!("{location}#keys"),
                &Scalar::Keys(ek.clone()),
                &Scalar::Keys(ak),
                rtol,
                atol,
            ) {
                out.push(d);
            }
            for key in ek {
                if let (Some(ev), Some(av)) = (eo.get(&key), ao.get(&key)) {
                    walk(&format!("{location}.{key}"), ev, av, rtol, atol, out);
                }
            }
        }
        (Value::Array(ea), Value::Array(aa)) => {
            let (le, la) = (
                Scalar::Int(BigInt::from(ea.len())),
                Scalar::Int(BigInt::from(aa.len())),
            );
            if let Some(d) = compare_values(&format!("{location}#len"), &le, &la, rtol, atol) {
                out.push(d);
            }
            for (i, (ev, av)) in ea.iter().zip(aa).enumerate() {
                walk(&format!("{location}[{i}]"), ev, av, rtol, atol, out);
            }
        }
        _ => match (scalar(e), scalar(a)) {
            (Some(se), Some(sa)) => {
                if let Some(d) = compare_values(location, &se, &sa, rtol, atol) {
                    out.push(d);
                }
            }
            _ => out.push(Difference {
                kind: Kind::Structure,
                location: Some(location.to_string()),
                recorded: Shown::Text(describe(e)),
                found: Shown::Text(describe(a)),
                abs_diff: None,
                rel_diff: None,
                allowed: None,
                message: format!(
                    "structure differs at {location}: recorded {}, found {}",
                    describe(e),
                    describe(a)
                ),
            }),
        },
    }
}

/// Compares a recorded and a found document.
pub fn compare(recorded: &Value, found: &Value, rtol: f64, atol: f64) -> Vec<Difference> {
    let mut out = Collector::new();
    walk("$", recorded, found, rtol, atol, &mut out);
    let (ne, na) = (count_leaves(recorded), count_leaves(found));
    let prefix = if ne != na {
        vec![Difference::plain(
            Kind::Structure,
            None,
            format!("structure differs: {ne} values recorded, {na} found"),
        )]
    } else {
        Vec::new()
    };
    out.finish(prefix)
}

/// The leaves of a document as `(location, value)`, in order (for claims).
pub fn leaves(v: &Value) -> Vec<(String, Scalar)> {
    fn rec(location: String, v: &Value, out: &mut Vec<(String, Scalar)>) {
        match v {
            Value::Object(o) => {
                let keys = sorted_keys(o);
                out.push((format!("{location}#keys"), Scalar::Keys(keys.clone())));
                for k in keys {
                    if let Some(child) = o.get(&k) {
                        rec(format!("{location}.{k}"), child, out);
                    }
                }
            }
            Value::Array(a) => {
                out.push((
                    format!("{location}#len"),
                    Scalar::Int(BigInt::from(a.len())),
                ));
                for (i, child) in a.iter().enumerate() {
                    rec(format!("{location}[{i}]"), child, out);
                }
            }
            other => out.push((location, scalar(other).unwrap_or(Scalar::Null))),
        }
    }
    let mut out = Vec::new();
    rec("$".into(), v, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(e: &str, a: &str) -> Vec<String> {
        let pe = crate::json::parse(e).unwrap();
        let pa = crate::json::parse(a).unwrap();
        compare(&pe, &pa, 1e-9, 0.0)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn json_key_sets_must_match_and_key_order_does_not_matter() {
        assert!(cmp(r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#).is_empty());
        assert_eq!(
            cmp(
                r#"{"acc": 0.9, "n": 1}"#,
                r#"{"acc": 0.5, "extra": 1, "n": 1}"#
            ),
            [
                "structure differs: 3 values recorded, 4 found",
                "$#keys: recorded ['acc', 'n'], found ['acc', 'extra', 'n']",
                "$.acc: recorded 0.9, found 0.5 (rtol=1e-09, atol=0.0)",
            ]
        );
    }

    #[test]
    fn json_lists_length_and_order_matter_and_comparison_goes_on() {
        assert_eq!(
            cmp("[1, 2]", "[2, 1]"),
            ["$[0]: recorded 1, found 2", "$[1]: recorded 2, found 1"]
        );
        assert_eq!(
            cmp("[1.0, 2.0, 3.0]", "[1.5, 2.0]"),
            [
                "structure differs: 4 values recorded, 3 found",
                "$#len: recorded 3, found 2",
                "$[0]: recorded 1.0, found 1.5 (rtol=1e-09, atol=0.0)"
            ]
        );
    }

    #[test]
    fn json_structure_mismatch_is_reported_at_its_place() {
        assert_eq!(
            cmp(r#"{"a": {"x": 1}, "b": 1.0}"#, r#"{"a": 3, "b": 2.0}"#),
            [
                "structure differs: 4 values recorded, 3 found",
                "structure differs at $.a: recorded an object with keys ['x'], found 3",
                "$.b: recorded 1.0, found 2.0 (rtol=1e-09, atol=0.0)",
            ]
        );
    }

    #[test]
    fn at_most_ten_differences_then_a_summary() {
        let e: Vec<String> = (0..25).map(|i| format!("{i}.0")).collect();
        let a: Vec<String> = (0..25).map(|i| format!("{i}.5")).collect();
        let out = cmp(&format!("[{}]", e.join(",")), &format!("[{}]", a.join(",")));
        assert_eq!(out.len(), 11);
        assert_eq!(out[10], "... and 15 more differences (25 in all)");
    }

    #[test]
    fn keys_with_dots_are_kept_verbatim_in_locations() {
        let leaves = leaves(&crate::json::parse(r#"{"a.b": 1, "": 2}"#).unwrap());
        let locations: Vec<&str> = leaves.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(locations, ["$#keys", "$.", "$.a.b"]);
    }

    #[test]
    fn bom_and_invalid_json_are_errors() {
        assert!(
            parse(b"\xef\xbb\xbf{}", "j.json")
                .unwrap_err()
                .0
                .contains("Unexpected UTF-8 BOM")
        );
        assert_eq!(
            parse(b"{\"a\": 1} x", "j.json").unwrap_err().0,
            "j.json is not valid JSON: Extra data: line 1 column 10 (char 9)"
        );
        assert!(
            parse(b"{\"a\": 1, \"a\": 2}", "dup.json")
                .unwrap_err()
                .0
                .starts_with("dup.json is not valid JSON: duplicate object key 'a'")
        );
        assert!(
            parse(&b"[".repeat(100_000), "deep.json")
                .unwrap_err()
                .0
                .contains("nesting deeper than")
        );
    }
}
