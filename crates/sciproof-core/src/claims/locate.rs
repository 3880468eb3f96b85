//! Finding the value a claim is about: `$.key[0].name` in a JSON document (keys that contain
//! dots cannot be addressed: `$.a.b` is key `b` of key `a`, never a key named `a.b`), `rNcM` in
//! a CSV or TSV file (streamed), `data[i, j]` in a `.npy` array and `member[i]` in a `.npz`
//! archive (read directly at the element's position).

use super::parse_array_location;
use crate::json::tape::Tape;
use crate::numeric::json::scalar;
use crate::numeric::value::Scalar;
use crate::numeric::{NumericError, csv, json, npy, npz};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Parsed JSON documents by path, so several claims on one output parse it once.
#[derive(Default)]
pub struct Documents {
    parsed: HashMap<PathBuf, Tape>,
}

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

fn segments(location: &str) -> Option<Vec<Segment<'_>>> {
    let mut rest = location.strip_prefix('$')?;
    let mut out = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            out.push(Segment::Key(&after[..end]));
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            out.push(Segment::Index(after[..end].parse().ok()?));
            rest = &after[end + 1..];
        } else {
            return None;
        }
    }
    Some(out)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl Documents {
    /// The value at `location` in the file `path` (declared as `output`): `Ok(None)` when the
    /// location is not in the file, an error when the file cannot be read.
    pub fn find(
        &mut self,
        path: &Path,
        output: &str,
        location: &str,
    ) -> Result<Option<Scalar>, NumericError> {
        let name = file_name(path);
        let lower = output.to_lowercase();
        if lower.ends_with(".json") {
            if !self.parsed.contains_key(path) {
                let doc = json::load(path, &name)?;
                self.parsed.insert(path.to_path_buf(), doc);
            }
            let mut node = self.parsed[path].root();
            for segment in segments(location).unwrap_or_default() {
                let next = match segment {
                    Segment::Key(k) => node.get(k),
                    Segment::Index(i) => node.index(i),
                };
                match next {
                    Some(n) => node = n,
                    None => return Ok(None),
                }
            }
            return Ok(scalar(node));
        }
        if lower.ends_with(".csv") || lower.ends_with(".tsv") {
            let (row, col) = location[1..].split_once('c').unwrap_or(("", ""));
            // `r01c1` is syntactically allowed but never a cell (the reference's locations are
            // written without leading zeros)
            let canonical = |s: &str| s == "0" || !s.starts_with('0');
            let (Ok(row), Ok(col)) = (row.parse::<u64>(), col.parse::<usize>()) else {
                return Ok(None);
            };
            let parts = location[1..].split_once('c').unwrap_or(("", ""));
            if !(canonical(parts.0) && canonical(parts.1)) {
                return Ok(None);
            }
            return csv::cell_at(path, &name, lower.ends_with(".tsv"), row, col);
        }
        let Some((member, index)) = parse_array_location(location) else {
            return Ok(None);
        };
        if lower.ends_with(".npy") {
            npy::element_at(path, &name, &index)
        } else {
            npz::element_at(path, &name, member, &index)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_with_dots_cannot_be_addressed() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        std::fs::write(
            &p,
            r#"{"a.b": 1, "a": {"b": 2}, "l": [10, {"x": true}], "o": {}}"#,
        )
        .unwrap();
        let mut docs = Documents::default();
        let mut find = |loc: &str| docs.find(&p, "m.json", loc).unwrap();
        assert_eq!(find("$.a.b"), Some(Scalar::Int(2.into())));
        assert_eq!(find("$.l[1].x"), Some(Scalar::Bool(true)));
        assert_eq!(find("$.l[2]"), None);
        assert_eq!(find("$.o"), None, "an object is not a value");
        assert_eq!(find("$.missing"), None);
    }

    #[test]
    fn csv_cells_and_array_elements() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("t.csv");
        std::fs::write(&c, "id,loss\n1,0.25\n").unwrap();
        let mut docs = Documents::default();
        assert_eq!(
            docs.find(&c, "t.csv", "r1c1").unwrap(),
            Some(Scalar::Float(0.25))
        );
        assert_eq!(
            docs.find(&c, "t.csv", "r0c1").unwrap(),
            Some(Scalar::Str("loss".into()))
        );
        assert_eq!(docs.find(&c, "t.csv", "r01c1").unwrap(), None);
        assert_eq!(docs.find(&c, "t.csv", "r5c0").unwrap(), None);
        let data: Vec<u8> = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let f = crate::numeric::npy::tests::npy(dir.path(), "f.npy", "<f8", true, "(2, 3)", &data);
        // Fortran order: logical [[1, 3, 5], [2, 4, 6]]
        assert_eq!(
            docs.find(&f, "f.npy", "data[0, 1]").unwrap(),
            Some(Scalar::Float(3.0))
        );
        assert_eq!(
            docs.find(&f, "f.npy", "data[1, 2]").unwrap(),
            Some(Scalar::Float(6.0))
        );
        assert_eq!(docs.find(&f, "f.npy", "data[2, 0]").unwrap(), None);
        assert_eq!(docs.find(&f, "f.npy", "data[0]").unwrap(), None);
    }
}

#[cfg(test)]
mod property_tests {
    use super::*;
    use crate::claims::{Claim, Op, evaluate::evaluate};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_claim_is_judged_on_the_value_at_its_location(
            value in prop_oneof![any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| format!("{f:e}")), any::<i64>().prop_map(|i| i.to_string())],
            threshold in -1e6f64..1e6,
            op in prop_oneof![Just(Op::Lt), Just(Op::Ge), Just(Op::Eq), Just(Op::Ne), Just(Op::Approx)],
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("m.json");
            // The value among decoys, so that a wrong location gives another verdict.
            std::fs::write(
                &path,
                format!("{{\"a\": [{threshold}, {{\"x\": {value}, \"y\": -1e300}}], \"x\": 1e300}}"),
            )
            .unwrap();
            let claim = Claim {
                output: "m.json".into(),
                location: "$.a[1].x".into(),
                op,
                value: crate::json::Value::from(threshold),
                tolerance: (op == Op::Approx).then_some((1e-3, 0.0)),
                scale: None,
            };
            let mut docs = Documents::default();
            let found = docs.find(&path, "m.json", "$.a[1].x").unwrap();
            // What the claim says about the value itself, parsed directly.
            let direct = crate::numeric::json::scalar(
                crate::json::tape::Tape::parse(value.clone()).unwrap().root(),
            );
            prop_assert_eq!(&found, &direct);
            prop_assert_eq!(evaluate(&claim, found), evaluate(&claim, direct));
        }
    }
}
