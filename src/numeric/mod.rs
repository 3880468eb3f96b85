//! Numeric comparison of outputs (seed `numeric-comparison.txt`): a rerun's output against the
//! copy recorded at capture, with the tolerance rule for numbers and exact comparison for
//! everything else.
//!
//! One module per format: [`json`] (whole document, structural), [`csv`] (CSV and TSV, streamed
//! on two threads), [`npy`] (`.npy` arrays, streamed, never unpickled) and [`npz`] (archives of
//! `.npy` members). [`rule`] holds the tolerance rule, [`diff`] the difference records and the
//! "ten, then a summary" collector.

pub mod csv;
pub mod diff;
pub mod json;
pub mod npy;
pub mod npz;
pub mod rule;
pub mod value;

pub use diff::{Difference, Kind};
pub use rule::RULE_TEXT;

use std::path::Path;
use thiserror::Error;

/// A file that cannot be compared numerically. The message is complete and names the file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct NumericError(pub String);

impl NumericError {
    /// An I/O error while reading `name`.
    pub fn io(name: &str, e: &std::io::Error) -> Self {
        NumericError(format!("cannot read {name}: {}", crate::error::strerror(e)))
    }
}

/// The formats numeric comparison understands, by suffix (case-insensitive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv,
    Tsv,
    Npy,
    Npz,
}

impl Format {
    /// The format of `file_name`, or the error the reference gives for other suffixes.
    pub fn of(file_name: &str) -> Result<Format, NumericError> {
        let lower = file_name.to_lowercase();
        let format = if lower.ends_with(".json") {
            Format::Json
        } else if lower.ends_with(".csv") {
            Format::Csv
        } else if lower.ends_with(".tsv") {
            Format::Tsv
        } else if lower.ends_with(".npy") {
            Format::Npy
        } else if lower.ends_with(".npz") {
            Format::Npz
        } else {
            return Err(NumericError(format!(
                "numeric comparison supports .json, .csv, .tsv, .npy and .npz files, got {}",
                crate::pyfmt::str_repr(file_name)
            )));
        };
        Ok(format)
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
    match Format::of(&name)? {
        Format::Json => json::load(path, &name).map(|_| ()),
        Format::Csv => csv::validate(path, &name, false).map(|_| ()),
        Format::Tsv => csv::validate(path, &name, true).map(|_| ()),
        Format::Npy => npy::validate(path, &name),
        Format::Npz => npz::validate(path, &name),
    }
}

/// Compares the recorded copy `recorded` with the found file `found` (the declared output
/// `display` decides the format and names `.npz` members). Returns the differences (empty when
/// equivalent), at most ten and a summary line.
pub fn compare_files(
    recorded: &Path,
    found: &Path,
    display: &str,
    rtol: f64,
    atol: f64,
) -> Result<Vec<Difference>, NumericError> {
    let recorded_name = file_name(recorded);
    let found_name = file_name(found);
    let display_name = display.rsplit('/').next().unwrap_or(display).to_string();
    match Format::of(&display_name)? {
        Format::Json => {
            let e = json::load(recorded, &recorded_name)?;
            let a = json::load(found, &found_name)?;
            Ok(json::compare(&e, &a, rtol, atol))
        }
        Format::Csv => csv::compare_files(
            recorded,
            found,
            &recorded_name,
            &found_name,
            false,
            rtol,
            atol,
        ),
        Format::Tsv => csv::compare_files(
            recorded,
            found,
            &recorded_name,
            &found_name,
            true,
            rtol,
            atol,
        ),
        Format::Npy => {
            npy::compare_files(recorded, found, &recorded_name, &found_name, "", rtol, atol)
        }
        Format::Npz => npz::compare_files(
            recorded,
            found,
            &recorded_name,
            &found_name,
            &display_name,
            rtol,
            atol,
        ),
    }
}
