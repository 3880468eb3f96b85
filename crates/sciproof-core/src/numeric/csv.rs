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
use crate::pyfmt::{parse_py_float, parse_py_float_ascii, str_repr};
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

/// A completed row: its fields as byte strings (valid UTF-8, since fields are split only at
/// ASCII bytes of valid UTF-8 text).
pub struct Row<'a> {
    buf: &'a [u8],
    ends: &'a [usize],
}

impl<'a> Row<'a> {
    /// The number of fields.
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    /// Whether the row has no field (a blank line).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
    /// The fields in order.
    pub fn fields(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        let buf = self.buf;
        self.ends.iter().scan(0usize, move |start, &end| {
            let field = &buf[*start..end];
            *start = end;
            Some(field)
        })
    }
}

/// The push parser (no I/O). Feed it text in pieces with [`Parser::feed`]; it hands out
/// complete rows. Fields of a row share one buffer, so parsing allocates nothing per cell.
pub struct Parser {
    delimiter: u8,
    state: State,
    buf: Vec<u8>,
    ends: Vec<usize>,
    field_chars: usize,
    row_done: bool,
    /// The previous byte was a CR that ended a line; a following LF belongs to the same line end.
    after_cr: bool,
    format_name: &'static str,
    /// Whether whole lines without quotes may skip the state machine (off only in tests that
    /// hold the fast path to the state machine).
    fast_lines: bool,
}

impl Parser {
    /// A parser for `,` (CSV) or TAB (TSV) separated text.
    pub fn new(delimiter: u8) -> Self {
        Parser {
            delimiter,
            state: State::StartRecord,
            buf: Vec::new(),
            ends: Vec::new(),
            field_chars: 0,
            row_done: false,
            after_cr: false,
            format_name: if delimiter == b'\t' { "TSV" } else { "CSV" },
            fast_lines: true,
        }
    }

    fn save_field(&mut self) {
        self.ends.push(self.buf.len());
        self.field_chars = 0;
    }

    fn field_is_empty(&self) -> bool {
        self.buf.len() == self.ends.last().copied().unwrap_or(0)
    }

    fn add_run(&mut self, run: &[u8]) -> Result<(), String> {
        self.field_chars += run.iter().filter(|b| *b & 0xC0 != 0x80).count();
        if self.field_chars > FIELD_LIMIT {
            return Err(format!("field larger than field limit ({FIELD_LIMIT})"));
        }
        self.buf.extend_from_slice(run);
        Ok(())
    }

    fn add(&mut self, c: u8) -> Result<(), String> {
        self.add_run(&[c])
    }

    /// One character (byte) of a line; `None` is the end of a line (Python's `EOL`).
    fn process(&mut self, c: Option<u8>) -> Result<(), String> {
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
            self.row_done = true;
        }
        Ok(())
    }

    fn error(&self, message: String) -> String {
        format!("is not valid {}: {message}", self.format_name)
    }

    fn emit(&mut self, on_row: &mut dyn FnMut(Row)) {
        if self.row_done {
            self.row_done = false;
            on_row(Row {
                buf: &self.buf,
                ends: &self.ends,
            });
            self.buf.clear();
            self.ends.clear();
        }
    }

    /// Feeds valid UTF-8 text; calls `on_row` for every completed row.
    pub fn feed(&mut self, text: &[u8], on_row: &mut dyn FnMut(Row)) -> Result<(), String> {
        let mut i = 0;
        while i < text.len() {
            let c = text[i];
            if self.after_cr {
                self.after_cr = false;
                if c == b'\n' {
                    self.process(Some(b'\n')).map_err(|m| self.error(m))?;
                    self.process(None).map_err(|m| self.error(m))?;
                    self.emit(on_row);
                    i += 1;
                    continue;
                }
                self.process(None).map_err(|m| self.error(m))?;
                self.emit(on_row);
            }
            // Fast path for whole lines: a complete line without a quote character is exactly
            // its text split at the delimiter (what the state machine would do, byte by byte).
            if self.fast_lines
                && self.state == State::StartRecord
                && let Some(k) = memchr::memchr2(b'\n', b'\r', &text[i..])
                && (text[i + k] == b'\n' || i + k + 1 < text.len())
                && memchr::memchr(b'"', &text[i..i + k]).is_none()
            {
                let line = &text[i..i + k];
                if !line.is_empty() {
                    let mut start = 0;
                    for d in memchr::memchr_iter(self.delimiter, line).chain([line.len()]) {
                        let field = &line[start..d];
                        if field.len() > FIELD_LIMIT {
                            self.field_chars = 0;
                            self.add_run(field).map_err(|m| self.error(m))?;
                        } else {
                            self.buf.extend_from_slice(field);
                        }
                        self.ends.push(self.buf.len());
                        start = d + 1;
                    }
                }
                self.row_done = true;
                self.emit(on_row);
                // the line break: CR LF, a lone CR or LF (a CR at the end of the text took the
                // slow path, which waits for the next byte)
                i += k + if text[i + k] == b'\r' && text.get(i + k + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                continue;
            }
            // Fast paths: a run of ordinary bytes inside a field is copied at once.
            let next_special = match self.state {
                State::InField => Some(memchr::memchr3(self.delimiter, b'\r', b'\n', &text[i..])),
                State::InQuotedField => Some(memchr::memchr3(b'"', b'\r', b'\n', &text[i..])),
                _ => None,
            };
            if let Some(found) = next_special {
                let run = found.map_or(text.len(), |k| i + k);
                if run > i {
                    self.add_run(&text[i..run]).map_err(|m| self.error(m))?;
                    i = run;
                    continue;
                }
            }
            match c {
                b'\r' => {
                    self.process(Some(c)).map_err(|m| self.error(m))?;
                    self.after_cr = true;
                }
                b'\n' => {
                    self.process(Some(c)).map_err(|m| self.error(m))?;
                    self.process(None).map_err(|m| self.error(m))?;
                }
                _ => self.process(Some(c)).map_err(|m| self.error(m))?,
            }
            self.emit(on_row);
            i += 1;
        }
        Ok(())
    }

    /// Ends the input: a last line without a line break, or an unterminated quoted field.
    pub fn finish(&mut self, on_row: &mut dyn FnMut(Row)) -> Result<(), String> {
        if self.after_cr {
            self.after_cr = false;
            self.process(None).map_err(|m| self.error(m))?;
            self.emit(on_row);
        }
        // A partial last line still needs its end-of-line event.
        if matches!(
            self.state,
            State::StartField | State::InField | State::QuoteInQuotedField
        ) {
            self.process(None).map_err(|m| self.error(m))?;
            self.emit(on_row);
        }
        if !self.field_is_empty() || self.state == State::InQuotedField {
            self.save_field();
            self.state = State::StartRecord;
            self.row_done = true;
            self.emit(on_row);
        }
        Ok(())
    }
}

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

/// Reads a file in chunks (constant memory), validating UTF-8 as it goes, and feeds the parser.
pub struct RowReader {
    file: std::fs::File,
    parser: Parser,
    name: String,
    buffer: Vec<u8>,
    /// How many bytes at the front of `buffer` are left from the previous read.
    carry: usize,
    position: u64,
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
            carry: 0,
            position: 0,
            done: false,
        })
    }

    /// Whether the whole file was read.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Reads the next chunk and hands its completed rows to `on_row`.
    pub fn read_chunk(&mut self, on_row: &mut dyn FnMut(Row)) -> Result<(), NumericError> {
        // The buffer is reused: at its front, the bytes of a character cut by the last read.
        let n = self
            .file
            .read(&mut self.buffer[self.carry..])
            .map_err(|e| NumericError::io(&self.name, &e))?;
        let total = self.carry + n;
        if n == 0 {
            if self.carry > 0 {
                return Err(utf8_error(&self.name, self.buffer[0], self.position));
            }
            self.parser
                .finish(on_row)
                .map_err(|m| NumericError(format!("{} {m}", self.name)))?;
            self.done = true;
            return Ok(());
        }
        let chunk = &self.buffer[..total];
        let valid = match std::str::from_utf8(chunk) {
            Ok(_) => total,
            Err(e) => {
                let at = e.valid_up_to();
                if e.error_len().is_some() {
                    return Err(utf8_error(&self.name, chunk[at], self.position + at as u64));
                }
                at // an incomplete character at the end: keep it for the next chunk
            }
        };
        self.parser
            .feed(&chunk[..valid], on_row)
            .map_err(|m| NumericError(format!("{} {m}", self.name)))?;
        self.position += valid as u64;
        self.buffer.copy_within(valid..total, 0);
        self.carry = total - valid;
        Ok(())
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
    while !reader.is_done() {
        reader.read_chunk(&mut |_| rows += 1)?;
    }
    Ok(rows)
}

/// Rows split by a reading thread: the bytes of all fields in one buffer, where each field
/// ends, and how many fields each row has. Cells are parsed only where the recorded and the
/// found text differ, so identical cells (nearly all of them, in a rerun) cost one comparison.
struct Batch {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    lengths: Vec<usize>,
}

impl Batch {
    fn new() -> Self {
        Batch {
            bytes: Vec::new(),
            ends: Vec::new(),
            lengths: Vec::new(),
        }
    }
}

/// At most this many batches exist per file: memory stays constant whatever the file size.
const BATCHES: usize = 3;

/// Channels between a reading thread and the comparison: full batches one way, emptied ones
/// back for reuse (so nothing is allocated per batch after the first few).
struct BatchChannels {
    full: mpsc::Receiver<Result<Batch, NumericError>>,
    empty: mpsc::Sender<Batch>,
}

fn spawn_reader(path: &Path, name: &str, tsv: bool) -> Result<BatchChannels, NumericError> {
    let mut reader = RowReader::open(path, name, tsv)?;
    let (full_tx, full_rx) = mpsc::sync_channel::<Result<Batch, NumericError>>(BATCHES);
    let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
    std::thread::spawn(move || {
        let mut created = 0;
        while !reader.is_done() {
            let mut batch = match empty_rx.try_recv() {
                Ok(b) => b,
                Err(_) if created < BATCHES => {
                    created += 1;
                    Batch::new()
                }
                Err(_) => match empty_rx.recv() {
                    Ok(b) => b,
                    Err(_) => return, // the comparison ended early
                },
            };
            batch.bytes.clear();
            batch.ends.clear();
            batch.lengths.clear();
            let read = reader.read_chunk(&mut |row| {
                batch.lengths.push(row.len());
                let base = batch.bytes.len();
                batch.bytes.extend_from_slice(row.buf);
                batch.ends.extend(row.ends.iter().map(|e| e + base));
            });
            if let Err(e) = read {
                let _ = full_tx.send(Err(e));
                return;
            }
            if batch.lengths.is_empty() {
                created -= 1; // nothing to send: let it go
                continue;
            }
            if full_tx.send(Ok(batch)).is_err() {
                return;
            }
        }
    });
    Ok(BatchChannels {
        full: full_rx,
        empty: empty_tx,
    })
}

struct Rows {
    rx: BatchChannels,
    batch: Batch,
    row: usize,
    field: usize,
}

/// One row of a batch: its fields as byte strings.
struct RowView<'a> {
    bytes: &'a [u8],
    ends: &'a [usize],
    start: usize,
}

impl<'a> RowView<'a> {
    fn len(&self) -> usize {
        self.ends.len()
    }
    fn field(&self, i: usize) -> &'a [u8] {
        let from = if i == 0 { self.start } else { self.ends[i - 1] };
        &self.bytes[from..self.ends[i]]
    }
}

impl Rows {
    fn new(rx: BatchChannels) -> Self {
        Rows {
            rx,
            batch: Batch::new(),
            row: 0,
            field: 0,
        }
    }

    /// The next row, or `None` at the end.
    fn next(&mut self) -> Result<Option<RowView<'_>>, NumericError> {
        while self.row >= self.batch.lengths.len() {
            match self.rx.full.recv() {
                Ok(batch) => {
                    let done = std::mem::replace(&mut self.batch, batch?);
                    let _ = self.rx.empty.send(done);
                    self.row = 0;
                    self.field = 0;
                }
                Err(_) => return Ok(None),
            }
        }
        let len = self.batch.lengths[self.row];
        let first = self.field;
        self.row += 1;
        self.field += len;
        let start = if first == 0 {
            0
        } else {
            self.batch.ends[first - 1]
        };
        Ok(Some(RowView {
            bytes: &self.batch.bytes,
            ends: &self.batch.ends[first..first + len],
            start,
        }))
    }
}

/// Compares two CSV/TSV files row by row, each split on its own thread.
pub fn compare_files(
    recorded: &Path,
    found: &Path,
    recorded_name: &str,
    found_name: &str,
    tsv: bool,
    rtol: f64,
    atol: f64,
) -> Result<Vec<Difference>, NumericError> {
    let mut e_rows = Rows::new(spawn_reader(recorded, recorded_name, tsv)?);
    let mut a_rows = Rows::new(spawn_reader(found, found_name, tsv)?);
    let mut out = Collector::new();
    let mut headers: Vec<Option<String>> = Vec::new();
    let (mut rows_e, mut rows_a, mut cells_e, mut cells_a) = (0u64, 0u64, 0u64, 0u64);
    let mut r = 0u64;
    loop {
        let e = e_rows.next()?;
        let a = a_rows.next()?;
        if e.is_none() && a.is_none() {
            break;
        }
        if let Some(row) = &e {
            rows_e += 1;
            cells_e += row.len() as u64;
            if r == 0 {
                headers = (0..row.len())
                    .map(|c| {
                        if let Scalar::Str(s) = cell_value(row.field(c)) {
                            Some(s)
                        } else {
                            None
                        }
                    })
                    .collect();
            }
        }
        if let Some(row) = &a {
            rows_a += 1;
            cells_a += row.len() as u64;
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
            for c in 0..er.len().min(ar.len()) {
                let (eb, ab) = (er.field(c), ar.field(c));
                if eb == ab {
                    continue; // the same text is the same value
                }
                let (ev, av) = (cell_value(eb), cell_value(ab));
                let same = match (&ev, &av) {
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
                if let Some(d) = compare_values(&location, &ev, &av, rtol, atol) {
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

    proptest::proptest! {
        #[test]
        fn the_whole_line_fast_path_agrees_with_the_state_machine(text in "[a1,\"\r\n ]{0,40}", piece in 1usize..50) {
            let slow = parse_with(text.as_bytes(), false, 1);
            proptest::prop_assert_eq!(parse_with(text.as_bytes(), true, piece), slow.clone());
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
