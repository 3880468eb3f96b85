//! Python's `repr` for floats and strings.
//!
//! The manifest and report formats of the reference implementation embed Python reprs in
//! messages (`'a.txt'`, `1e-09`, `0.0`), and manifests store floats as Python writes them.
//! Interchangeable files need the same text, so these follow CPython exactly for floats and
//! closely for strings (see [`str_repr`]).

/// `repr(x)` of a Python float: the shortest text that reads back as the same binary64 value,
/// in fixed notation when the decimal exponent is in `-4..16`, otherwise in scientific notation
/// with at least two exponent digits (`1e-05`, `1e+16`); integral values keep `.0`.
/// Non-finite values are `nan`, `inf` and `-inf`.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits, e.g. "-1.2345e-7".
    repr_from_scientific(&format!("{x:e}"))
}

/// [`float_repr`] of a binary32 value: its own shortest digits (`0.1`, not the binary64
/// expansion), laid out as Python lays out floats.
pub fn f32_repr(x: f32) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    repr_from_scientific(&format!("{x:e}"))
}

/// Python's `repr(complex(re, im))`: `(1+2j)`, `2j`, `(1.5-0j)`, `(nan+infj)`.
pub fn complex_repr(re: f64, im: f64) -> String {
    let part = |x: f64| {
        let r = float_repr(x);
        r.strip_suffix(".0").map(str::to_string).unwrap_or(r)
    };
    let imag = part(im);
    if re == 0.0 && re.is_sign_positive() {
        return format!("{imag}j");
    }
    let sign = if im.is_sign_negative() && !im.is_nan() {
        ""
    } else {
        "+"
    };
    format!("({}{sign}{imag}j)", part(re))
}

fn repr_from_scientific(sci: &str) -> String {
    let (negative, sci) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci),
    };
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let decpt = exponent + 1; // value = 0.DIGITS * 10^decpt
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if -4 < decpt && decpt <= 16 {
        if decpt <= 0 {
            out.push_str("0.");
            for _ in 0..(-decpt) {
                out.push('0');
            }
            out.push_str(&digits);
        } else {
            let point = decpt as usize;
            if digits.len() <= point {
                out.push_str(&digits);
                for _ in digits.len()..point {
                    out.push('0');
                }
                out.push_str(".0");
            } else {
                out.push_str(&digits[..point]);
                out.push('.');
                out.push_str(&digits[point..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = decpt - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", e.abs()));
    }
    out
}

/// Whether CPython's `str.isprintable()` would call `c` printable. This covers the control,
/// format, separator, private-use and surrogate ranges that matter for file names and messages;
/// unassigned code points are treated as printable.
fn is_printable(c: char) -> bool {
    let code = c as u32;
    !(code < 0x20
        || (0x7f..=0xa0).contains(&code)
        || code == 0xad
        || (0x600..=0x605).contains(&code)
        || code == 0x61c
        || code == 0x6dd
        || code == 0x70f
        || code == 0x1680
        || code == 0x180e
        || (0x2000..=0x200f).contains(&code)
        || (0x2028..=0x202f).contains(&code)
        || (0x205f..=0x2064).contains(&code)
        || (0x2066..=0x206f).contains(&code)
        || code == 0x3000
        || (0xe000..=0xf8ff).contains(&code)
        || code == 0xfeff
        || (0xfff9..=0xfffb).contains(&code)
        || (0xe0000..=0xe007f).contains(&code)
        || code >= 0xf0000)
}

/// `repr(s)` of a Python string: single quotes unless the text contains `'` and no `"`;
/// backslash escapes for the quote, `\\`, `\n`, `\r`, `\t`, and `\xNN`/`\uNNNN`/`\UNNNNNNNN`
/// for characters that are not printable.
pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// Python's `str()` of a JSON value, as the reference prints stored values.
pub fn py_str(value: Option<&crate::Value>) -> String {
    match value {
        None | Some(crate::Value::Null) => "None".into(),
        Some(crate::Value::String(s)) => s.clone(),
        Some(crate::Value::Bool(true)) => "True".into(),
        Some(crate::Value::Bool(false)) => "False".into(),
        Some(crate::Value::Number(crate::Number::Int(i))) => i.to_string(),
        Some(crate::Value::Number(crate::Number::Float(f))) => float_repr(*f),
        Some(v) => crate::to_string_compact(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_matches_cpython() {
        let cases = [
            (1e-9, "1e-09"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.001, "0.001"),
            (1e-6, "1e-06"),
            (100.0, "100.0"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5, "1.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (123456789.125, "123456789.125"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (-2.5e-7, "-2.5e-07"),
            (3600.0, "3600.0"),
            (0.017, "0.017"),
        ];
        for (x, expected) in cases {
            assert_eq!(float_repr(x), expected, "repr of {x:e}");
        }
        assert_eq!(float_repr(f64::NAN), "nan");
        assert_eq!(float_repr(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn str_repr_matches_cpython() {
        assert_eq!(str_repr("a.txt"), "'a.txt'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("both ' and \""), "'both \\' and \"'");
        assert_eq!(str_repr("a\nb\\c"), "'a\\nb\\\\c'");
        assert_eq!(str_repr("\u{1b}[31m"), "'\\x1b[31m'");
        assert_eq!(str_repr("é\u{a0}\u{200b}"), "'é\\xa0\\u200b'");
    }

    #[test]
    fn int_matches_python() {
        let int = |s: &str| parse_py_int(s).map(|i| i.to_string());
        assert_eq!(int(" 1_0 "), Some("10".into()));
        assert_eq!(int("-7"), Some("-7".into()));
        assert_eq!(int("+\u{661}\u{662}"), Some("12".into()));
        for bad in ["", "_1", "1_", "1__0", "1.0", "- 1", "0x10", "+"] {
            assert_eq!(int(bad), None, "{bad:?}");
        }
    }
}

/// Whether Python's `str.isspace()` holds for `c` (used by `str.split()` and `float()`).
pub fn is_py_space(c: char) -> bool {
    matches!(c as u32, 0x09..=0x0d | 0x1c..=0x1f | 0x20 | 0x85 | 0xa0 | 0x1680 | 0x2000..=0x200a
        | 0x2028 | 0x2029 | 0x202f | 0x205f | 0x3000)
}

/// The value of `c` as a decimal digit if Unicode calls it one (category Nd), as Python's
/// `float()` and `int()` accept them (`١٢` and `１２` are 12).
pub fn unicode_decimal(c: char) -> Option<u32> {
    // First code point (the zero) of every block of ten Nd digits in Unicode 15.
    const ZEROS: &[u32] = &[
        0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66,
        0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
        0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0,
        0xff10, 0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0,
        0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x11f50, 0x16a60,
        0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e4f0,
        0x1e950, 0x1fbf0,
    ];
    let code = c as u32;
    ZEROS
        .iter()
        .find(|z| (**z..**z + 10).contains(&code))
        .map(|z| code - z)
}

/// Python's `int(text)` for a string: surrounding whitespace, an optional sign, decimal digits
/// (any Unicode decimal digit) with single underscores between them. `None` where Python
/// raises `ValueError`.
pub fn parse_py_int(text: &str) -> Option<num_bigint::BigInt> {
    let body = text.trim_matches(is_py_space);
    let (negative, digits) = match body.chars().next()? {
        '-' => (true, &body[1..]),
        '+' => (false, &body[1..]),
        _ => (false, body),
    };
    let mut value = num_bigint::BigInt::from(0);
    let mut previous_digit = false;
    let mut any = false;
    for c in digits.chars() {
        if c == '_' {
            if !previous_digit {
                return None;
            }
            previous_digit = false;
            continue;
        }
        let d = unicode_decimal(c)?;
        value = value * 10u32 + d;
        previous_digit = true;
        any = true;
    }
    if !any || !previous_digit {
        return None;
    }
    Some(if negative { -value } else { value })
}

/// The common case of [`parse_py_float`] without allocating: `None` when `bytes` holds a
/// non-ASCII byte or an underscore (the general path decides those), otherwise Python's answer.
pub fn parse_py_float_ascii(bytes: &[u8]) -> Option<Option<f64>> {
    let is_space = |b: &u8| matches!(b, 0x09..=0x0d | 0x1c..=0x20);
    let mut body = bytes;
    if body.first().is_some_and(is_space) || body.last().is_some_and(is_space) {
        let start = body.iter().position(|b| !is_space(b)).unwrap_or(body.len());
        let end = body
            .iter()
            .rposition(|b| !is_space(b))
            .map_or(start, |i| i + 1);
        body = &body[start..end];
    }
    // On ASCII text without whitespace, Rust's correctly rounded parser accepts exactly
    // Python's grammar: an optional sign, then `digits[.digits]`, `.digits` with an optional
    // exponent, or `inf`, `infinity`, `nan` in any case (a property test in this module checks
    // this against the general path). A text it refuses may still be a Python float only
    // through non-ASCII digits or whitespace, or `_` between digits: that is for the caller.
    if let Ok(text) = std::str::from_utf8(body)
        && let Ok(value) = text.parse::<f64>()
    {
        return Some(Some(value));
    }
    if body.iter().any(|b| !b.is_ascii() || *b == b'_') {
        return None;
    }
    Some(None)
}

/// Parses `text` exactly as Python's `float(text)` does: surrounding whitespace ignored, an
/// optional sign, `inf`/`infinity`/`nan` in any case, or a decimal literal with optional
/// fraction and exponent, Unicode decimal digits, and `_` allowed only between two digits.
/// Returns `None` where Python raises `ValueError`.
pub fn parse_py_float(text: &str) -> Option<f64> {
    match parse_py_float_ascii(text.as_bytes()) {
        Some(answer) => answer,
        None => parse_py_float_general(text),
    }
}

/// [`parse_py_float`] for any text: Unicode digits and whitespace, `_` between digits.
fn parse_py_float_general(text: &str) -> Option<f64> {
    let trimmed = text.trim_matches(is_py_space);
    let mut ascii = String::with_capacity(trimmed.len());
    for c in trimmed.chars() {
        match unicode_decimal(c) {
            Some(d) => ascii.push(char::from_digit(d, 10)?),
            None if c.is_ascii() && !c.is_ascii_whitespace() => ascii.push(c),
            None => return None,
        }
    }
    let (sign, body) = match ascii.as_bytes().first() {
        Some(b'+') => (1.0, &ascii[1..]),
        Some(b'-') => (-1.0, &ascii[1..]),
        _ => (1.0, ascii.as_str()),
    };
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" {
        return Some(sign * f64::INFINITY);
    }
    if lower == "nan" {
        return Some(f64::NAN.copysign(sign));
    }
    // Underscores: only between digits.
    let bytes = body.as_bytes();
    let mut cleaned = String::with_capacity(body.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            let before = i > 0 && bytes[i - 1].is_ascii_digit();
            let after = bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !(before && after) {
                return None;
            }
        } else {
            cleaned.push(b as char);
        }
    }
    // Grammar: (digits [. digits?] | . digits) ([eE] [+-]? digits)?
    let b = cleaned.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        let exp_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp_digits == 0 {
            return None;
        }
        i += exp_digits;
    }
    if i != b.len() {
        return None;
    }
    cleaned.parse::<f64>().ok().map(|v| sign * v)
}

/// Python's `str.split(None, maxsplit)`: split on runs of whitespace, ignoring leading
/// whitespace; the last part keeps its inner and trailing whitespace.
pub fn py_split(text: &str, maxsplit: usize) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = text.trim_start_matches(is_py_space);
    while !rest.is_empty() {
        if parts.len() == maxsplit {
            parts.push(rest);
            break;
        }
        match rest.find(is_py_space) {
            Some(end) => {
                parts.push(&rest[..end]);
                rest = rest[end..].trim_start_matches(is_py_space);
            }
            None => {
                parts.push(rest);
                break;
            }
        }
    }
    parts
}

#[cfg(test)]
mod float_tests {
    use super::*;

    #[test]
    fn python_float_grammar() {
        let ok = [
            ("1", 1.0),
            (" 2.5 ", 2.5),
            ("+1e3", 1000.0),
            ("-.5", -0.5),
            ("5.", 5.0),
            ("1_000", 1000.0),
            ("1e1_0", 1e10),
            ("١٢", 12.0),
            ("１２", 12.0),
            ("\u{a0}3\n", 3.0),
            ("1e400", f64::INFINITY),
            ("INFINITY", f64::INFINITY),
            ("-inf", f64::NEG_INFINITY),
        ];
        for (text, expected) in ok {
            assert_eq!(parse_py_float(text), Some(expected), "{text:?}");
        }
        assert!(parse_py_float("nan").unwrap().is_nan());
        assert!(parse_py_float("-NaN").unwrap().is_nan());
        for bad in [
            "", "_1", "1_", "1__0", "1_.5", "1e", ".", "e5", "0x10", "1,5", "infinit", "1 2", "--1",
        ] {
            assert_eq!(parse_py_float(bad), None, "{bad:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_ascii_fast_path_agrees_with_the_general_grammar(s in "[0-9.eE+ \\-infatyINFATY]{0,8}") {
            let fast = parse_py_float_ascii(s.as_bytes()).expect("ascii without underscores");
            let general = parse_py_float_general(&s);
            proptest::prop_assert_eq!(fast.map(|f| f.to_bits() & !(1 << 63) | u64::from(f.is_nan())), general.map(|f| f.to_bits() & !(1 << 63) | u64::from(f.is_nan())), "{:?}", s);
        }
    }

    #[test]
    fn python_split() {
        assert_eq!(
            py_split("  $.a   >=  0.9  x ", 2),
            vec!["$.a", ">=", "0.9  x "]
        );
        assert_eq!(py_split("a", 2), vec!["a"]);
        assert!(py_split("   ", 2).is_empty());
    }
}

#[cfg(test)]
mod repr_tests {
    use super::*;

    #[test]
    fn complex_and_f32_reprs() {
        assert_eq!(complex_repr(1.0, 2.0), "(1+2j)");
        assert_eq!(complex_repr(0.0, 2.0), "2j");
        assert_eq!(complex_repr(1.5, -0.0), "(1.5-0j)");
        assert_eq!(complex_repr(-0.0, 1.0), "(-0+1j)");
        assert_eq!(complex_repr(f64::NAN, f64::INFINITY), "(nan+infj)");
        assert_eq!(f32_repr(0.1), "0.1");
        assert_eq!(f32_repr(1e-7), "1e-07");
        assert_eq!(f32_repr(3.0), "3.0");
    }
}

/// Python's `format(x, ".6g")`: six significant digits, scientific notation (two-digit
/// exponent with sign) when the exponent is below -4 or at least 6, trailing zeros removed.
pub fn format_g6(x: f64) -> String {
    format_g(x, 6)
}

/// Python's `format(x, ".{precision}g")`.
pub fn format_g(x: f64, precision: usize) -> String {
    let mut out = String::with_capacity(24);
    push_g(&mut out, x, precision);
    out
}

/// Appends Python's `format(x, ".{precision}g")` to `out` (a detail text made of several
/// numbers is then one allocation, not one per number).
pub fn push_g(out: &mut String, x: f64, precision: usize) {
    let p = precision.max(1) as i32;
    if x.is_nan() {
        out.push_str("nan");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "inf" } else { "-inf" });
        return;
    }
    if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    let start = out.len();
    push_scientific(out, x, p as usize);
    let e_at = start + out[start..].rfind('e').expect("an exponent is written");
    let exponent: i32 = out[e_at + 1..].parse().unwrap_or(0);
    out.truncate(e_at);
    let fixed = (-4..p).contains(&exponent);
    if fixed {
        // Fixed notation with `p - 1 - exponent` decimals rounds at the same digit as the
        // scientific form just written (whose exponent already took any carry), so its digits
        // are these, with the point moved: CPython also formats the digits once.
        let first = start + usize::from(out.as_bytes()[start] == b'-');
        if p > 1 {
            out.remove(first + 1);
        }
        if exponent >= 0 {
            let whole = first + exponent as usize + 1;
            if whole < out.len() {
                out.insert(whole, '.');
            }
        } else {
            // (-4 <= exponent: at most three zeros after the point)
            out.insert_str(first, &"0.000"[..(1 - exponent) as usize]);
        }
    }
    strip_fraction_zeros(out, start);
    if !fixed {
        out.push_str(if exponent < 0 { "e-" } else { "e+" });
        if exponent.abs() < 10 {
            out.push('0');
        }
        out.push_str(itoa::Buffer::new().format(exponent.unsigned_abs()));
    }
}

/// Appends `x` (finite, not zero) with `precision` significant digits as `format!("{x:.*e}",
/// precision - 1)` writes it (`-1.23e-7`). The digits are those of the shortest decimal that
/// reads back as `x` rounded at `precision` digits, when that is provably the rounding of `x`
/// itself; otherwise (and above 14 digits, or for subnormals) they are written by `format!`,
/// which is several times slower (a re-check of a million claims writes three numbers each).
///
/// Why the shortcut is exact: let `S` be the shortest decimal that reads back as `x` and `R` a
/// midpoint between two neighbouring `precision`-digit decimals. Rounding `S` and rounding `x`
/// differ only when `R` lies between them or on `S`. Both `S` and `x` are in the interval of
/// decimals that read back as `x`, less than 2^-52 of `x` wide (for normal `x`). If `R` were
/// in it, `R` (with `precision + 1` digits) would be a candidate, so `S` has at most that many
/// digits too; then `R` and `S` are different multiples of `10^(E - precision)` (`E` the
/// exponent of `x`'s first digit, or one less at a power of ten), at least `10^-(precision +
/// 1)` of `x` apart, which is more than 2^-52 for `precision <= 14`. So only `S == R` (the
/// digits after `precision` are exactly `5`) is ambiguous, and that case is left to `format!`.
fn push_scientific(out: &mut String, x: f64, precision: usize) {
    match rounded_shortest(x.abs(), precision) {
        Some((digits, exponent)) => {
            if x < 0.0 {
                out.push('-');
            }
            out.push(char::from(digits[0]));
            if precision > 1 {
                out.push('.');
                out.extend(digits[1..precision].iter().map(|&d| char::from(d)));
            }
            out.push('e');
            out.push_str(itoa::Buffer::new().format(exponent));
        }
        None => {
            use std::fmt::Write;
            // (writing to a `String` cannot fail)
            let _ = write!(out, "{x:.*e}", precision - 1);
        }
    }
}

/// The first `precision` digits of `a` (positive, finite) and the exponent of the first, from
/// its shortest decimal rounded half up, or `None` where that is not provably `a`'s own
/// rounding (see [`push_scientific`]).
fn rounded_shortest(a: f64, precision: usize) -> Option<([u8; 14], i32)> {
    if !(1..=14).contains(&precision) || a < f64::MIN_POSITIVE || !a.is_finite() {
        return None;
    }
    let mut buffer = ryu::Buffer::new();
    // (`123.45`, `0.00012`, `1.5e-7`, `1e16`)
    let text = buffer.format_finite(a);
    let (mantissa, power) = match text.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let mut significant = [b'0'; 17];
    let (mut count, mut before_point, mut leading_zeros) = (0usize, None, 0i32);
    for (i, &b) in mantissa.as_bytes().iter().enumerate() {
        match b {
            b'.' => before_point = Some(i as i32),
            b'0' if count == 0 => leading_zeros += 1,
            b'0'..=b'9' => {
                *significant.get_mut(count)? = b;
                count += 1;
            }
            _ => return None,
        }
    }
    let before_point = before_point.unwrap_or(mantissa.len() as i32);
    let mut exponent = before_point - leading_zeros - 1 + power;
    while count > 0 && significant[count - 1] == b'0' {
        count -= 1;
    }
    if count == 0 {
        return None;
    }
    let mut digits = [b'0'; 14];
    let kept = count.min(precision);
    digits[..kept].copy_from_slice(&significant[..kept]);
    if count > precision {
        let rest = &significant[precision..count];
        if rest == b"5" {
            // (the shortest decimal is a midpoint: which way `a` lies is not known here)
            return None;
        }
        if rest[0] >= b'5' {
            let carried = digits[..precision].iter_mut().rev().all(|d| {
                if *d == b'9' {
                    *d = b'0';
                    true
                } else {
                    *d += 1;
                    false
                }
            });
            if carried {
                digits[0] = b'1';
                exponent += 1;
            }
        }
    }
    Some((digits, exponent))
}

/// Drops the trailing zeros of the fraction of the number written from `start` on, and its
/// point when nothing is left after it (`%g` without `#`).
fn strip_fraction_zeros(out: &mut String, start: usize) {
    if out[start..].contains('.') {
        let kept = out.trim_end_matches('0').trim_end_matches('.').len();
        out.truncate(kept);
    }
}

#[cfg(test)]
mod g6_tests {
    use super::{
        format_g, format_g6, push_g, push_scientific, rounded_shortest, strip_fraction_zeros,
    };

    /// `push_g` as it was written before it formatted the digits once: scientific notation
    /// first, then fixed notation again when the exponent asks for it.
    fn push_g_twice(out: &mut String, x: f64, precision: usize) {
        use std::fmt::Write;
        let p = precision.max(1) as i32;
        if x.is_finite() && x != 0.0 {
            let scientific = format!("{x:.*e}", (p - 1) as usize);
            let exponent: i32 = scientific[scientific.rfind('e').unwrap() + 1..]
                .parse()
                .unwrap();
            if (-4..p).contains(&exponent) {
                let start = out.len();
                let _ = write!(out, "{x:.*}", (p - 1 - exponent) as usize);
                strip_fraction_zeros(out, start);
                return;
            }
        }
        // (the other forms are written once either way)
        push_g(out, x, precision);
    }

    /// [`push_scientific`] is what `format!` writes, for `x` at `precision`.
    fn scientific_is_formats(x: f64, precision: usize) -> Result<(), String> {
        let mut fast = String::new();
        push_scientific(&mut fast, x, precision);
        let exact = format!("{x:.*e}", precision - 1);
        if fast == exact {
            Ok(())
        } else {
            Err(format!("{x:e} at {precision}: {fast} against {exact}"))
        }
    }

    #[test]
    fn scientific_digits_at_midpoints_carries_and_limits() {
        for x in [
            0.15,
            0.25,
            0.125,
            0.375,
            2.5,
            1.5,
            1e22,
            1e23,
            9.5,
            9.95,
            9.995,
            99.5,
            0.95,
            0.000_15,
            1.000_000_000_000_000_2,
            123_456.0,
            1e16,
            1e-7,
            5e-324,
            2.2e-308,
            f64::MIN_POSITIVE,
            f64::MAX,
            1.7976931348623157e308,
            0.1 + 0.2,
            1.0 / 3.0,
        ] {
            for precision in 1..=17 {
                scientific_is_formats(x, precision).unwrap();
                scientific_is_formats(-x, precision).unwrap();
            }
        }
        // (a midpoint, as a shortest decimal, is left to `format!`; a carry reaches a new
        // power of ten)
        assert_eq!(rounded_shortest(0.15, 1), None);
        assert_eq!(rounded_shortest(9.96, 2), Some((*b"10000000000000", 1)));
        assert_eq!(rounded_shortest(5e-324, 1), None);
        assert_eq!(rounded_shortest(0.1, 15), None);
    }

    proptest::proptest! {
        /// The digits from the shortest decimal are `format!`'s, for any float and at every
        /// precision, and near the midpoints where the shortcut must stand aside.
        #[test]
        fn scientific_digits_are_formats(
            bits in proptest::num::u64::ANY,
            precision in 1usize..18,
            digits in 1u64..100_000_000_000_000,
            power in -320i32..300,
        ) {
            let x = f64::from_bits(bits);
            if x.is_finite() && x != 0.0 {
                scientific_is_formats(x, precision).map_err(proptest::test_runner::TestCaseError::fail)?;
            }
            // (a decimal ending in 5, its neighbours, and the floats next to each)
            let midpoint = format!("{digits}5e{power}").parse::<f64>().unwrap();
            for y in [midpoint, midpoint.next_up(), midpoint.next_down()] {
                if y.is_finite() && y != 0.0 {
                    let places = digits.to_string().len();
                    for p in [places, places + 1, precision] {
                        scientific_is_formats(y, p.clamp(1, 17)).map_err(proptest::test_runner::TestCaseError::fail)?;
                    }
                }
            }
        }

        /// One formatting gives what two gave, at every precision, for any float (its bits
        /// drawn at random) and for the values near powers of ten where rounding carries.
        #[test]
        fn digits_formatted_once_give_the_fixed_form(
            bits in proptest::num::u64::ANY,
            carry in -6i32..20,
            nines in 1usize..18,
            precision in 1usize..70,
        ) {
            let near = format!("{}e{carry}", "9".repeat(nines)).parse::<f64>().unwrap();
            for x in [f64::from_bits(bits), near, -near, near / 1e4] {
                let (mut once, mut twice) = (String::from("="), String::from("="));
                push_g(&mut once, x, precision);
                push_g_twice(&mut twice, x, precision);
                proptest::prop_assert_eq!(once, twice, "{:e} at {}", x, precision);
            }
        }
    }

    /// `format(x, ".1g")`, `".3g"` and `".6g"` as Python 3.11 prints them.
    #[test]
    fn matches_python_g_at_each_precision() {
        for (x, g1, g3, g6) in [
            (1e-09_f64, "1e-09", "1e-09", "1e-09"),
            (0.0_f64, "0", "0", "0"),
            (0.06_f64, "0.06", "0.06", "0.06"),
            (0.06593406593406599_f64, "0.07", "0.0659", "0.0659341"),
            (123456789.0_f64, "1e+08", "1.23e+08", "1.23457e+08"),
            (9.100000000000001e-10_f64, "9e-10", "9.1e-10", "9.1e-10"),
            (100.0_f64, "1e+02", "100", "100"),
            (999999.5_f64, "1e+06", "1e+06", "1e+06"),
            (0.0001_f64, "0.0001", "0.0001", "0.0001"),
            (1e-05_f64, "1e-05", "1e-05", "1e-05"),
            (-2.5_f64, "-2", "-2.5", "-2.5"),
            (5e-29_f64, "5e-29", "5e-29", "5e-29"),
            (1.4999999999999998e-28_f64, "1e-28", "1.5e-28", "1.5e-28"),
            (1e-08_f64, "1e-08", "1e-08", "1e-08"),
            (0.000999949_f64, "0.001", "0.001", "0.000999949"),
            (9.9995_f64, "1e+01", "10", "9.9995"),
            (99950.0_f64, "1e+05", "1e+05", "99950"),
            (-0.00012345678_f64, "-0.0001", "-0.000123", "-0.000123457"),
            (1.5e+300_f64, "2e+300", "1.5e+300", "1.5e+300"),
            (-7.25e-310_f64, "-7e-310", "-7.25e-310", "-7.25e-310"),
            (123.456_f64, "1e+02", "123", "123.456"),
            (0.125_f64, "0.1", "0.125", "0.125"),
            (-0.0_f64, "-0", "-0", "-0"),
            (
                -7417869892.607294_f64,
                "-7e+09",
                "-7.42e+09",
                "-7.41787e+09",
            ),
            (840348120522.6678_f64, "8e+11", "8.4e+11", "8.40348e+11"),
            (
                6.489745531369242e-08_f64,
                "6e-08",
                "6.49e-08",
                "6.48975e-08",
            ),
            (
                3.7179335556230722e-06_f64,
                "4e-06",
                "3.72e-06",
                "3.71793e-06",
            ),
            (-543760.8592359304_f64, "-5e+05", "-5.44e+05", "-543761"),
            (
                1.3114189588902203e-08_f64,
                "1e-08",
                "1.31e-08",
                "1.31142e-08",
            ),
            (
                -279482366011.1103_f64,
                "-3e+11",
                "-2.79e+11",
                "-2.79482e+11",
            ),
            (
                -1.5960421235803824e-11_f64,
                "-2e-11",
                "-1.6e-11",
                "-1.59604e-11",
            ),
            (61.792618496308116_f64, "6e+01", "61.8", "61.7926"),
            (
                1.3224085421692467e-13_f64,
                "1e-13",
                "1.32e-13",
                "1.32241e-13",
            ),
            (
                7.735937030276742e-08_f64,
                "8e-08",
                "7.74e-08",
                "7.73594e-08",
            ),
            (
                2.893051677469265e-07_f64,
                "3e-07",
                "2.89e-07",
                "2.89305e-07",
            ),
            (f64::NAN, "nan", "nan", "nan"),
            (f64::NEG_INFINITY, "-inf", "-inf", "-inf"),
        ] {
            for (p, expected) in [(1, g1), (3, g3), (6, g6)] {
                assert_eq!(format_g(x, p), expected, "{x} at .{p}g");
                let mut appended = String::from("x = ");
                push_g(&mut appended, x, p);
                assert_eq!(
                    appended,
                    format!("x = {expected}"),
                    "{x} at .{p}g, appended"
                );
            }
        }
    }

    #[test]
    fn matches_python_g6() {
        for (x, s) in [
            (1e-9, "1e-09"),
            (0.0, "0"),
            (0.06, "0.06"),
            (0.06593406593406599, "0.0659341"),
            (123456789.0, "1.23457e+08"),
            (9.100000000000001e-10, "9.1e-10"),
            (100.0, "100"),
            (999999.5, "1e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5, "-2.5"),
        ] {
            assert_eq!(format_g6(x), s, "{x}");
        }
    }
}
