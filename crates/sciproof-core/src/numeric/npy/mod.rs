//! `.npy` arrays: the header is parsed as a plain literal (nothing is ever unpickled), the data
//! is compared as a stream of elements in chunks, in parallel for large files.
//!
//! Leaves: `shape` (the dimensions), `dtype` (NumPy's name: `float64`, or `>f8` for a
//! non-native byte order), `data` (the elements, compared only when shape and dtype match).
//! Integers and booleans are compared exactly; floats and complex numbers by the tolerance rule
//! computed in the array's own precision, as NumPy computes it (so a `float32` array compares in
//! `float32`). Fortran-ordered files are compared by logical index. Differences are listed in
//! C (row-major) index order as `data[i, j]`: the first ten, then `... N of M values differ`.

use super::NumericError;
use super::diff::{Difference, Kind, Shown};
use super::rule::{numbers_close, tolerance_suffix};
use super::stats::{Comparison, Group, GroupBy, Measured, Statistics};
use super::value::{Scalar, short};
use crate::pyfmt::is_py_space;
use crate::pyfmt::{complex_repr, f32_repr, float_repr};
use half::f16;
use rayon::prelude::*;
use std::io::Read;
use std::path::Path;

mod header;
pub use header::{Dtype, ElemKind, Header, read_header, validate};
use header::{open_checked, read_exact};

// ---- elements ------------------------------------------------------------------------------

fn read_uint(b: &[u8], big: bool) -> u64 {
    let mut v = 0u64;
    if big {
        for &x in b {
            v = (v << 8) | u64::from(x);
        }
    } else {
        for &x in b.iter().rev() {
            v = (v << 8) | u64::from(x);
        }
    }
    v
}

fn float_at(b: &[u8], size: usize, big: bool) -> f64 {
    let bits = read_uint(&b[..size], big);
    match size {
        2 => f16::from_bits(bits as u16).to_f64(),
        4 => f64::from(f32::from_bits(bits as u32)),
        _ => f64::from_bits(bits),
    }
}

/// One element decoded for reporting.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Elem {
    Bool(bool),
    Int(i128),
    Float(f64),
    Complex(f64, f64),
}

fn decode(b: &[u8], dt: &Dtype) -> Elem {
    match dt.kind {
        ElemKind::Bool => Elem::Bool(b[0] != 0),
        ElemKind::Int { signed } => {
            let raw = read_uint(&b[..dt.size], dt.big_endian);
            let bits = dt.size * 8;
            let v = if signed && bits < 64 && raw >> (bits - 1) & 1 == 1 {
                i128::from(raw) - (1i128 << bits)
            } else if signed && bits == 64 {
                i128::from(raw as i64)
            } else {
                i128::from(raw)
            };
            Elem::Int(v)
        }
        ElemKind::Float => Elem::Float(float_at(b, dt.size, dt.big_endian)),
        ElemKind::Complex => {
            let half = dt.size / 2;
            Elem::Complex(
                float_at(&b[..half], half, dt.big_endian),
                float_at(&b[half..], half, dt.big_endian),
            )
        }
    }
}

/// NumPy's closeness for one float in precision `size` (2, 4 or 8 bytes).
fn close_float(e: f64, a: f64, size: usize, rtol: f64, atol: f64) -> bool {
    match size {
        8 => numbers_close(e, a, rtol, atol),
        4 => {
            let (e, a, rtol, atol) = (e as f32, a as f32, rtol as f32, atol as f32);
            if e.is_nan() && a.is_nan() || e.is_infinite() && e == a {
                return true;
            }
            e.is_finite()
                && a.is_finite()
                && (e - a).abs() <= (rtol * e.abs().max(a.abs())).max(atol)
        }
        _ => {
            // float16 arithmetic: every operation rounds to float16, as NumPy's does.
            let h = |x: f32| f16::from_f32(x).to_f32();
            let (e, a, rtol, atol) = (e as f32, a as f32, h(rtol as f32), h(atol as f32));
            if e.is_nan() && a.is_nan() || e.is_infinite() && e == a {
                return true;
            }
            e.is_finite()
                && a.is_finite()
                && h((e - a).abs()) <= h(rtol * e.abs().max(a.abs())).max(atol)
        }
    }
}

fn close_complex(e: (f64, f64), a: (f64, f64), part: usize, rtol: f64, atol: f64) -> bool {
    let nan = |z: (f64, f64)| z.0.is_nan() || z.1.is_nan();
    let inf = |z: (f64, f64)| z.0.is_infinite() || z.1.is_infinite();
    let finite = |z: (f64, f64)| z.0.is_finite() && z.1.is_finite();
    if nan(e) && nan(a) || inf(e) && e == a {
        return true;
    }
    if !(finite(e) && finite(a)) {
        return false;
    }
    if part == 4 {
        let m = |z: (f64, f64)| (z.0 as f32).hypot(z.1 as f32);
        let d = ((e.0 as f32) - (a.0 as f32)).hypot((e.1 as f32) - (a.1 as f32));
        d <= ((rtol as f32) * m(e).max(m(a))).max(atol as f32)
    } else {
        let m = |z: (f64, f64)| z.0.hypot(z.1);
        let d = (e.0 - a.0).hypot(e.1 - a.1);
        d <= (rtol * m(e).max(m(a))).max(atol)
    }
}

fn elements_equivalent(eb: &[u8], ab: &[u8], dt: &Dtype, rtol: f64, atol: f64) -> bool {
    match dt.kind {
        ElemKind::Bool => (eb[0] != 0) == (ab[0] != 0),
        ElemKind::Int { .. } => eb == ab,
        ElemKind::Float => {
            eb == ab && !matches!(decode(eb, dt), Elem::Float(f) if f.is_nan()) || {
                let (Elem::Float(x), Elem::Float(y)) = (decode(eb, dt), decode(ab, dt)) else {
                    return false;
                };
                close_float(x, y, dt.size, rtol, atol)
            }
        }
        ElemKind::Complex => {
            let (Elem::Complex(a0, a1), Elem::Complex(b0, b1)) = (decode(eb, dt), decode(ab, dt))
            else {
                return false;
            };
            close_complex((a0, a1), (b0, b1), dt.size / 2, rtol, atol)
        }
    }
}

fn elem_repr(e: Elem, dt: &Dtype) -> String {
    match e {
        Elem::Bool(b) => if b { "True" } else { "False" }.into(),
        Elem::Int(i) => i.to_string(),
        Elem::Float(f) if dt.size == 8 => float_repr(f),
        Elem::Float(f) => f32_repr(f as f32),
        Elem::Complex(re, im) => complex_repr(re, im),
    }
}

fn elem_shown(e: Elem) -> Shown {
    match e {
        Elem::Bool(b) => Shown::Bool(b),
        Elem::Int(i) => Shown::Int(i.into()),
        Elem::Float(f) => Shown::float(f),
        Elem::Complex(re, im) => Shown::Text(short(complex_repr(re, im), 60)),
    }
}

/// The multi-index of the element at logical C-order position `c` of `shape`.
fn c_index(shape: &[u64], mut c: u64) -> Vec<u64> {
    let mut idx = vec![0; shape.len()];
    for (k, d) in shape.iter().enumerate().rev() {
        if *d > 0 {
            idx[k] = c % d;
            c /= d;
        }
    }
    idx
}

/// The C-order position of the element stored at file position `f` of a Fortran-ordered array.
fn fortran_to_c(shape: &[u64], mut f: u64) -> u64 {
    let mut idx = vec![0u64; shape.len()];
    for (k, d) in shape.iter().enumerate() {
        if *d > 0 {
            idx[k] = f % d;
            f /= d;
        }
    }
    idx.iter().zip(shape).fold(0, |acc, (i, d)| acc * d + i)
}

/// A differing element: C-order position and both raw values.
type Found = (u64, Vec<u8>, Vec<u8>);

/// Keeps the ten differing elements with the smallest C-order positions.
#[derive(Default)]
struct FirstTen {
    count: u64,
    items: Vec<Found>,
}

impl FirstTen {
    fn add(&mut self, item: Found) {
        self.count += 1;
        if self.items.len() < super::diff::MAX_LISTED {
            self.items.push(item);
            return;
        }
        if let Some((worst, _)) = self.items.iter().enumerate().max_by_key(|(_, f)| f.0)
            && item.0 < self.items[worst].0
        {
            self.items[worst] = item;
        }
    }
    fn merge(mut self, other: FirstTen) -> FirstTen {
        let count = self.count + other.count;
        for item in other.items {
            self.add(item);
        }
        self.count = count;
        self
    }
}

/// What a scan of elements found: the first differing elements and the statistics.
struct Scan {
    first: FirstTen,
    group: Group,
}

impl Scan {
    fn new() -> Self {
        Scan {
            first: FirstTen::default(),
            group: Group::new(""),
        }
    }

    fn merge(mut self, other: Scan) -> Scan {
        self.first = self.first.merge(other.first);
        self.group.merge(other.group);
        self
    }

    /// Judges the elements `e` and `a` at logical C-order position `c` (`prefix` names the
    /// array in locations).
    fn element(&mut self, e: &[u8], a: &[u8], c: u64, h: &Header, prefix: &str, tol: (f64, f64)) {
        let equivalent = elements_equivalent(e, a, &h.dtype, tol.0, tol.1);
        if equivalent && e == a {
            self.group.same(1);
            return;
        }
        let m = measure(decode(e, &h.dtype), decode(a, &h.dtype), tol, !equivalent);
        self.group
            .differ(m, || format!("{prefix}[{}]", index_text(&h.shape, c)));
        if !equivalent {
            self.first.add((c, e.to_vec(), a.to_vec()));
        }
    }
}

/// The errors of two elements that are not bit-identical (integers are exact), for the
/// statistics and for the listed differences alike.
fn measure(e: Elem, a: Elem, (rtol, atol): (f64, f64), outside: bool) -> Measured {
    match (e, a) {
        (Elem::Int(x), Elem::Int(y)) => {
            Measured::numbers(Some(x as f64), Some(y as f64), 0.0, 0.0, outside)
        }
        (Elem::Float(x), Elem::Float(y)) => {
            Measured::numbers(Some(x), Some(y), rtol, atol, outside)
        }
        _ => Measured::numbers(None, None, rtol, atol, outside),
    }
}

/// `1, 2`: the multi-index of C-order position `c`, as locations show it.
fn index_text(shape: &[u64], c: u64) -> String {
    c_index(shape, c)
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn scan_chunk(
    eb: &[u8],
    ab: &[u8],
    first_file_pos: u64,
    h: &Header,
    prefix: &str,
    tol: (f64, f64),
) -> Scan {
    let size = h.dtype.size;
    let exact = !matches!(h.dtype.kind, ElemKind::Float | ElemKind::Complex);
    let float64 = matches!(h.dtype.kind, ElemKind::Float) && size == 8;
    let word = |b: &[u8]| {
        let bytes: [u8; 8] = b.try_into().unwrap_or_default();
        if h.dtype.big_endian {
            u64::from_be_bytes(bytes)
        } else {
            u64::from_le_bytes(bytes)
        }
    };
    let mut out = Scan::new();
    let mut same = 0u64;
    for (k, (e, a)) in eb.chunks_exact(size).zip(ab.chunks_exact(size)).enumerate() {
        if e == a && exact {
            same += 1;
            continue;
        }
        // The common case of a float64 array, decided on the bits: bit-identical and not a NaN
        // (a NaN's magnitude bits exceed infinity's) is the same value, as `element` would find.
        if float64 {
            let x = word(e);
            if x == word(a) && x & !(1 << 63) <= f64::INFINITY.to_bits() {
                same += 1;
                continue;
            }
        }
        let pos = first_file_pos + k as u64;
        let c = if h.fortran_order {
            fortran_to_c(&h.shape, pos)
        } else {
            pos
        };
        out.element(e, a, c, h, prefix, tol);
    }
    out.group.same(same);
    out
}

/// Turns the first differing elements into report entries, with the summary line.
fn report(found: Scan, h: &Header, prefix: &str, rtol: f64, atol: f64) -> Comparison {
    let mut group = found.group;
    group.name = prefix.to_string();
    let mut statistics = Statistics::new(GroupBy::Array);
    statistics.groups.push(group);
    Comparison {
        differences: differences(found.first, h, prefix, rtol, atol),
        statistics,
    }
}

fn differences(found: FirstTen, h: &Header, prefix: &str, rtol: f64, atol: f64) -> Vec<Difference> {
    let mut items = found.items;
    items.sort_by_key(|f| f.0);
    let mut out: Vec<Difference> = items
        .into_iter()
        .map(|(c, e, a)| {
            let location = format!("{prefix}[{}]", index_text(&h.shape, c));
            let (ev, av) = (decode(&e, &h.dtype), decode(&a, &h.dtype));
            // the same measure as the statistics: integers exact (nothing allowed), floats by
            // the tolerance, booleans and complex numbers without a numeric error
            let Measured {
                abs, rel, allowed, ..
            } = measure(ev, av, (rtol, atol), true);
            Difference {
                kind: if abs.is_some() {
                    Kind::Number
                } else {
                    Kind::Value
                },
                message: format!(
                    "{location}: recorded {}, found {}{}",
                    elem_repr(ev, &h.dtype),
                    elem_repr(av, &h.dtype),
                    tolerance_suffix(rtol, atol)
                ),
                location: Some(location),
                recorded: elem_shown(ev),
                found: elem_shown(av),
                abs_diff: abs,
                rel_diff: rel,
                allowed,
            }
        })
        .collect();
    if found.count > out.len() as u64 {
        out.push(Difference::plain(
            Kind::Summary,
            None,
            format!("... {} of {} values differ", found.count, h.count()),
        ));
    }
    out
}

/// The `shape` and `dtype` leaves compared; `None` when both match.
pub(crate) fn header_differences(
    e: &Header,
    a: &Header,
    shape_loc: &str,
    dtype_loc: &str,
) -> Vec<Difference> {
    let mut out = Vec::new();
    let leaf = |loc: &str, x: Scalar, y: Scalar| super::rule::compare_values(loc, &x, &y, 0.0, 0.0);
    out.extend(leaf(
        shape_loc,
        Scalar::Repr(e.shape_repr()),
        Scalar::Repr(a.shape_repr()),
    ));
    out.extend(leaf(
        dtype_loc,
        Scalar::Str(e.dtype.name.clone()),
        Scalar::Str(a.dtype.name.clone()),
    ));
    out
}

const CHUNK_ELEMENTS_BYTES: usize = 4 << 20;

/// Compares two `.npy` files. `prefix` is put before `shape`, `dtype` and `data` locations
/// (empty for a plain file).
pub fn compare_files(
    recorded: &Path,
    found: &Path,
    recorded_name: &str,
    found_name: &str,
    rtol: f64,
    atol: f64,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Comparison, NumericError> {
    let (ef, eh) = open_checked(recorded, recorded_name)?;
    let (af, ah) = open_checked(found, found_name)?;
    let head = header_differences(&eh, &ah, "shape", "dtype");
    if !head.is_empty() {
        return Ok(not_compared(head, "data"));
    }
    let result = if eh.fortran_order == ah.fortran_order {
        let size = eh.dtype.size;
        let per_chunk = (CHUNK_ELEMENTS_BYTES / size).max(1) as u64;
        let chunks = eh.count().div_ceil(per_chunk);
        use std::os::unix::fs::FileExt;
        (0..chunks)
            .into_par_iter()
            .map(|i| -> Result<Scan, NumericError> {
                if stop() {
                    return Err(NumericError::stopped());
                }
                let first = i * per_chunk;
                let n = per_chunk.min(eh.count() - first) as usize * size;
                let mut eb = vec![0u8; n];
                let mut ab = vec![0u8; n];
                ef.read_exact_at(&mut eb, eh.data_offset + first * size as u64)
                    .map_err(|e| NumericError::io(recorded_name, &e))?;
                af.read_exact_at(&mut ab, ah.data_offset + first * size as u64)
                    .map_err(|e| NumericError::io(found_name, &e))?;
                Ok(scan_chunk(&eb, &ab, first, &eh, "data", (rtol, atol)))
            })
            .try_reduce(Scan::new, |x, y| Ok(x.merge(y)))?
    } else {
        // Different memory orders: compare by logical index, in memory.
        let read_all =
            |mut f: &std::fs::File, h: &Header, name: &str| -> Result<Vec<u8>, NumericError> {
                use std::io::{Seek, SeekFrom};
                f.seek(SeekFrom::Start(h.data_offset))
                    .map_err(|e| NumericError::io(name, &e))?;
                let mut buf = vec![0u8; h.data_len() as usize];
                f.read_exact(&mut buf)
                    .map_err(|e| NumericError::io(name, &e))?;
                Ok(buf)
            };
        let eb = read_all(&ef, &eh, recorded_name)?;
        let ab = read_all(&af, &ah, found_name)?;
        let size = eh.dtype.size;
        let mut out = Scan::new();
        for c in 0..eh.count() {
            let idx = c_index(&eh.shape, c);
            let at = |h: &Header| -> usize {
                let pos = if h.fortran_order {
                    idx.iter()
                        .zip(&h.shape)
                        .rev()
                        .fold(0, |acc, (i, d)| acc * d + i)
                } else {
                    c
                };
                pos as usize * size
            };
            let (e, a) = (&eb[at(&eh)..at(&eh) + size], &ab[at(&ah)..at(&ah) + size]);
            out.element(e, a, c, &eh, "data", (rtol, atol));
        }
        out
    };
    Ok(report(result, &eh, "data", rtol, atol))
}

/// Compares two arrays read from streams (members of `.npz` archives), sequentially.
pub fn compare_streams(
    e: &mut dyn Read,
    a: &mut dyn Read,
    e_name: &str,
    a_name: &str,
    prefix: &str,
    rtol: f64,
    atol: f64,
) -> Result<Comparison, NumericError> {
    let eh = read_header(e, e_name)?;
    let ah = read_header(a, a_name)?;
    let head = header_differences(
        &eh,
        &ah,
        &format!("{prefix}#shape"),
        &format!("{prefix}#dtype"),
    );
    if !head.is_empty() {
        return Ok(not_compared(head, prefix));
    }
    if eh.fortran_order != ah.fortran_order {
        return Err(NumericError(format!(
            "{prefix}: the recorded and the found array use different memory orders (C and Fortran), which archive members do not support"
        )));
    }
    let size = eh.dtype.size;
    let per_chunk = (CHUNK_ELEMENTS_BYTES / size).max(1) as u64;
    let mut result = Scan::new();
    let mut first = 0u64;
    while first < eh.count() {
        let n = per_chunk.min(eh.count() - first) as usize * size;
        let mut eb = vec![0u8; n];
        let mut ab = vec![0u8; n];
        read_exact(e, &mut eb).map_err(|got| NumericError(format!("{e_name}: {prefix} holds less data than its header announces ({got} of {n} bytes in a chunk)")))?;
        read_exact(a, &mut ab).map_err(|got| NumericError(format!("{a_name}: {prefix} holds less data than its header announces ({got} of {n} bytes in a chunk)")))?;
        result = result.merge(scan_chunk(&eb, &ab, first, &eh, prefix, (rtol, atol)));
        first += per_chunk;
    }
    Ok(report(result, &eh, prefix, rtol, atol))
}

/// Two arrays whose shapes or dtypes differ: their elements are not compared.
fn not_compared(head: Vec<Difference>, name: &str) -> Comparison {
    let mut statistics = Statistics::new(GroupBy::Array);
    statistics.groups.push(Group::new(name));
    Comparison {
        differences: head,
        statistics,
    }
}

/// The value of one element as a leaf: booleans, exact integers, floats; a complex number is
/// not a number for claims (it is known by its repr).
fn elem_scalar(e: Elem) -> Scalar {
    match e {
        Elem::Bool(b) => Scalar::Bool(b),
        Elem::Int(i) => Scalar::Int(i.into()),
        Elem::Float(f) => Scalar::Float(f),
        Elem::Complex(re, im) => Scalar::Repr(complex_repr(re, im)),
    }
}

/// The file position of the element at multi-index `index`, or `None` outside the shape.
fn position(h: &Header, index: &[u64]) -> Option<u64> {
    if index.len() != h.shape.len() || index.iter().zip(&h.shape).any(|(i, d)| i >= d) {
        return None;
    }
    let pairs: Vec<(u64, u64)> = index.iter().copied().zip(h.shape.iter().copied()).collect();
    let fold = |acc: u64, (i, d): (u64, u64)| acc * d + i;
    Some(if h.fortran_order {
        pairs.into_iter().rev().fold(0, fold)
    } else {
        pairs.into_iter().fold(0, fold)
    })
}

/// The element at `index` of an array read from `reader` (positioned at the start), or `None`
/// when the index is outside the shape.
pub fn element_from_stream(
    reader: &mut dyn Read,
    name: &str,
    index: &[u64],
) -> Result<Option<Scalar>, NumericError> {
    let h = read_header(reader, name)?;
    let Some(pos) = position(&h, index) else {
        return Ok(None);
    };
    let skip = pos * h.dtype.size as u64;
    let copied = std::io::copy(&mut reader.take(skip), &mut std::io::sink())
        .map_err(|e| NumericError::io(name, &e))?;
    let mut b = vec![0u8; h.dtype.size];
    if copied < skip || read_exact(reader, &mut b).is_err() {
        return Err(NumericError(format!(
            "{name} holds less data than its header announces"
        )));
    }
    Ok(Some(elem_scalar(decode(&b, &h.dtype))))
}

/// The element at `index` of a `.npy` file, or `None` outside its shape.
pub fn element_at(path: &Path, name: &str, index: &[u64]) -> Result<Option<Scalar>, NumericError> {
    use std::os::unix::fs::FileExt;
    let (file, h) = open_checked(path, name)?;
    let Some(pos) = position(&h, index) else {
        return Ok(None);
    };
    let mut b = vec![0u8; h.dtype.size];
    file.read_exact_at(&mut b, h.data_offset + pos * h.dtype.size as u64)
        .map_err(|e| NumericError::io(name, &e))?;
    Ok(Some(elem_scalar(decode(&b, &h.dtype))))
}

/// The leaves of a `.npy` file (spec §4.1): `shape`, `dtype`, then every element by its logical
/// index (`data[i, j]`, C order whatever the file's order), read into memory: for measuring the
/// spread between runs (`calibrate`), not for the streamed comparison.
pub fn leaves(path: &Path, name: &str) -> Result<Vec<(String, Scalar)>, NumericError> {
    use std::io::Read;
    let (mut file, h) = open_checked(path, name)?;
    let mut data = Vec::new();
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(h.data_offset))
        .and_then(|_| (&mut file).take(h.data_len()).read_to_end(&mut data))
        .map_err(|e| NumericError::io(name, &e))?;
    let mut out = vec![
        ("shape".to_string(), Scalar::Repr(h.shape_repr())),
        ("dtype".to_string(), Scalar::Str(h.dtype.name.clone())),
    ];
    let count = h.count();
    let mut index = vec![0u64; h.shape.len()];
    for _ in 0..count {
        let Some(pos) = position(&h, &index) else {
            break;
        };
        let at = (pos as usize) * h.dtype.size;
        let value = elem_scalar(decode(&data[at..at + h.dtype.size], &h.dtype));
        let shown: Vec<String> = index.iter().map(u64::to_string).collect();
        out.push((format!("data[{}]", shown.join(", ")), value));
        // The next index in C order.
        for axis in (0..index.len()).rev() {
            index[axis] += 1;
            if index[axis] < h.shape[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
    Ok(out)
}

/// NumPy `.npy` arrays: streamed, never unpickled.
pub struct Npy;

impl super::format::NumericFormat for Npy {
    fn suffixes(&self) -> &'static [&'static str] {
        &[".npy"]
    }
    fn media_type(&self) -> &'static str {
        "application/octet-stream"
    }
    fn reference_reads_claims(&self) -> bool {
        false
    }
    fn validate(&self, path: &Path, name: &str) -> Result<(), NumericError> {
        validate(path, name)
    }
    fn compare(
        &self,
        pair: &super::format::Pair,
        rtol: f64,
        atol: f64,
    ) -> Result<Comparison, NumericError> {
        compare_files(
            pair.recorded,
            pair.found,
            pair.recorded_name,
            pair.found_name,
            rtol,
            atol,
            &|| pair.stopped(),
        )
    }
    fn grouped_by(&self) -> GroupBy {
        GroupBy::Array
    }
    fn valid_location(&self, location: &str) -> bool {
        parse_array_location(location).is_some_and(|(name, _)| name == "data")
    }
    fn location_example(&self) -> &'static str {
        "data[0, 1]"
    }
    fn canonical_location(&self, location: &str) -> Option<String> {
        canonical_array_location(location)
    }
    /// `data[i, j]`, read directly at the element's position.
    fn value_at(
        &self,
        _documents: &mut super::format::Documents,
        path: &Path,
        name: &str,
        location: &str,
    ) -> Result<Option<Scalar>, NumericError> {
        match parse_array_location(location) {
            Some((_, index)) => element_at(path, name, &index),
            None => Ok(None),
        }
    }
    fn address(&self, location: &str) -> Option<crate::json::Object> {
        array_address(location, false)
    }
}

/// The claim-check `array` address of `name[i, j]` (the array named only in an archive).
pub(crate) fn array_address(location: &str, named: bool) -> Option<crate::json::Object> {
    let (name, index) = parse_array_location(location)?;
    let array = if named {
        crate::json::Value::from(name)
    } else {
        crate::json::Value::Null
    };
    Some(
        crate::json::Object::new()
            .with("array", array)
            .with("contract", 1i64)
            .with(
                "index",
                crate::json::Value::Array(
                    index.into_iter().map(crate::json::Value::from).collect(),
                ),
            )
            .with("kind", "array"),
    )
}

/// `data[i, j]` (`.npy`) or `member[i]` (`.npz`): the name before `[` and the index.
pub fn parse_array_location(location: &str) -> Option<(&str, Vec<u64>)> {
    let open = location.find('[')?;
    let name = &location[..open];
    let inner = location[open + 1..].strip_suffix(']')?;
    if name.is_empty() || name.contains(|c: char| is_py_space(c) || c == ']' || c == '[') {
        return None;
    }
    if inner.is_empty() {
        return Some((name, Vec::new()));
    }
    let mut index = Vec::new();
    for (k, part) in inner.split(", ").enumerate() {
        if part.is_empty()
            || !part.bytes().all(|b| b.is_ascii_digit())
            || (k == 0 && part.starts_with(' '))
        {
            return None;
        }
        index.push(part.parse().ok()?);
    }
    Some((name, index))
}

/// An array location typed with any spacing after its commas (`data[1,2]`, `data[1,  2]`),
/// in the form manifests and difference reports use (`data[1, 2]`); `None` when `location` is
/// not an array location.
pub(crate) fn canonical_array_location(location: &str) -> Option<String> {
    let open = location.find('[')?;
    let inner = location[open + 1..].strip_suffix(']')?;
    let parts: Vec<&str> = inner
        .split(',')
        .map(|p| p.trim_matches(is_py_space))
        .collect();
    if inner.trim_matches(is_py_space).is_empty() {
        return Some(format!("{}[]", &location[..open]));
    }
    if parts
        .iter()
        .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    Some(format!("{}[{}]", &location[..open], parts.join(", ")))
}

#[cfg(test)]
pub(crate) mod tests;
