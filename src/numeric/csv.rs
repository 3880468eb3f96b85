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
use super::diff::{Collector, Difference, Kind};
use super::rule::{compare_values, numbers_close};
use super::value::{Scalar, short};
use crate::pyfmt::{parse_py_float, str_repr};
use num_bigint::BigInt;
use std::io::Read;
use std::path::Path;
use std::sync::mpsc;

/// Python's default `csv.field_size_limit()`.
pub const FIELD_LIMIT: usize = 131_072;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    StartRecord,
    StartField,
    InField,
    InQuotedField,
    QuoteInQuotedField,
    EatCrNl,
}

/// The push parser (no I/O). Feed it text in pieces with [`Parser::feed`]; it hands out
/// complete rows of raw cell text.
pub struct Parser {
    delimiter: u8,
    state: State,
    field: Vec<u8>,
    field_chars: usize,
    fields: Vec<String>,
    /// The previous byte was a CR that ended a line; a following LF belongs to the same line end.
    after_cr: bool,
    format_name: &'static str,
}

impl Parser {
    /// A parser for `,` (CSV) or TAB (TSV) separated text.
    pub fn new(delimiter: u8) -> Self {
        Parser {
            delimiter,
            state: State::StartRecord,
            field: Vec::new(),
            field_chars: 0,
            fields: Vec::new(),
            after_cr: false,
            format_name: if delimiter == b'\t' { "TSV" } else { "CSV" },
        }
    }

    fn save_field(&mut self) {
        // The input was validated as UTF-8 and fields split only at ASCII bytes.
        let text = String::from_utf8(std::mem::take(&mut self.field)).unwrap_or_default();
        self.fields.push(text);
        self.field_chars = 0;
    }

    fn add(&mut self, c: u8) -> Result<(), String> {
        if c & 0xC0 != 0x80 {
            if self.field_chars >= FIELD_LIMIT {
                return Err(format!("field larger than field limit ({FIELD_LIMIT})"));
            }
            self.field_chars += 1;
        }
        self.field.push(c);
        Ok(())
    }

    /// One character (byte) of a line; `None` is the end of a line (Python's `EOL`).
    fn process(&mut self, c: Option<u8>, row: &mut Option<Vec<String>>) -> Result<(), String> {
        let is_newline = matches!(c, Some(b'\n' | b'\r'));
        let eol = c.is_none();
        loop {
            match self.state {
                State::StartRecord => {
                    if eol {
                        // an empty line: a record of no fields
                    } else if is_newline {
                        self.state = State::EatCrNl;
                        return Ok(());
                    } else {
                        self.state = State::StartField;
                        continue;
                    }
                }
                State::StartField => {
                    if is_newline || eol {
                        self.save_field();
                        self.state = if eol {
                            State::StartRecord
                        } else {
                            State::EatCrNl
                        };
                    } else if c == Some(b'"') {
                        self.state = State::InQuotedField;
                    } else if c == Some(self.delimiter) {
                        self.save_field();
                    } else {
                        self.add(c.unwrap_or_default())?;
                        self.state = State::InField;
                    }
                }
                State::InField => {
                    if is_newline || eol {
                        self.save_field();
                        self.state = if eol {
                            State::StartRecord
                        } else {
                            State::EatCrNl
                        };
                    } else if c == Some(self.delimiter) {
                        self.save_field();
                        self.state = State::StartField;
                    } else {
                        self.add(c.unwrap_or_default())?;
                    }
                }
                State::InQuotedField => {
                    if eol {
                    } else if c == Some(b'"') {
                        self.state = State::QuoteInQuotedField;
                    } else {
                        self.add(c.unwrap_or_default())?;
                    }
                }
                State::QuoteInQuotedField => {
                    if c == Some(b'"') {
                        self.add(b'"')?;
                        self.state = State::InQuotedField;
                    } else if c == Some(self.delimiter) {
                        self.save_field();
                        self.state = State::StartField;
                    } else if is_newline || eol {
                        self.save_field();
                        self.state = if eol {
                            State::StartRecord
                        } else {
                            State::EatCrNl
                        };
                    } else {
                        self.add(c.unwrap_or_default())?;
                        self.state = State::InField;
                    }
                }
                State::EatCrNl => {
                    if is_newline {
                    } else if eol {
                        self.state = State::StartRecord;
                    } else {
                        return Err("new-line character seen in unquoted field - do you need to open the file with newline=''?".into());
                    }
                }
            }
            break;
        }
        if eol && self.state == State::StartRecord {
            *row = Some(std::mem::take(&mut self.fields));
        }
        Ok(())
    }

    fn error(&self, message: String) -> String {
        format!("is not valid {}: {message}", self.format_name)
    }

    /// Feeds valid UTF-8 text; calls `on_row` for every completed row.
    pub fn feed(&mut self, text: &[u8], on_row: &mut dyn FnMut(Vec<String>)) -> Result<(), String> {
        let mut row = None;
        for &c in text {
            if self.after_cr {
                self.after_cr = false;
                if c == b'\n' {
                    self.process(Some(b'\n'), &mut row)
                        .map_err(|m| self.error(m))?;
                    self.process(None, &mut row).map_err(|m| self.error(m))?;
                    if let Some(r) = row.take() {
                        on_row(r);
                    }
                    continue;
                }
                self.process(None, &mut row).map_err(|m| self.error(m))?;
                if let Some(r) = row.take() {
                    on_row(r);
                }
            }
            match c {
                b'\r' => {
                    self.process(Some(c), &mut row).map_err(|m| self.error(m))?;
                    self.after_cr = true;
                }
                b'\n' => {
                    self.process(Some(c), &mut row).map_err(|m| self.error(m))?;
                    self.process(None, &mut row).map_err(|m| self.error(m))?;
                }
                _ => {
                    // Fast path: plain bytes inside a field.
                    if self.state == State::InField && c != self.delimiter {
                        self.add(c).map_err(|m| self.error(m))?;
                        continue;
                    }
                    self.process(Some(c), &mut row).map_err(|m| self.error(m))?;
                }
            }
            if let Some(r) = row.take() {
                on_row(r);
            }
        }
        Ok(())
    }

    /// Ends the input: a last line without a line break, or an unterminated quoted field.
    pub fn finish(&mut self, on_row: &mut dyn FnMut(Vec<String>)) -> Result<(), String> {
        let mut row = None;
        if self.after_cr {
            self.after_cr = false;
            self.process(None, &mut row).map_err(|m| self.error(m))?;
            if let Some(r) = row.take() {
                on_row(r);
            }
        }
        // A partial last line still needs its end-of-line event.
        if matches!(
            self.state,
            State::StartField | State::InField | State::QuoteInQuotedField
        ) {
            self.process(None, &mut row).map_err(|m| self.error(m))?;
            if let Some(r) = row.take() {
                on_row(r);
            }
        }
        if !self.field.is_empty() || self.state == State::InQuotedField {
            self.save_field();
            self.state = State::StartRecord;
            on_row(std::mem::take(&mut self.fields));
        }
        Ok(())
    }
}

/// A cell as a leaf value: a float when it has no `_` and Python's `float()` accepts it.
pub fn cell_value(cell: String) -> Scalar {
    if cell.contains('_') {
        return Scalar::Str(cell);
    }
    match parse_py_float(&cell) {
        Some(f) => Scalar::Float(f),
        None => Scalar::Str(cell),
    }
}

/// Reads rows from a file in chunks (constant memory), validating UTF-8 as it goes.
pub struct RowReader {
    file: std::fs::File,
    parser: Parser,
    name: String,
    buffer: Vec<u8>,
    carry: Vec<u8>,
    position: u64,
    pending: std::collections::VecDeque<Vec<String>>,
    done: bool,
}

impl RowReader {
    /// Opens `path`; `name` is used in messages; TSV when `tsv`.
    pub fn open(path: &Path, name: &str, tsv: bool) -> Result<Self, NumericError> {
        let file = std::fs::File::open(path).map_err(|e| NumericError::io(name, &e))?;
        Ok(RowReader {
            file,
            parser: Parser::new(if tsv { b'\t' } else { b',' }),
            name: name.to_string(),
            buffer: vec![0; 1 << 20],
            carry: Vec::new(),
            position: 0,
            pending: Default::default(),
            done: false,
        })
    }

    fn fill(&mut self) -> Result<(), NumericError> {
        let n = self
            .file
            .read(&mut self.buffer)
            .map_err(|e| NumericError::io(&self.name, &e))?;
        let mut chunk = std::mem::take(&mut self.carry);
        chunk.extend_from_slice(&self.buffer[..n]);
        let pending = &mut self.pending;
        let mut push = |row: Vec<String>| pending.push_back(row);
        if n == 0 {
            if !chunk.is_empty() {
                return Err(utf8_error(&self.name, chunk[0], self.position));
            }
            self.parser
                .finish(&mut push)
                .map_err(|m| NumericError(format!("{} {m}", self.name)))?;
            self.done = true;
            return Ok(());
        }
        let valid = match std::str::from_utf8(&chunk) {
            Ok(_) => chunk.len(),
            Err(e) => {
                let at = e.valid_up_to();
                if e.error_len().is_some() {
                    return Err(utf8_error(&self.name, chunk[at], self.position + at as u64));
                }
                at // an incomplete character at the end: keep it for the next chunk
            }
        };
        self.parser
            .feed(&chunk[..valid], &mut push)
            .map_err(|m| NumericError(format!("{} {m}", self.name)))?;
        self.position += valid as u64;
        self.carry = chunk[valid..].to_vec();
        Ok(())
    }

    /// The next row, or `None` at the end.
    pub fn next_row(&mut self) -> Result<Option<Vec<String>>, NumericError> {
        while self.pending.is_empty() && !self.done {
            self.fill()?;
        }
        Ok(self.pending.pop_front())
    }
}

fn utf8_error(name: &str, byte: u8, position: u64) -> NumericError {
    NumericError(format!(
        "cannot read {name} as UTF-8 text: invalid byte 0x{byte:02x} at position {position}"
    ))
}

/// Checks that a file reads as CSV/TSV (for capture): returns the number of rows.
pub fn validate(path: &Path, name: &str, tsv: bool) -> Result<u64, NumericError> {
    let mut reader = RowReader::open(path, name, tsv)?;
    let mut rows = 0;
    while reader.next_row()?.is_some() {
        rows += 1;
    }
    Ok(rows)
}

/// A batch of parsed rows sent from a reading thread.
type Batch = Result<Vec<Vec<Scalar>>, NumericError>;

fn spawn_reader(path: &Path, name: &str, tsv: bool) -> Result<mpsc::Receiver<Batch>, NumericError> {
    let mut reader = RowReader::open(path, name, tsv)?;
    let (tx, rx) = mpsc::sync_channel::<Batch>(4);
    std::thread::spawn(move || {
        loop {
            let mut batch = Vec::with_capacity(2048);
            let mut end = false;
            while batch.len() < 2048 {
                match reader.next_row() {
                    Ok(Some(row)) => batch.push(row.into_iter().map(cell_value).collect()),
                    Ok(None) => {
                        end = true;
                        break;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
            if !batch.is_empty() && tx.send(Ok(batch)).is_err() {
                return;
            }
            if end {
                return;
            }
        }
    });
    Ok(rx)
}

struct Rows {
    rx: mpsc::Receiver<Batch>,
    batch: std::vec::IntoIter<Vec<Scalar>>,
}

impl Rows {
    fn next(&mut self) -> Result<Option<Vec<Scalar>>, NumericError> {
        loop {
            if let Some(row) = self.batch.next() {
                return Ok(Some(row));
            }
            match self.rx.recv() {
                Ok(batch) => self.batch = batch?.into_iter(),
                Err(_) => return Ok(None),
            }
        }
    }
}

/// Compares two CSV/TSV files row by row, each parsed on its own thread.
pub fn compare_files(
    recorded: &Path,
    found: &Path,
    recorded_name: &str,
    found_name: &str,
    tsv: bool,
    rtol: f64,
    atol: f64,
) -> Result<Vec<Difference>, NumericError> {
    let mut e_rows = Rows {
        rx: spawn_reader(recorded, recorded_name, tsv)?,
        batch: Vec::new().into_iter(),
    };
    let mut a_rows = Rows {
        rx: spawn_reader(found, found_name, tsv)?,
        batch: Vec::new().into_iter(),
    };
    let mut out = Collector::new();
    let mut headers: Vec<Option<String>> = Vec::new();
    let (mut rows_e, mut rows_a, mut cells_e, mut cells_a) = (0u64, 0u64, 0u64, 0u64);
    let mut e_done = false;
    let mut a_done = false;
    let mut r = 0u64;
    loop {
        let e = if e_done { None } else { e_rows.next()? };
        let a = if a_done { None } else { a_rows.next()? };
        e_done |= e.is_none();
        a_done |= a.is_none();
        if e.is_none() && a.is_none() {
            break;
        }
        if let Some(row) = &e {
            rows_e += 1;
            cells_e += row.len() as u64;
        }
        if let Some(row) = &a {
            rows_a += 1;
            cells_a += row.len() as u64;
        }
        if r == 0
            && let Some(row) = &e
        {
            headers = row
                .iter()
                .map(|c| {
                    if let Scalar::Str(s) = c {
                        Some(s.clone())
                    } else {
                        None
                    }
                })
                .collect();
        }
        if let (Some(er), Some(ar)) = (&e, &a) {
            if er.len() != ar.len() {
                let (le, la) = (
                    Scalar::Int(BigInt::from(er.len())),
                    Scalar::Int(BigInt::from(ar.len())),
                );
                if let Some(d) = compare_values(&format!("row{r}#cols"), &le, &la, rtol, atol) {
                    out.push(d);
                }
            }
            for (c, (ev, av)) in er.iter().zip(ar).enumerate() {
                let same = match (ev, av) {
                    (Scalar::Float(x), Scalar::Float(y)) => numbers_close(*x, *y, rtol, atol),
                    (x, y) => x == y,
                };
                if same {
                    continue;
                }
                let mut location = format!("r{r}c{c}");
                if r != 0
                    && let Some(Some(h)) = headers.get(c)
                {
                    location = format!("{location} (column {})", short(str_repr(h), 40));
                }
                if let Some(d) = compare_values(&location, ev, av, rtol, atol) {
                    out.push(d);
                }
            }
        }
        r += 1;
    }
    let mut prefix = Vec::new();
    let (ne, na) = (1 + rows_e + cells_e, 1 + rows_a + cells_a);
    if ne != na {
        prefix.push(Difference::plain(
            Kind::Structure,
            None,
            format!("structure differs: {ne} values recorded, {na} found"),
        ));
    }
    if let Some(d) = compare_values(
        "rows",
        &Scalar::Int(BigInt::from(rows_e)),
        &Scalar::Int(BigInt::from(rows_a)),
        rtol,
        atol,
    ) {
        prefix.push(d);
    }
    Ok(out.finish(prefix))
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
    while let Some(cells) = reader.next_row()? {
        if r == row {
            return Ok(cells.into_iter().nth(col).map(cell_value));
        }
        r += 1;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Result<Vec<Vec<String>>, String> {
        let mut p = Parser::new(b',');
        let mut out = Vec::new();
        // feed in small pieces to exercise chunk boundaries
        for piece in text.as_bytes().chunks(3) {
            p.feed(piece, &mut |r| out.push(r))?;
        }
        p.finish(&mut |r| out.push(r))?;
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
        assert_eq!(cell_value("1e3".into()), Scalar::Float(1000.0));
        assert_eq!(cell_value("\u{a0}12\u{a0}".into()), Scalar::Float(12.0));
        assert_eq!(cell_value("1_000".into()), Scalar::Str("1_000".into()));
        assert_eq!(cell_value("".into()), Scalar::Str("".into()));
        assert_eq!(cell_value("0x10".into()), Scalar::Str("0x10".into()));
        assert!(matches!(cell_value("-NaN".into()), Scalar::Float(f) if f.is_nan()));
    }
}
