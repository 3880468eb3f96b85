//! The `.npy` header: magic, version, the header literal (parsed as a plain literal, never
//! evaluated or unpickled), the dtype it names, and the check that the file holds as many data
//! bytes as the header announces.

use super::super::NumericError;
use super::super::value::short;
use crate::pyfmt::str_repr;
use std::io::Read;
use std::path::Path;

/// What an element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElemKind {
    /// `b1`
    Bool,
    /// `i1` to `i8`, `u1` to `u8`.
    Int {
        /// `i` (signed) or `u`.
        signed: bool,
    },
    /// `f2`, `f4`, `f8`
    Float,
    /// `c8`, `c16`
    Complex,
}

/// A supported dtype.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dtype {
    /// The element kind.
    pub kind: ElemKind,
    /// Bytes per element.
    pub size: usize,
    /// Big-endian bytes.
    pub big_endian: bool,
    /// NumPy's `str(dtype)`.
    pub name: String,
}

/// A parsed `.npy` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The element type.
    pub dtype: Dtype,
    /// Column-major order.
    pub fortran_order: bool,
    /// The dimensions.
    pub shape: Vec<u64>,
    /// Offset of the data from the start of the file.
    pub data_offset: u64,
}

impl Header {
    /// Number of elements.
    pub fn count(&self) -> u64 {
        self.shape.iter().product()
    }
    /// Bytes of data.
    pub fn data_len(&self) -> u64 {
        self.count() * self.dtype.size as u64
    }
    /// The `shape` leaf as Python prints a list (`[3, 4]`).
    pub fn shape_repr(&self) -> String {
        format!(
            "[{}]",
            self.shape
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

fn parse_descr(descr: &str, name: &str) -> Result<Dtype, NumericError> {
    let unsupported = |shown: &str| {
        NumericError(format!(
            "{name}: only numeric, boolean and complex arrays are supported (dtype {shown})"
        ))
    };
    let (order, code) = match descr.as_bytes().first() {
        Some(b'<' | b'>' | b'|' | b'=') => (descr.as_bytes()[0], &descr[1..]),
        _ => (b'|', descr),
    };
    let kind_char = code.chars().next().unwrap_or(' ');
    let size: usize = code.get(1..).and_then(|s| s.parse().ok()).unwrap_or(0);
    if kind_char == 'O' {
        return Err(NumericError(format!(
            "{name} is not a plain .npy array: Object arrays cannot be loaded when allow_pickle=False"
        )));
    }
    let kind = match (kind_char, size) {
        ('b', 1) => ElemKind::Bool,
        ('i', 1 | 2 | 4 | 8) => ElemKind::Int { signed: true },
        ('u', 1 | 2 | 4 | 8) => ElemKind::Int { signed: false },
        ('f', 2 | 4 | 8) => ElemKind::Float,
        ('c', 8 | 16) => ElemKind::Complex,
        _ => {
            let shown = match kind_char {
                'U' | 'S' | 'V' | 'M' | 'm' | 'a' => descr.to_string(),
                'f' | 'c' => format!("{descr}: extended precision is not supported"),
                _ => descr.to_string(),
            };
            return Err(unsupported(&shown));
        }
    };
    let big_endian = order == b'>' && size > 1;
    let base = match kind {
        ElemKind::Bool => "bool".to_string(),
        ElemKind::Int { signed: true } => format!("int{}", size * 8),
        ElemKind::Int { signed: false } => format!("uint{}", size * 8),
        ElemKind::Float => format!("float{}", size * 8),
        ElemKind::Complex => format!("complex{}", size * 8),
    };
    let name = if big_endian {
        format!(">{kind_char}{size}")
    } else {
        base
    };
    Ok(Dtype {
        kind,
        size,
        big_endian,
        name,
    })
}

/// A tiny reader for the header's Python literal:
/// `{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`.
struct Literal<'a> {
    s: &'a [u8],
    i: usize,
}

#[derive(Debug)]
enum Lit {
    Str(String),
    Bool(bool),
    Tuple(Vec<u64>),
    Other,
}

impl Literal<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn string(&mut self) -> Option<String> {
        self.ws();
        let q = *self.s.get(self.i)?;
        if q != b'\'' && q != b'"' {
            return None;
        }
        let start = self.i + 1;
        let end = start + self.s[start..].iter().position(|&c| c == q)?;
        self.i = end + 1;
        Some(String::from_utf8_lossy(&self.s[start..end]).into_owned())
    }
    fn value(&mut self) -> Option<Lit> {
        self.ws();
        match self.s.get(self.i)? {
            b'\'' | b'"' => self.string().map(Lit::Str),
            b'T' if self.s[self.i..].starts_with(b"True") => {
                self.i += 4;
                Some(Lit::Bool(true))
            }
            b'F' if self.s[self.i..].starts_with(b"False") => {
                self.i += 5;
                Some(Lit::Bool(false))
            }
            b'(' => {
                self.i += 1;
                let mut dims = Vec::new();
                loop {
                    if self.eat(b')') {
                        return Some(Lit::Tuple(dims));
                    }
                    self.ws();
                    let start = self.i;
                    while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                        self.i += 1;
                    }
                    dims.push(
                        std::str::from_utf8(&self.s[start..self.i])
                            .ok()?
                            .parse()
                            .ok()?,
                    );
                    self.ws();
                    if !self.eat(b',') && self.s.get(self.i) != Some(&b')') {
                        return None;
                    }
                }
            }
            _ => {
                // a structured dtype (a list) or anything else: skip to the next top-level comma
                let mut depth = 0i32;
                while self.i < self.s.len() {
                    match self.s[self.i] {
                        b'[' | b'(' | b'{' => depth += 1,
                        b']' | b')' | b'}' if depth > 0 => depth -= 1,
                        b',' | b'}' if depth == 0 => break,
                        _ => {}
                    }
                    self.i += 1;
                }
                Some(Lit::Other)
            }
        }
    }
}

/// Reads and checks the header from `reader` (positioned at the start of the file).
pub fn read_header(reader: &mut dyn Read, name: &str) -> Result<Header, NumericError> {
    let plain = |m: String| NumericError(format!("{name} is not a plain .npy array: {m}"));
    let mut prefix = [0u8; 8];
    read_exact(reader, &mut prefix).map_err(|got| {
        plain(format!(
            "EOF: reading magic string, expected 8 bytes got {got}"
        ))
    })?;
    if &prefix[..6] != b"\x93NUMPY" {
        return Err(plain(
            "the magic string is not correct; this is not a .npy file".into(),
        ));
    }
    let (major, minor) = (prefix[6], prefix[7]);
    let header_len = match major {
        1 => {
            let mut n = [0u8; 2];
            read_exact(reader, &mut n).map_err(|got| {
                plain(format!(
                    "EOF: reading array header length, expected 2 bytes got {got}"
                ))
            })?;
            u16::from_le_bytes(n) as usize
        }
        2 | 3 => {
            let mut n = [0u8; 4];
            read_exact(reader, &mut n).map_err(|got| {
                plain(format!(
                    "EOF: reading array header length, expected 4 bytes got {got}"
                ))
            })?;
            u32::from_le_bytes(n) as usize
        }
        _ => {
            return Err(plain(format!(
                "we only support format version (1,0), (2,0) and (3,0), not ({major}, {minor})"
            )));
        }
    };
    if header_len > 1 << 20 {
        return Err(plain(format!(
            "the header is {header_len} bytes long, which no real array needs"
        )));
    }
    let mut text = vec![0u8; header_len];
    read_exact(reader, &mut text).map_err(|got| {
        plain(format!(
            "EOF: reading array header, expected {header_len} bytes got {got}"
        ))
    })?;
    let data_offset = (if major == 1 { 10 } else { 12 } + header_len) as u64;
    let mut lit = Literal { s: &text, i: 0 };
    let bad = || {
        plain(format!(
            "cannot parse the header {}",
            short(str_repr(&String::from_utf8_lossy(&text)), 120)
        ))
    };
    if !lit.eat(b'{') {
        return Err(bad());
    }
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        if lit.eat(b'}') {
            break;
        }
        let key = lit.string().ok_or_else(bad)?;
        if !lit.eat(b':') {
            return Err(bad());
        }
        let value = lit.value().ok_or_else(bad)?;
        match (key.as_str(), value) {
            ("descr", Lit::Str(s)) => descr = Some(s),
            ("descr", Lit::Other) => {
                return Err(NumericError(format!(
                    "{name}: only numeric, boolean and complex arrays are supported (dtype is structured)"
                )));
            }
            ("fortran_order", Lit::Bool(b)) => fortran = Some(b),
            ("shape", Lit::Tuple(t)) => shape = Some(t),
            _ => return Err(bad()),
        }
        if !lit.eat(b',') {
            if lit.eat(b'}') {
                break;
            }
            return Err(bad());
        }
    }
    let (Some(descr), Some(fortran_order), Some(shape)) = (descr, fortran, shape) else {
        return Err(bad());
    };
    let dtype = parse_descr(&descr, name)?;
    let count = shape.iter().try_fold(1u64, |acc, d| acc.checked_mul(*d));
    if count
        .and_then(|c| c.checked_mul(dtype.size as u64))
        .is_none()
    {
        return Err(plain("the shape is too large".into()));
    }
    Ok(Header {
        dtype,
        fortran_order,
        shape,
        data_offset,
    })
}

/// Fills `buf` from `reader` (retrying interrupted reads); on a short read, the bytes it got.
pub(super) fn read_exact(reader: &mut dyn Read, buf: &mut [u8]) -> Result<(), usize> {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => return Err(got),
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(got),
        }
    }
    Ok(())
}

pub(super) fn open_checked(
    path: &Path,
    name: &str,
) -> Result<(std::fs::File, Header), NumericError> {
    let mut file = std::fs::File::open(path).map_err(|e| NumericError::io(name, &e))?;
    let header = read_header(&mut file, name)?;
    let len = file
        .metadata()
        .map_err(|e| NumericError::io(name, &e))?
        .len();
    let available = len.saturating_sub(header.data_offset);
    if available < header.data_len() {
        return Err(NumericError(format!(
            "{name} is not a plain .npy array: it holds {available} bytes of data but its header announces {} ({} elements of {} bytes)",
            header.data_len(),
            header.count(),
            header.dtype.size
        )));
    }
    Ok((file, header))
}

/// Checks a `.npy` file (header, supported dtype, enough data).
pub fn validate(path: &Path, name: &str) -> Result<(), NumericError> {
    open_checked(path, name).map(|_| ())
}
