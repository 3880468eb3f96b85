//! CSV and TSV outputs, read as Python's `csv.reader` reads them and compared as a stream.
//!
//! [`Parser`] is the core: a push parser with no I/O that mirrors CPython's `_csv.c` state
//! machine for the default ("excel") dialect in non-strict mode — delimiter `,` (TAB for
//! `.tsv`), quote `"`, doubled quotes inside quotes, CRLF, LF and lone CR all ending a record,
//! line breaks kept inside quoted fields, an unterminated quote running to the end of the file,
//! text after a closing quote appended, a blank line a row of no cells, fields of at most
//! 131,072 characters. [`RowReader`] feeds it from a file in chunks, validating UTF-8 on the
//! way, so memory stays constant whatever the file size. [`compare_files`] parses the recorded
//! and the found file on two threads and compares row by row.
//!
//! Leaves: `rows` (the row count), `row<r>#cols` (cells in row r), `r<r>c<c>` (a cell). A cell
//! is a number when it has no `_` and Python's `float()` accepts it, otherwise text.

use super::NumericError;
use super::value::Scalar;
use crate::pyfmt::{parse_py_float, parse_py_float_ascii};
use std::path::Path;

mod compare;
mod parse;
mod read;

pub use compare::compare_files;
pub use parse::{FIELD_LIMIT, Parser, Row};
pub use read::RowReader;

/// A cell as a leaf value: a float when it has no `_` and Python's `float()` accepts it.
pub fn cell_value(cell: &[u8]) -> Scalar {
    let text = || String::from_utf8_lossy(cell).into_owned();
    let parsed = match parse_py_float_ascii(cell) {
        Some(answer) => answer,
        // digit separators make text (SciProof's rule; Python's float() would accept them)
        None if cell.contains(&b'_') => None,
        None => parse_py_float(&String::from_utf8_lossy(cell)),
    };
    match parsed {
        Some(f) => Scalar::Float(f),
        None => Scalar::Str(text()),
    }
}

/// Checks that a file reads as CSV/TSV (for capture): returns the number of rows.
pub fn validate(path: &Path, name: &str, tsv: bool) -> Result<u64, NumericError> {
    let mut reader = RowReader::open(path, name, tsv)?;
    let mut rows = 0;
    while !reader.is_done() {
        reader.read_chunk(&mut |_| rows += 1)?;
    }
    Ok(rows)
}

/// The cell at row `row`, column `col` of a file, read as a stream (for claims).
pub fn cell_at(
    path: &Path,
    name: &str,
    tsv: bool,
    row: u64,
    col: usize,
) -> Result<Option<Scalar>, NumericError> {
    let mut reader = RowReader::open(path, name, tsv)?;
    let mut r = 0;
    let mut found = None;
    while !reader.is_done() && r <= row {
        reader.read_chunk(&mut |cells| {
            if r == row {
                found = cells.fields().nth(col).map(cell_value);
            }
            r += 1;
        })?;
    }
    Ok(found)
}

/// CSV (`,`) or TSV (TAB) files, read as Python's `csv.reader` reads them.
pub struct Delimited {
    tsv: bool,
}

/// `.csv` files.
pub static CSV: Delimited = Delimited { tsv: false };
/// `.tsv` files.
pub static TSV: Delimited = Delimited { tsv: true };

impl super::format::NumericFormat for Delimited {
    fn suffixes(&self) -> &'static [&'static str] {
        if self.tsv { &[".tsv"] } else { &[".csv"] }
    }
    fn media_type(&self) -> &'static str {
        if self.tsv {
            "text/tab-separated-values"
        } else {
            "text/csv"
        }
    }
    fn reference_reads_claims(&self) -> bool {
        !self.tsv
    }
    fn validate(&self, path: &Path, name: &str) -> Result<(), NumericError> {
        validate(path, name, self.tsv).map(|_| ())
    }
    fn compare(
        &self,
        pair: &super::format::Pair,
        rtol: f64,
        atol: f64,
    ) -> Result<super::Comparison, NumericError> {
        compare_files(pair, self.tsv, rtol, atol)
    }
    fn grouped_by(&self) -> super::stats::GroupBy {
        super::stats::GroupBy::Column
    }
    fn valid_location(&self, location: &str) -> bool {
        is_csv_location(location)
    }
    fn location_example(&self) -> &'static str {
        "r2c1"
    }
    /// `rNcM` (row 0 is the header line), read as a stream. `r01c1` is syntactically allowed
    /// but never a cell (the reference's locations are written without leading zeros).
    fn value_at(
        &self,
        _documents: &mut super::format::Documents,
        path: &Path,
        name: &str,
        location: &str,
    ) -> Result<Option<Scalar>, NumericError> {
        let Some(rest) = location.strip_prefix('r') else {
            return Ok(None);
        };
        let (row, col) = rest.split_once('c').unwrap_or(("", ""));
        let canonical = |s: &str| s == "0" || !s.starts_with('0');
        if !(canonical(row) && canonical(col)) {
            return Ok(None);
        }
        let (Ok(row), Ok(col)) = (row.parse::<u64>(), col.parse::<usize>()) else {
            return Ok(None);
        };
        cell_at(path, name, self.tsv, row, col)
    }
    /// sciproof's own `cell` kind (row 0 is the header line, columns by position: repro has no
    /// such address, so it reads a match on one as not-checked, which is safe).
    fn address(&self, location: &str) -> Option<crate::json::Object> {
        let (row, col) = location.strip_prefix('r')?.split_once('c')?;
        Some(
            crate::json::Object::new()
                .with("column", col.parse::<u64>().ok()?)
                .with("contract", 1i64)
                .with("kind", "cell")
                .with("row", row.parse::<u64>().ok()?),
        )
    }
}

/// `r<digits>c<digits>`: the location syntax of CSV/TSV claims.
fn is_csv_location(location: &str) -> bool {
    let Some(rest) = location.strip_prefix('r') else {
        return false;
    };
    let Some((row, col)) = rest.split_once('c') else {
        return false;
    };
    !row.is_empty()
        && !col.is_empty()
        && row.bytes().all(|b| b.is_ascii_digit())
        && col.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Result<Vec<Vec<String>>, String> {
        let mut p = Parser::new(b',');
        let mut out = Vec::new();
        let mut keep = |r: Row| {
            out.push(
                r.fields()
                    .map(|f| String::from_utf8(f.to_vec()).unwrap())
                    .collect(),
            )
        };
        // feed in small pieces to exercise chunk boundaries
        for piece in text.as_bytes().chunks(3) {
            p.feed(piece, &mut keep)?;
        }
        p.finish(&mut keep)?;
        Ok(out)
    }

    fn v(items: &[&[&str]]) -> Vec<Vec<String>> {
        items
            .iter()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn python_csv_reader_behaviour() {
        assert_eq!(rows("a,b\n1,2\n").unwrap(), v(&[&["a", "b"], &["1", "2"]]));
        assert_eq!(rows("a,b\r\n1,2").unwrap(), v(&[&["a", "b"], &["1", "2"]]));
        assert_eq!(rows("a\rb\r").unwrap(), v(&[&["a"], &["b"]]));
        assert_eq!(rows("a\n\nb\n").unwrap(), v(&[&["a"], &[], &["b"]]));
        assert_eq!(rows("a,\n").unwrap(), v(&[&["a", ""]]));
        assert_eq!(
            rows("\"x,y\",\"he said \"\"hi\"\"\"\n").unwrap(),
            v(&[&["x,y", "he said \"hi\""]])
        );
        assert_eq!(
            rows("\"multi\nline\",2\n").unwrap(),
            v(&[&["multi\nline", "2"]])
        );
        assert_eq!(rows("a\"b,\"x\"y\n").unwrap(), v(&[&["a\"b", "xy"]]));
        assert_eq!(
            rows("\"open\nto the end").unwrap(),
            v(&[&["open\nto the end"]])
        );
        assert_eq!(rows("").unwrap(), Vec::<Vec<String>>::new());
        assert_eq!(
            rows("\u{feff}h1,h2\n").unwrap(),
            v(&[&["\u{feff}h1", "h2"]])
        );
        assert_eq!(rows("a\0b\n").unwrap(), v(&[&["a\0b"]]));
        assert_eq!(rows("x,\"\"\n").unwrap(), v(&[&["x", ""]]));
    }

    fn parse_with(text: &[u8], fast: bool, piece: usize) -> Result<Vec<Vec<Vec<u8>>>, String> {
        let mut p = Parser::new(b',');
        p.fast_lines = fast;
        let mut out = Vec::new();
        let mut keep = |r: Row| out.push(r.fields().map(<[u8]>::to_vec).collect());
        for chunk in text.chunks(piece.max(1)) {
            p.feed(chunk, &mut keep)?;
        }
        p.finish(&mut keep)?;
        Ok(out)
    }

    /// [`parse_with`] with the rows kept by the parser and taken after every piece.
    fn parse_batched(text: &[u8], piece: usize) -> Result<Vec<Vec<Vec<u8>>>, String> {
        let mut p = Parser::batched(b',');
        let mut out = Vec::new();
        let (mut bytes, mut ends, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
        let mut take = |p: &mut Parser, out: &mut Vec<Vec<Vec<u8>>>| {
            p.take_rows(&mut bytes, &mut ends, &mut lengths);
            let (mut start, mut field) = (0, 0);
            for &n in &lengths {
                let row = ends[field..field + n]
                    .iter()
                    .map(|&end| {
                        let cell = bytes[start..end].to_vec();
                        start = end;
                        cell
                    })
                    .collect();
                field += n;
                out.push(row);
            }
        };
        for chunk in text.chunks(piece.max(1)) {
            p.feed(chunk, &mut |_| panic!("a batched parser hands out no row"))?;
            take(&mut p, &mut out);
        }
        p.finish(&mut |_| panic!("a batched parser hands out no row"))?;
        take(&mut p, &mut out);
        Ok(out)
    }

    proptest::proptest! {
        #[test]
        fn the_whole_line_fast_path_agrees_with_the_state_machine(text in "[a1,\"\r\n ]{0,40}", piece in 1usize..50) {
            let slow = parse_with(text.as_bytes(), false, 1);
            proptest::prop_assert_eq!(parse_with(text.as_bytes(), true, piece), slow.clone());
            proptest::prop_assert_eq!(parse_batched(text.as_bytes(), piece), slow.clone());
            proptest::prop_assert_eq!(parse_with(text.as_bytes(), true, text.len()), slow);
        }

        #[test]
        fn the_fast_paths_agree_with_the_state_machine_on_long_texts(
            text in "([a1,\n]{0,150}|\"|\r){0,6}",
            piece in 1usize..400,
        ) {
            // Mostly lines without quotes or CRs, long enough to span several of the blocks
            // the fastest path scans at a time, with the odd quote or CR between them.
            let slow = parse_with(text.as_bytes(), false, 1);
            proptest::prop_assert_eq!(parse_with(text.as_bytes(), true, piece), slow.clone());
            proptest::prop_assert_eq!(parse_batched(text.as_bytes(), piece), slow.clone());
            proptest::prop_assert_eq!(parse_with(text.as_bytes(), true, text.len()), slow);
        }
    }

    #[test]
    fn field_limit() {
        let long = "x".repeat(FIELD_LIMIT + 1);
        assert_eq!(
            rows(&long).unwrap_err(),
            "is not valid CSV: field larger than field limit (131072)"
        );
        assert!(rows(&"é".repeat(FIELD_LIMIT)).is_ok());
    }

    #[test]
    fn csv_cells_that_python_float_accepts_are_numbers() {
        let cell = |s: &str| cell_value(s.as_bytes());
        assert_eq!(cell("1e3"), Scalar::Float(1000.0));
        assert_eq!(cell("\u{a0}12\u{a0}"), Scalar::Float(12.0));
        assert_eq!(cell(" 2 "), Scalar::Float(2.0));
        assert_eq!(cell("1_000"), Scalar::Str("1_000".into()));
        assert_eq!(cell(""), Scalar::Str("".into()));
        assert_eq!(cell("0x10"), Scalar::Str("0x10".into()));
        assert_eq!(cell("١٢"), Scalar::Float(12.0));
        assert!(matches!(cell("-NaN"), Scalar::Float(f) if f.is_nan()));
    }
}
