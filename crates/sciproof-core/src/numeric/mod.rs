//! Numeric comparison of outputs (seed `numeric-comparison.txt`): a rerun's output against the
//! copy recorded at capture, with the tolerance rule for numbers and exact comparison for
//! everything else.
//!
//! One module per format, each implementing [`NumericFormat`] and listed in [`format::FORMATS`]:
//! [`json`] (whole document, structural), [`csv`] (CSV and TSV, streamed on two threads),
//! [`npy`] (`.npy` arrays, streamed, never unpickled) and [`npz`] (archives of `.npy` members). [`rule`] holds the tolerance rule, [`diff`] the difference records and the
//! "ten, then a summary" collector.

pub mod csv;
pub mod diff;
pub mod format;
pub mod json;
pub mod npy;
pub mod npz;
pub mod rule;
pub mod spread;
pub mod stats;
pub mod value;

pub use diff::{Difference, Kind};
pub use format::{Documents, NumericFormat, Pair, format_of};
pub use rule::RULE_TEXT;
pub use stats::{Case, Comparison};

use std::path::Path;
use thiserror::Error;

/// The comparison of two files whose bytes are the same, without reading them: bit-identical
/// (the statistics count nothing). The declared output `display` decides the format, as in
/// [`compare_files`].
pub fn byte_identical(display: &str) -> Result<Comparison, NumericError> {
    let name = display.rsplit('/').next().unwrap_or(display);
    Ok(Comparison::byte_identical(format_of(name)?.grouped_by()))
}

/// A file that cannot be compared numerically. The message is complete and names the file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct NumericError(pub String);

impl NumericError {
    /// An I/O error while reading `name`.
    pub fn io(name: &str, e: &std::io::Error) -> Self {
        NumericError(format!("cannot read {name}: {}", crate::error::strerror(e)))
    }

    /// A comparison stopped on request (see [`format::Pair::stop`]); never shown to a user.
    pub fn stopped() -> Self {
        NumericError("the comparison was stopped".into())
    }
}

/// Decodes UTF-8 with the reference's wording for the error.
pub(crate) fn utf8<'a>(bytes: &'a [u8], name: &str) -> Result<&'a str, NumericError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        NumericError(format!(
            "cannot read {name} as UTF-8 text: invalid byte 0x{:02x} at position {at}",
            bytes.get(at).copied().unwrap_or(0)
        ))
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Checks that `path` can be compared numerically (capture refuses outputs that cannot):
/// a known suffix, valid content, no repeated JSON keys, a plain numeric `.npy`.
pub fn check_file(path: &Path) -> Result<(), NumericError> {
    let name = file_name(path);
    format_of(&name)?.validate(path, &name)
}

/// Compares the recorded copy `recorded` with the found file `found` (the declared output
/// `display` decides the format and names `.npz` members). Returns the differences (empty when
/// equivalent), at most ten and a summary line, with the statistics of every value compared.
pub fn compare_files(
    recorded: &Path,
    found: &Path,
    display: &str,
    rtol: f64,
    atol: f64,
) -> Result<Comparison, NumericError> {
    compare_files_until(recorded, found, display, rtol, atol, None)
}

/// [`compare_files`], which may stop early (with [`NumericError::stopped`]) once `stop` is set.
pub fn compare_files_until(
    recorded: &Path,
    found: &Path,
    display: &str,
    rtol: f64,
    atol: f64,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Comparison, NumericError> {
    let display_name = display.rsplit('/').next().unwrap_or(display).to_string();
    let pair = Pair {
        recorded,
        found,
        recorded_name: &file_name(recorded),
        found_name: &file_name(found),
        display_name: &display_name,
        stop,
    };
    format_of(&display_name)?.compare(&pair, rtol, atol)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn compare(e: &str, a: &str, name: &str) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let (pe, pa) = (
            write(dir.path(), &format!("e-{name}"), e),
            write(dir.path(), name, a),
        );
        compare_files(&pe, &pa, name, 1e-9, 0.0)
            .unwrap()
            .differences
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    fn statistics(e: &str, a: &str, name: &str, rtol: f64, atol: f64) -> Comparison {
        let dir = tempfile::tempdir().unwrap();
        let (pe, pa) = (
            write(dir.path(), &format!("e-{name}"), e),
            write(dir.path(), name, a),
        );
        compare_files(&pe, &pa, name, rtol, atol).unwrap()
    }

    #[test]
    fn a_csv_comparison_asked_to_stop_returns_without_a_result() {
        let dir = tempfile::tempdir().unwrap();
        let text = "a,b\n1,2\n".repeat(10);
        let (pe, pa) = (
            write(dir.path(), "e-x.csv", &text),
            write(dir.path(), "x.csv", &text),
        );
        let stop = std::sync::atomic::AtomicBool::new(true);
        let stopped = compare_files_until(&pe, &pa, "x.csv", 1e-9, 0.0, Some(&stop));
        assert_eq!(stopped.unwrap_err(), NumericError::stopped());
        stop.store(false, std::sync::atomic::Ordering::Relaxed);
        assert!(compare_files_until(&pe, &pa, "x.csv", 1e-9, 0.0, Some(&stop)).is_ok());
    }

    #[test]
    fn a_json_comparison_asked_to_stop_returns_without_a_result() {
        let dir = tempfile::tempdir().unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        for text in [
            "[1, 2]".to_string(),
            format!("[{}]", vec!["{\"a\": [1.5]}"; 9000].join(",")),
        ] {
            let (pe, pa) = (
                write(dir.path(), "e-x.json", &text),
                write(dir.path(), "x.json", &text),
            );
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            let stopped = compare_files_until(&pe, &pa, "x.json", 1e-9, 0.0, Some(&stop));
            assert_eq!(stopped.unwrap_err(), NumericError::stopped());
            stop.store(false, std::sync::atomic::Ordering::Relaxed);
            assert!(compare_files_until(&pe, &pa, "x.json", 1e-9, 0.0, Some(&stop)).is_ok());
        }
    }

    fn summary(g: &stats::Group) -> (&str, u64, u64, u64) {
        (g.name.as_str(), g.values, g.identical, g.outside)
    }

    #[test]
    fn csv_statistics_are_per_column_named_by_the_header() {
        let c = statistics(
            "t,loss,acc\n0,1.0,0.5\n1,2.0,0.25\n2,3.0,0.125\n",
            "t,loss,acc\n0,1.00,0.5\n1,2.000000000001,0.25\n2,3.5,0.126\n",
            "t.csv",
            1e-9,
            0.0,
        );
        let s = &c.statistics;
        assert_eq!(s.grouped_by, stats::GroupBy::Column);
        let groups: Vec<_> = s.groups.iter().map(summary).collect();
        // 1.00 is another spelling of the bits of 1.0: bit-identical
        assert_eq!(
            groups,
            [
                ("c0 (column 't')", 4, 4, 0),
                ("c1 (column 'loss')", 4, 2, 1),
                ("c2 (column 'acc')", 4, 3, 1)
            ]
        );
        let loss = &s.groups[1];
        let abs = loss.largest_abs.as_ref().unwrap();
        assert_eq!(
            (abs.value, abs.location.as_str()),
            (0.5, "r3c1 (column 'loss')")
        );
        let closest = loss.closest.as_ref().unwrap();
        assert_eq!(closest.location, "r2c1 (column 'loss')");
        assert!(closest.value > 0.0 && closest.value < 1.0);
        let acc = s.groups[2].largest_rel.as_ref().unwrap();
        assert_eq!(acc.location, "r3c2 (column 'acc')");
        assert!((acc.value - 0.001 / 0.126).abs() < 1e-12);
        assert_eq!(c.case(), Case::Different);
        let total = s.total();
        assert_eq!((total.values, total.identical, total.outside), (12, 9, 2));
    }

    #[test]
    fn csv_statistics_count_only_cells_that_line_up() {
        // a number in the first row is not a column name
        let c = statistics("1,2\n", "1,3\n", "n.csv", 0.0, 0.0);
        assert_eq!(c.statistics.groups[1].name, "c1");
        // a longer row and an extra row: structure differs, the cells both have are compared
        let c = statistics("a\tb\n1\t2\n", "a\tb\tc\n1\t2\n3\t4\n", "t.tsv", 0.0, 0.0);
        let groups: Vec<_> = c.statistics.groups.iter().map(summary).collect();
        assert_eq!(
            groups,
            [("c0 (column 'a')", 2, 2, 0), ("c1 (column 'b')", 2, 2, 0)]
        );
        assert_eq!(c.case(), Case::Different);
        assert!(
            c.sentence()
                .starts_with("different in structure; the 4 values")
        );
    }

    #[test]
    fn csv_columns_from_the_ten_thousandth_on_share_one_group() {
        let row = |changed: bool| {
            (0..10_003)
                .map(|c| {
                    if changed && c == 10_001 {
                        "9".to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let e = format!("{}\n{}\n", row(false), row(false));
        let a = format!("{}\n{}\n", row(false), row(true));
        let c = statistics(&e, &a, "wide.csv", 0.0, 0.0);
        let groups = &c.statistics.groups;
        assert_eq!(groups.len(), 10_001);
        assert_eq!(summary(&groups[9_999]), ("c9999", 2, 2, 0));
        // three far columns in each of two rows, one of those cells different
        assert_eq!(
            summary(&groups[10_000]),
            ("c10000 and later columns", 6, 5, 1)
        );
        assert_eq!(
            groups[10_000].largest_abs.as_ref().unwrap().location,
            "r1c10001"
        );
    }

    #[test]
    fn json_statistics_are_per_key_path_with_list_indices_as_stars() {
        let c = statistics(
            r#"{"h": [{"loss": 1.0, "n": 1}, {"loss": 2.0, "n": 2}], "ok": true, "name": "x"}"#,
            r#"{"h": [{"loss": 1.0, "n": 1}, {"loss": 2.5, "n": 3}], "ok": 1, "name": "x"}"#,
            "r.json",
            1e-9,
            0.0,
        );
        let groups: Vec<_> = c.statistics.groups.iter().map(summary).collect();
        assert_eq!(
            groups,
            [
                ("$.h[*].loss", 2, 1, 1),
                ("$.h[*].n", 2, 1, 1),
                ("$.name", 1, 1, 0),
                ("$.ok", 1, 0, 1)
            ]
        );
        let n = c.statistics.groups[1].largest_abs.as_ref().unwrap();
        assert_eq!((n.value, n.location.as_str()), (1.0, "$.h[1].n"));
        assert_eq!(c.differences.len(), 3);
        assert_eq!(
            c.sentence(),
            "different: 3 of 6 values (50%) outside the tolerance, largest absolute error 1 at $.h[1].n, largest relative error 0.333 at $.h[1].n"
        );
        // the same document: bit-identical, whatever its spacing
        let c = statistics(
            r#"{"a": [1.0, 2]}"#,
            r#"{ "a" : [1.0,2] }"#,
            "r.json",
            0.0,
            0.0,
        );
        assert_eq!(c.case(), Case::BitIdentical);
        assert_eq!(c.sentence(), "bit-identical: all 2 values");
    }

    #[test]
    fn csv_row_and_cell_counts_must_match_and_the_comparison_goes_on() {
        assert_eq!(
            compare("a,b\n1,2\n3,4\n", "a,b\n1,2,9\n3,5\n", "t.csv"),
            [
                "structure differs: 10 values recorded, 11 found",
                "row1#cols: recorded 2, found 3",
                "r2c1 (column 'b'): recorded 4.0, found 5.0 (rtol=1e-09, atol=0.0)",
            ]
        );
        assert_eq!(
            compare("a\n1\n", "a\n1\n2\n", "t.csv"),
            [
                "structure differs: 5 values recorded, 7 found",
                "rows: recorded 2, found 3"
            ]
        );
    }

    #[test]
    fn csv_has_no_header_matching_and_no_sorting() {
        // a renamed or reordered column is a difference; so are reordered rows
        assert_eq!(
            compare("a,b\n1,2\n", "b,a\n1,2\n", "t.csv"),
            [
                "r0c0: recorded 'a', found 'b'",
                "r0c1: recorded 'b', found 'a'"
            ]
        );
        assert_eq!(compare("x\n1\n2\n", "x\n2\n1\n", "t.csv").len(), 2);
    }

    #[test]
    fn tsv_uses_tabs_and_csv_integers_use_the_tolerance() {
        assert!(compare("n\t100\n", "n\t100.00000000001\n", "t.tsv").is_empty());
        assert_eq!(
            compare("n\t100\n", "n\t101\n", "t.tsv"),
            ["r0c1: recorded 100.0, found 101.0 (rtol=1e-09, atol=0.0)"]
        );
    }

    #[test]
    fn a_file_that_cannot_be_compared_is_an_error_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let e = write(dir.path(), "e.txt", "1");
        assert!(
            compare_files(&e, &e, "r.txt", 0.0, 0.0)
                .unwrap_err()
                .0
                .contains("got 'r.txt'")
        );
        let big = dir.path().join("big.json");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(1 << 30)
            .unwrap(); // sparse: 1 GiB, one line
        assert!(
            check_file(&big)
                .unwrap_err()
                .0
                .contains("larger than the JSON comparison limit")
        );
        let bad = dir.path().join("bad.csv");
        std::fs::write(&bad, b"a,b\n1,\xff\n").unwrap();
        assert_eq!(
            check_file(&bad).unwrap_err().0,
            "cannot read bad.csv as UTF-8 text: invalid byte 0xff at position 6"
        );
    }
}
