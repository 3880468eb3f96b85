//! How much a numeric output varies between runs of the same command (`record` derives a
//! tolerance from two runs, `calibrate` measures it over many): the leaves of each run's file
//! (spec §4.1), then per location the spread of its numbers, and the first difference that is
//! not a spread of numbers (a text that changes, a key present in some runs only).

use super::NumericError;
use super::csv::{RowReader, cell_value};
use super::value::Scalar;
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// Integers beyond this are not numbers for a spread (they do not convert to a float exactly).
const EXACT_INT_LIMIT: u64 = 1 << 53;

/// The `(location, value)` leaves of a JSON, CSV, TSV or `.npy` file (`display` decides the
/// format and names it in messages); `None` for another format (`.npz`).
pub fn leaves(path: &Path, display: &str) -> Option<Result<Vec<(String, Scalar)>, NumericError>> {
    let name = display.rsplit('/').next().unwrap_or(display);
    let lower = name.to_lowercase();
    if lower.ends_with(".json") {
        return Some(super::json::load(path, name).map(|tape| super::json::leaves(&tape)));
    }
    if lower.ends_with(".npy") {
        return Some(super::npy::leaves(path, name));
    }
    let tsv = lower.ends_with(".tsv");
    if !tsv && !lower.ends_with(".csv") {
        return None;
    }
    Some((|| {
        let mut reader = RowReader::open(path, name, tsv)?;
        let mut rows: Vec<(String, Scalar)> = Vec::new();
        let mut index = 0usize;
        while !reader.is_done() {
            reader.read_chunk(&mut |row| {
                rows.push((
                    format!("row{index}#cols"),
                    Scalar::Int(BigInt::from(row.len())),
                ));
                for (c, cell) in row.fields().enumerate() {
                    rows.push((format!("r{index}c{c}"), cell_value(cell)));
                }
                index += 1;
            })?;
        }
        let mut out = vec![("rows".to_string(), Scalar::Int(BigInt::from(index)))];
        out.extend(rows);
        Ok(out)
    })())
}

/// The spread of numbers across runs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Spread {
    /// The largest `max - min` of a location's values.
    pub max_abs: f64,
    /// The largest `(max - min) / max(|min|, |max|)`.
    pub max_rel: f64,
    /// How many locations spread more than the tolerance rule allows.
    pub outside: usize,
    /// The first difference that is not a spread of numbers, in location order.
    pub problem: Option<String>,
}

fn number(value: &Scalar) -> Option<f64> {
    match value {
        Scalar::Float(f) => Some(*f),
        Scalar::Int(i) => i
            .magnitude()
            .to_u64()
            .filter(|m| *m <= EXACT_INT_LIMIT)
            .and_then(|_| i.to_f64()),
        _ => None,
    }
}

/// The spread over `samples` (one list of leaves per run), counting locations outside the rule
/// `spread <= max(rtol * scale, atol)`.
pub fn spread(samples: &[Vec<(String, Scalar)>], rtol: f64, atol: f64) -> Spread {
    let tables: Vec<HashMap<&str, &Scalar>> = samples
        .iter()
        .map(|s| s.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .collect();
    let locations: BTreeSet<&str> = tables.iter().flat_map(|t| t.keys().copied()).collect();
    let mut out = Spread::default();
    let mut problem = |text: String| {
        if out.problem.is_none() {
            out.problem = Some(text);
        }
    };
    let mut found = Spread::default();
    for location in locations {
        let Some(values) = tables
            .iter()
            .map(|t| t.get(location).copied())
            .collect::<Option<Vec<&Scalar>>>()
        else {
            problem(format!("{location} is not present in every run"));
            continue;
        };
        let numbers: Option<Vec<f64>> = values.iter().map(|v| number(v)).collect();
        match numbers {
            Some(floats) => {
                if floats.iter().any(|f| f.is_nan()) {
                    if !floats.iter().all(|f| f.is_nan()) {
                        problem(format!("{location} is NaN in some runs only"));
                    }
                    continue;
                }
                if floats.iter().any(|f| f.is_infinite()) {
                    if floats.iter().any(|f| *f != floats[0]) {
                        problem(format!("{location} is infinite in some runs only"));
                    }
                    continue;
                }
                let low = floats.iter().copied().fold(f64::INFINITY, f64::min);
                let high = floats.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let width = high - low;
                if width == 0.0 {
                    continue;
                }
                let scale = low.abs().max(high.abs());
                found.max_abs = found.max_abs.max(width);
                found.max_rel = found.max_rel.max(width / scale);
                if width > (rtol * scale).max(atol) {
                    found.outside += 1;
                }
            }
            None => {
                let first = values[0];
                if values.iter().any(|v| *v != first) {
                    problem(format!("{location} is not the same value in every run"));
                }
            }
        }
    }
    Spread {
        problem: out.problem,
        ..found
    }
}

/// `value` rounded up to one significant digit (`3.2e-07` to `4e-07`); zero, negative and
/// non-finite values unchanged.
pub fn round_up(value: f64) -> f64 {
    if value <= 0.0 || !value.is_finite() {
        return value;
    }
    let step = 10f64.powf(value.log10().floor());
    (value / step).ceil() * step
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves_of(name: &str, text: &str) -> Vec<(String, Scalar)> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        leaves(&path, name).unwrap().unwrap()
    }

    #[test]
    fn numbers_spread_and_everything_else_is_a_problem() {
        let a = leaves_of("m.json", r#"{"acc": 0.90, "n": 3, "tag": "x"}"#);
        let b = leaves_of("m.json", r#"{"acc": 0.91, "n": 3, "tag": "x"}"#);
        let s = spread(&[a.clone(), b.clone()], 1e-9, 0.0);
        assert!((s.max_abs - 0.01).abs() < 1e-12);
        assert!((s.max_rel - 0.01 / 0.91).abs() < 1e-12);
        assert_eq!((s.outside, s.problem), (1, None));
        assert_eq!(spread(&[a.clone(), a.clone()], 0.0, 0.0), Spread::default());
        let c = leaves_of("m.json", r#"{"acc": 0.90, "n": 3, "tag": "y"}"#);
        assert_eq!(
            spread(&[a.clone(), c], 0.0, 0.0).problem.as_deref(),
            Some("$.tag is not the same value in every run")
        );
        let d = leaves_of("m.json", r#"{"acc": 0.90, "n": 3}"#);
        assert_eq!(
            spread(&[a, d], 0.0, 0.0).problem.as_deref(),
            Some("$#keys is not the same value in every run")
        );
        let t1 = leaves_of("t.csv", "x,y\n1.0,NaN\n");
        let t2 = leaves_of("t.csv", "x,y\n1.5,2\n");
        let s = spread(&[t1, t2], 1.0, 0.0);
        assert_eq!(s.problem.as_deref(), Some("r1c1 is NaN in some runs only"));
        assert_eq!(s.outside, 0, "0.5 of 1.5 is inside rtol=1");
    }

    /// A `.npy` file of float64 values in the given order (`fortran`: column-major).
    fn npy(
        name: &str,
        shape: (usize, usize),
        values: &[f64],
        fortran: bool,
    ) -> Vec<(String, Scalar)> {
        let dict = format!(
            "{{'descr': '<f8', 'fortran_order': {}, 'shape': ({}, {}), }}",
            if fortran { "True" } else { "False" },
            shape.0,
            shape.1
        );
        let mut header = dict.into_bytes();
        while (10 + header.len() + 1) % 64 != 0 {
            header.push(b' ');
        }
        header.push(b'\n');
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend((header.len() as u16).to_le_bytes());
        bytes.extend(header);
        for v in values {
            bytes.extend(v.to_le_bytes());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        leaves(&path, name).unwrap().unwrap()
    }

    #[test]
    fn arrays_are_measured_by_logical_index() {
        // [[1, 2], [3, 4]] in C order and in Fortran order: the same leaves.
        let c = npy("a.npy", (2, 2), &[1.0, 2.0, 3.0, 4.0], false);
        let f = npy("a.npy", (2, 2), &[1.0, 3.0, 2.0, 4.0], true);
        assert_eq!(c, f);
        assert_eq!(c[0], ("shape".to_string(), Scalar::Repr("[2, 2]".into())));
        assert_eq!(c[3], ("data[0, 1]".to_string(), Scalar::Float(2.0)));
        let noisy = npy("a.npy", (2, 2), &[1.0, 2.0, 3.0, 4.0001], false);
        let s = spread(&[c, noisy], 1e-9, 0.0);
        assert_eq!((s.outside, s.problem), (1, None));
        assert!((s.max_abs - 1e-4).abs() < 1e-9);
    }

    #[test]
    fn rounding_up_keeps_one_digit() {
        assert_eq!(round_up(3.2e-7), 4e-7);
        assert_eq!(round_up(8e-9), 8e-9);
        assert_eq!(round_up(0.0), 0.0);
        assert_eq!(round_up(12.0), 20.0);
        assert!(leaves(Path::new("x.npz"), "x.npz").is_none());
    }
}
