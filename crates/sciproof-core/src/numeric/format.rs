//! The numeric file formats behind one trait: each format implements [`NumericFormat`] in its
//! own module ([`super::json`], [`super::csv`] for CSV and TSV, [`super::npy`], [`super::npz`]),
//! and [`FORMATS`] lists them. Everything that depends on a file's type (capture's validation,
//! the rerun comparison, claim locations and their values, crate addresses and media types)
//! asks the format of the file's name here; no other code matches a suffix.
//!
//! A new numeric file type is one module implementing the trait and one line in [`FORMATS`].

use super::stats::{Comparison, GroupBy};
use super::value::Scalar;
use super::{NumericError, csv, json, npy, npz};
use crate::json::Object;
use crate::json::tape::Tape;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The two files of a comparison: the copy recorded at capture and the file found now.
pub struct Pair<'a> {
    /// The recorded copy.
    pub recorded: &'a Path,
    /// The file found now.
    pub found: &'a Path,
    /// The recorded copy's file name, for messages.
    pub recorded_name: &'a str,
    /// The found file's name, for messages.
    pub found_name: &'a str,
    /// The declared output's file name (names `.npz` members in differences).
    pub display_name: &'a str,
    /// Set by another thread when the comparison is no longer needed (the found file turned
    /// out byte for byte the recorded one): a format may then stop early with
    /// [`NumericError::stopped`](super::NumericError::stopped).
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
}

impl Pair<'_> {
    /// Whether the comparison was asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// Files read for claims, by path, so several claims on one output read it once.
#[derive(Default)]
pub struct Documents {
    /// JSON documents, parsed onto tapes.
    pub(crate) json: HashMap<PathBuf, Tape>,
}

impl Documents {
    /// The value at `location` in the file `path`, declared as the output `output` (whose
    /// name decides the format): `Ok(None)` when the location is not in the file, an error
    /// when the file cannot be read or its type is not a numeric one.
    pub fn find(
        &mut self,
        path: &Path,
        output: &str,
        location: &str,
    ) -> Result<Option<Scalar>, NumericError> {
        let format = format_of(output).map_err(|e| NumericError(e.0))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        format.value_at(self, path, &name, location)
    }
}

/// One numeric file format: how files of it are recognised, checked, compared, and addressed
/// by claims.
pub trait NumericFormat: Sync {
    /// The suffixes of its files, lower case with the dot (`.csv`); matched case-insensitively.
    fn suffixes(&self) -> &'static [&'static str];

    /// The IANA media type of its files (the `encodingFormat` of crates).
    fn media_type(&self) -> &'static str;

    /// Whether the Python reference (sciproof 0.4.1) reads claims on files of this format (a
    /// manifest with claims on other formats is refused by it as invalid).
    fn reference_reads_claims(&self) -> bool;

    /// Checks that the file can be compared later (capture refuses one that cannot).
    fn validate(&self, path: &Path, name: &str) -> Result<(), NumericError>;

    /// Compares the recorded copy with the file found: the differences (empty when
    /// equivalent), at most ten and a summary line, and the statistics of every value.
    fn compare(&self, pair: &Pair, rtol: f64, atol: f64) -> Result<Comparison, NumericError>;

    /// What a group of statistics is in this format (for files compared byte for byte).
    fn grouped_by(&self) -> GroupBy;

    /// Whether `location` is a location in files of this format (its syntax only).
    fn valid_location(&self, location: &str) -> bool;

    /// An example location, for messages.
    fn location_example(&self) -> &'static str;

    /// A location as a user typed it, in the form manifests and difference reports use
    /// (`None`: keep it as typed).
    fn canonical_location(&self, _location: &str) -> Option<String> {
        None
    }

    /// The value at `location` of the file at `path` (`Ok(None)`: not in the file).
    fn value_at(
        &self,
        documents: &mut Documents,
        path: &Path,
        name: &str,
        location: &str,
    ) -> Result<Option<Scalar>, NumericError>;

    /// The claim-check address object of a location (`None` when it has none).
    fn address(&self, location: &str) -> Option<Object>;
}

/// Every numeric format, in the order messages list them.
pub static FORMATS: [&dyn NumericFormat; 5] =
    [&json::Json, &csv::CSV, &csv::TSV, &npy::Npy, &npz::Npz];

/// The format of the file named `file_name` (by its suffix, case-insensitively), if any.
pub fn lookup(file_name: &str) -> Option<&'static dyn NumericFormat> {
    let lower = file_name.to_lowercase();
    FORMATS
        .iter()
        .copied()
        .find(|f| f.suffixes().iter().any(|s| lower.ends_with(s)))
}

/// `.json, .csv, .tsv, .npy and .npz`: every supported suffix, for messages.
pub fn suffix_list() -> String {
    let all: Vec<&str> = FORMATS.iter().flat_map(|f| f.suffixes()).copied().collect();
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// [`lookup`], or the error the reference gives for other suffixes.
pub fn format_of(file_name: &str) -> Result<&'static dyn NumericFormat, NumericError> {
    lookup(file_name).ok_or_else(|| {
        NumericError(format!(
            "numeric comparison supports {} files, got {}",
            suffix_list(),
            crate::pyfmt::str_repr(file_name)
        ))
    })
}

/// The media type of a file, from its name (`application/octet-stream` when it is not a
/// numeric format).
pub fn media_type(file_name: &str) -> &'static str {
    lookup(file_name).map_or("application/octet-stream", |f| f.media_type())
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

    #[test]
    fn every_suffix_names_exactly_one_format() {
        assert_eq!(suffix_list(), ".json, .csv, .tsv, .npy and .npz");
        for f in FORMATS {
            for s in f.suffixes() {
                let upper = format!("x{}", s.to_uppercase());
                let found = lookup(&upper).expect("upper case");
                assert!(std::ptr::addr_eq(found, f), "{s}");
            }
        }
        assert!(lookup("x.txt").is_none());
        assert!(matches!(format_of("x.txt"), Err(e) if e.0.contains("supports .json, .csv")));
    }
}
