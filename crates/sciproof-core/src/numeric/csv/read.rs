//! Reading a CSV/TSV file in chunks (constant memory), validating UTF-8 on the way, into the
//! [parser](super::parse::Parser).

use super::NumericError;
use super::parse::{Parser, Row};
use std::io::Read;
use std::path::Path;

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
        Self::with_parser(path, name, Parser::new(delimiter(tsv)))
    }

    /// [`RowReader::open`] for [`RowReader::read_batch`].
    pub fn open_batched(path: &Path, name: &str, tsv: bool) -> Result<Self, NumericError> {
        Self::with_parser(path, name, Parser::batched(delimiter(tsv)))
    }

    fn with_parser(path: &Path, name: &str, parser: Parser) -> Result<Self, NumericError> {
        let file = std::fs::File::open(path).map_err(|e| NumericError::io(name, &e))?;
        Ok(RowReader {
            file,
            parser,
            name: name.to_string(),
            buffer: vec![0; 1 << 20],
            carry: 0,
            position: 0,
            done: false,
        })
    }

    /// Reads the next chunk (a reader made by [`RowReader::open_batched`]) and puts the rows
    /// it completed into the three buffers given (see [`Parser::take_rows`]).
    pub fn read_batch(
        &mut self,
        bytes: &mut Vec<u8>,
        ends: &mut Vec<usize>,
        lengths: &mut Vec<usize>,
    ) -> Result<(), NumericError> {
        self.read_chunk(&mut |_| {})?;
        self.parser.take_rows(bytes, ends, lengths);
        Ok(())
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

/// TAB for TSV, else `,`.
fn delimiter(tsv: bool) -> u8 {
    if tsv { b'\t' } else { b',' }
}

fn utf8_error(name: &str, byte: u8, position: u64) -> NumericError {
    NumericError(format!(
        "cannot read {name} as UTF-8 text: invalid byte 0x{byte:02x} at position {position}"
    ))
}
