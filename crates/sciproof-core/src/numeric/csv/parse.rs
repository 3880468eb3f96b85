//! The CSV push parser: no I/O, CPython's `_csv.c` state machine for the default ("excel")
//! dialect in non-strict mode (see the [module documentation](super)).

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
    pub(super) buf: &'a [u8],
    pub(super) ends: &'a [usize],
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
    pub(super) fast_lines: bool,
    /// Rows are kept (see [`Parser::take_rows`]) instead of handed out one by one.
    batched: bool,
    /// The number of fields of each row kept.
    lengths: Vec<usize>,
    /// Where the row being read starts in `buf` and in `ends` (0 unless rows are kept).
    row_bytes: usize,
    row_ends: usize,
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
            batched: false,
            lengths: Vec::new(),
            row_bytes: 0,
            row_ends: 0,
        }
    }

    /// A parser that keeps the rows it completes, to be taken a batch at a time with
    /// [`Parser::take_rows`], instead of handing each to `on_row` (which it never calls): the
    /// rows are read into the buffers they are taken in, not copied there one by one.
    pub fn batched(delimiter: u8) -> Self {
        Parser {
            batched: true,
            ..Parser::new(delimiter)
        }
    }

    /// The rows completed since the last call (a parser made by [`Parser::batched`]): the
    /// bytes of all their fields, where each field ends in them, and how many fields each row
    /// has. The three vectors given (emptied) are used for the row being read, so nothing is
    /// allocated once the buffers are large enough.
    pub fn take_rows(
        &mut self,
        bytes: &mut Vec<u8>,
        ends: &mut Vec<usize>,
        lengths: &mut Vec<usize>,
    ) {
        let (cut, cut_ends) = (self.row_bytes, self.row_ends);
        bytes.clear();
        bytes.extend_from_slice(&self.buf[cut..]);
        std::mem::swap(bytes, &mut self.buf);
        bytes.truncate(cut);
        ends.clear();
        ends.extend(self.ends[cut_ends..].iter().map(|e| e - cut));
        std::mem::swap(ends, &mut self.ends);
        ends.truncate(cut_ends);
        lengths.clear();
        std::mem::swap(lengths, &mut self.lengths);
        self.row_bytes = 0;
        self.row_ends = 0;
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
        if self.row_done && self.batched {
            self.row_done = false;
            self.lengths.push(self.ends.len() - self.row_ends);
            self.row_bytes = self.buf.len();
            self.row_ends = self.ends.len();
        } else if self.row_done {
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
            // Fastest path: all the whole lines before the next quote or CR, in one scan.
            if self.fast_lines && self.state == State::StartRecord {
                let next = self.whole_lines(text, i, on_row)?;
                if next > i {
                    i = next;
                    continue;
                }
            }
            // Fast path for whole lines: a complete line without a quote character is exactly
            // its text split at the delimiter (what the state machine would do, byte by byte).
            // After the fastest path, it is what reads a line that ends in CR (CRLF files).
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
                        self.push_field(&line[start..d])
                            .map_err(|m| self.error(m))?;
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

    /// At the start of a record at `text[i]`: every complete line before the next quote
    /// character or CR, each split at the delimiter as the state machine would split it (a
    /// line without a quote or CR holds nothing else it treats specially), found by one scan
    /// for delimiters and line feeds instead of several per line. Returns where the lines
    /// end (`i` when there is none).
    fn whole_lines(
        &mut self,
        text: &[u8],
        i: usize,
        on_row: &mut dyn FnMut(Row),
    ) -> Result<usize, String> {
        let end = memchr::memchr2(b'"', b'\r', &text[i..]).map_or(text.len(), |k| i + k);
        let mut field = i;
        let mut line = i;
        for at in memchr::memchr2_iter(self.delimiter, b'\n', &text[i..end]) {
            let at = i + at;
            if text[at] == b'\n' {
                // (a blank line is a row of no fields)
                if at > line {
                    self.push_field(&text[field..at])
                        .map_err(|m| self.error(m))?;
                }
                self.row_done = true;
                self.emit(on_row);
                line = at + 1;
            } else {
                self.push_field(&text[field..at])
                    .map_err(|m| self.error(m))?;
            }
            field = at + 1;
        }
        // The fields of a line that does not end before the quote or CR are not taken: that
        // line is read by the other paths.
        self.buf.truncate(self.row_bytes);
        self.ends.truncate(self.row_ends);
        Ok(line)
    }

    /// A whole field of a line read by a fast path.
    fn push_field(&mut self, field: &[u8]) -> Result<(), String> {
        if field.len() > FIELD_LIMIT {
            self.field_chars = 0;
            self.add_run(field)?;
        } else {
            self.buf.extend_from_slice(field);
        }
        self.ends.push(self.buf.len());
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
