//! The `numeric_relation` recipe (spec §5.4): does `Σ aᵢ·cᵢ = 0` hold, given constants and
//! coefficients only to the precision their notation implies?
//!
//! Everything is exact rational arithmetic over the numerals as written: `"1"` is the exact
//! integer, `"1.1557"` is known to ±0.00005, a float to half its own ulp. The true residual lies
//! in `R ± U`, and the outcome follows from where that band sits against the tolerance. It is
//! never `ok`: finitely many digits are evidence, not a proof. Outcomes and details equal the
//! reference's.

use super::{Outcome, Recheck};
use crate::json::{Number, Object, Value};
use crate::pyfmt::{is_py_space, push_g, str_repr, unicode_decimal};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

const KIND: &str = "numeric_relation";

/// `numeric_relation`: `Σ aᵢ·cᵢ = 0` within the tolerance, over the numerals as written.
pub struct NumericRelation;

impl super::Recipe for NumericRelation {
    fn kind(&self) -> &'static str {
        KIND
    }
    fn recheck(&self, check: &Object, context: &mut super::Context) -> Recheck {
        recheck(check, context.options.tolerance)
    }
}

/// Re-checks one recipe with `tolerance` unless the recipe carries its own.
pub fn recheck(check: &Object, tolerance: f64) -> Recheck {
    let done = |outcome, detail: String| Recheck::new(outcome, KIND, detail);
    let constants = match as_list(check, "constants") {
        Ok(v) => v,
        Err(e) => return done(Outcome::Inconclusive, e),
    };
    let coefficients = match as_list(check, "coefficients") {
        Ok(v) => v,
        Err(e) => return done(Outcome::Inconclusive, e),
    };
    if constants.len() != coefficients.len() {
        return done(
            Outcome::Inconclusive,
            "constant/coefficient length mismatch".into(),
        );
    }
    let band = match decimal_band::<i128>(&constants, &coefficients)
        .or_else(|| decimal_band::<BigInt>(&constants, &coefficients))
    {
        Some(fast) => fast,
        None => match rational_band(&constants, &coefficients) {
            Ok(band) => band,
            Err(e) => return done(Outcome::Inconclusive, e),
        },
    };
    let (residual, upper, lower, uncertainty) = band;
    if upper.is_infinite() {
        // Python's float() of a Fraction that does not fit: alkahest's exception, worded as
        // Python words it, rather than a comparison with infinity.
        return done(
            Outcome::Inconclusive,
            "OverflowError: integer division result too large for a float".into(),
        );
    }
    decide(check, tolerance, residual, upper, lower, uncertainty)
}

/// `R`, `R+U`, `max(0, R-U)` and `U` in exact rational arithmetic, each correctly rounded to
/// f64 (the general path: floats included).
fn rational_band(
    constants: &[Value],
    coefficients: &[Value],
) -> Result<(f64, f64, f64, f64), String> {
    let mut residual = BigRational::zero();
    let mut uncertainty = BigRational::zero();
    for (c, a) in constants.iter().zip(coefficients) {
        let (c, uc) = exact(c)?;
        let (a, ua) = exact(a)?;
        uncertainty += a.abs() * uc + c.abs() * ua;
        residual += a * c;
    }
    let residual = residual.abs();
    let upper = to_f64(&(&residual + &uncertainty));
    let lower_exact = &residual - &uncertainty;
    let lower = if lower_exact.is_negative() {
        0.0
    } else {
        to_f64(&lower_exact)
    };
    Ok((to_f64(&residual), upper, lower, to_f64(&uncertainty)))
}

/// The outcome from the band `[lower, upper]` (already rounded to f64) and the tolerance.
fn decide(
    check: &Object,
    tolerance: f64,
    residual: f64,
    upper: f64,
    lower: f64,
    uncertainty: f64,
) -> Recheck {
    let done = |outcome, detail: String| Recheck::new(outcome, KIND, detail);
    let bound = match check.get("tolerance") {
        None => tolerance,
        Some(v) => match py_float(v) {
            Ok(b) => b,
            Err(e) => return done(Outcome::Inconclusive, e),
        },
    };
    // Each detail is written into one string (a million claims make a million details).
    let mut detail = String::with_capacity(112);
    let at = |detail: &mut String| {
        detail.push_str(" at the supplied precision (+-");
        push_g(detail, uncertainty, 3);
        detail.push(')');
    };
    if upper <= bound {
        detail.push_str("|sum a_i c_i| <= ");
        push_g(&mut detail, upper, 3);
        detail.push_str(" <= ");
        push_g(&mut detail, bound, 6);
        at(&mut detail);
        detail.push_str(" (numeric evidence only)");
        done(Outcome::NumericOk, detail)
    } else if lower > bound {
        detail.push_str("|sum a_i c_i| >= ");
        push_g(&mut detail, lower, 6);
        detail.push_str(" > ");
        push_g(&mut detail, bound, 6);
        at(&mut detail);
        done(Outcome::Failed, detail)
    } else {
        detail.push_str("|sum a_i c_i| = ");
        push_g(&mut detail, residual, 6);
        at(&mut detail);
        detail.push_str(", which straddles the tolerance ");
        push_g(&mut detail, bound, 6);
        detail
            .push_str(": the constants were not supplied to enough digits to decide this relation");
        done(Outcome::Inconclusive, detail)
    }
}

/// A number `m·10^e`, and whether its notation makes it uncertain by half a unit of `10^e`.
struct Decimal<I> {
    mantissa: I,
    exp: i64,
    uncertain: bool,
}

/// The exact integers of the decimal band: `i128` while nothing overflows (every operation
/// checked; `None` sends the recipe to [`BigInt`]), which covers the usual constants of up to
/// 36 digits without an allocation, and `BigInt` for the rest.
trait Exact: Sized + Clone {
    /// The numeral `v` (an integer, or a decimal string), or `None` for the next path.
    fn decimal(v: &Value) -> Option<Decimal<Self>>;
    fn zero() -> Self;
    fn add(&self, other: &Self) -> Option<Self>;
    fn sub(&self, other: &Self) -> Option<Self>;
    fn mul(&self, other: &Self) -> Option<Self>;
    fn abs(&self) -> Option<Self>;
    /// `self · 10^k`.
    fn scaled(&self, k: u64) -> Option<Self>;
    fn is_negative(&self) -> bool;
    /// Appends the integer in decimal digits.
    fn push_digits(&self, out: &mut String);
}

impl Exact for BigInt {
    fn decimal(v: &Value) -> Option<Decimal<BigInt>> {
        match v {
            Value::Number(Number::Int(i)) => Some(Decimal {
                mantissa: i.clone(),
                exp: 0,
                uncertain: false,
            }),
            Value::String(s) => {
                let (mantissa, exp, uncertain) = decimal_parts(s).ok()?;
                (exp.abs() < 400).then_some(Decimal {
                    mantissa,
                    exp,
                    uncertain,
                })
            }
            _ => None,
        }
    }
    fn zero() -> Self {
        <BigInt as Zero>::zero()
    }
    fn add(&self, other: &Self) -> Option<Self> {
        Some(self + other)
    }
    fn sub(&self, other: &Self) -> Option<Self> {
        Some(self - other)
    }
    fn mul(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }
    fn abs(&self) -> Option<Self> {
        Some(Signed::abs(self))
    }
    fn scaled(&self, k: u64) -> Option<Self> {
        Some(self * num_traits::pow(BigInt::from(10), k as usize))
    }
    fn push_digits(&self, out: &mut String) {
        use std::fmt::Write;
        // (writing to a `String` cannot fail)
        let _ = write!(out, "{self}");
    }
    fn is_negative(&self) -> bool {
        Signed::is_negative(self)
    }
}

impl Exact for i128 {
    fn decimal(v: &Value) -> Option<Decimal<i128>> {
        match v {
            Value::Number(Number::Int(i)) => Some(Decimal {
                mantissa: i.to_i128()?,
                exp: 0,
                uncertain: false,
            }),
            Value::String(s) => ascii_decimal(s),
            _ => None,
        }
    }
    fn zero() -> Self {
        0
    }
    fn add(&self, other: &Self) -> Option<Self> {
        self.checked_add(*other)
    }
    fn sub(&self, other: &Self) -> Option<Self> {
        self.checked_sub(*other)
    }
    fn mul(&self, other: &Self) -> Option<Self> {
        self.checked_mul(*other)
    }
    fn abs(&self) -> Option<Self> {
        self.checked_abs()
    }
    fn scaled(&self, k: u64) -> Option<Self> {
        10i128
            .checked_pow(u32::try_from(k).ok()?)
            .and_then(|p| self.checked_mul(p))
    }
    fn is_negative(&self) -> bool {
        *self < 0
    }
    fn push_digits(&self, out: &mut String) {
        // (without a formatting call: a re-check writes four of these per recipe)
        out.push_str(itoa::Buffer::new().format(*self));
    }
}

/// A plain ASCII numeral (`-12.5e-3`: sign, digits, point, digits, exponent; no whitespace,
/// underscores or other digits, at most 36 digits) read as [`decimal_parts`] reads it; `None`
/// for anything else, which takes the general path.
fn ascii_decimal(text: &str) -> Option<Decimal<i128>> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let mut mantissa: i128 = 0;
    let (mut digits, mut fraction) = (0usize, 0i64);
    let mut point = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                digits += 1;
                if digits > 36 {
                    return None;
                }
                mantissa = mantissa * 10 + i128::from(b - b'0');
                if point {
                    fraction += 1;
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    let mut explicit = 0i64;
    let exponent = matches!(bytes.get(i), Some(b'e' | b'E'));
    if exponent {
        i += 1;
        let sign = match bytes.get(i) {
            Some(b'-') => {
                i += 1;
                -1
            }
            Some(b'+') => {
                i += 1;
                1
            }
            _ => 1,
        };
        let start = i;
        while let Some(b @ b'0'..=b'9') = bytes.get(i) {
            explicit = explicit * 10 + i64::from(b - b'0');
            if explicit > 1000 {
                return None;
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        explicit *= sign;
    }
    if i != bytes.len() {
        return None;
    }
    let exp = explicit - fraction;
    (exp.abs() < 400).then_some(Decimal {
        mantissa: if negative { -mantissa } else { mantissa },
        exp,
        uncertain: point || exponent,
    })
}

/// The fast path for the common case (integers and decimal strings only): everything is a
/// multiple of a power of ten, so the exact sums need no fractions at all. Returns `R`, `R+U`,
/// `max(0, R-U)` and `U`, each correctly rounded to f64, or `None` to take the next path
/// (for `i128`, an overflow; for both, a float, a bad value, extreme exponents).
fn decimal_band<I: Exact>(
    constants: &[Value],
    coefficients: &[Value],
) -> Option<(f64, f64, f64, f64)> {
    // Terms of R and of 2U, as (mantissa, exponent).
    let mut r_terms: Vec<(I, i64)> = Vec::with_capacity(constants.len());
    let mut u2_terms: Vec<(I, i64)> = Vec::new();
    for (c, a) in constants.iter().zip(coefficients) {
        let c = I::decimal(c)?;
        let a = I::decimal(a)?;
        let e = c.exp + a.exp;
        if c.uncertain {
            u2_terms.push((a.mantissa.abs()?, e));
        }
        if a.uncertain {
            u2_terms.push((c.mantissa.abs()?, e));
        }
        r_terms.push((a.mantissa.mul(&c.mantissa)?, e));
    }
    let sum = |terms: &[(I, i64)]| -> Option<(I, i64)> {
        let low = terms.iter().map(|t| t.1).min().unwrap_or(0);
        let mut total = I::zero();
        for (m, e) in terms {
            total = total.add(&m.scaled((*e - low) as u64)?)?;
        }
        Some((total, low))
    };
    let (r, er) = sum(&r_terms)?;
    let r = r.abs()?;
    let (u2, eu) = sum(&u2_terms)?;
    // 2R and 2U on one exponent, so R±U = (2R ± 2U) / 2 exactly.
    let low = er.min(eu);
    let r = r.scaled((er - low) as u64)?;
    let two_r = r.add(&r)?;
    let two_u = u2.scaled((eu - low) as u64)?;
    // `m·10^low / 2` correctly rounded, through the decimal text the float parser rounds
    // exactly (one buffer for the four numbers).
    let mut text = String::with_capacity(64);
    let mut f = |m: &I| -> f64 {
        text.clear();
        m.push_digits(&mut text);
        text.push('e');
        text.push_str(itoa::Buffer::new().format(low));
        text.parse::<f64>().unwrap_or(f64::NAN) / 2.0
    };
    let upper = f(&two_r.add(&two_u)?);
    let lower_exact = two_r.sub(&two_u)?;
    let lower = if lower_exact.is_negative() {
        0.0
    } else {
        f(&lower_exact)
    };
    let values = (f(&two_r), upper, lower, f(&two_u));
    // Halving is exact except in the subnormal range: leave that to the general path.
    let normal = |x: f64| x == 0.0 || x.is_normal();
    (normal(values.0) && normal(values.1) && normal(values.2) && normal(values.3)).then_some(values)
}

/// Python's `float(Fraction)`: correctly rounded (infinite beyond the range).
fn to_f64(x: &BigRational) -> f64 {
    x.to_f64().unwrap_or(if x.is_negative() {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    })
}

/// `list(check[key])` with the reference's errors (`KeyError: 'constants'`); a list is
/// borrowed.
fn as_list<'c>(check: &'c Object, key: &str) -> Result<std::borrow::Cow<'c, [Value]>, String> {
    use std::borrow::Cow;
    match check.get(key) {
        None => Err(format!("KeyError: {}", str_repr(key))),
        Some(Value::Array(items)) => Ok(Cow::Borrowed(items)),
        Some(Value::String(s)) => Ok(s.chars().map(|c| Value::String(c.to_string())).collect()),
        Some(Value::Object(o)) => Ok(o.iter().map(|(k, _)| Value::from(k)).collect()),
        Some(v) => Err(format!(
            "TypeError: '{}' object is not iterable",
            v.py_type_name()
        )),
    }
}

/// Python's `float(value)` for a tolerance (a string must parse as a float).
pub(super) fn py_float(v: &Value) -> Result<f64, String> {
    match v {
        Value::Number(Number::Float(f)) => Ok(*f),
        Value::Number(Number::Int(i)) => i
            .to_f64()
            .filter(|f| f.is_finite())
            .ok_or_else(|| "OverflowError: int too large to convert to float".into()),
        Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => crate::pyfmt::parse_py_float(s).ok_or_else(|| {
            format!(
                "ValueError: could not convert string to float: {}",
                str_repr(s)
            )
        }),
        other => Err(format!(
            "TypeError: float() argument must be a string or a real number, not '{}'",
            other.py_type_name()
        )),
    }
}

/// A value as an exact rational and the half-unit uncertainty its notation implies.
fn exact(v: &Value) -> Result<(BigRational, BigRational), String> {
    match v {
        Value::Bool(b) => Err(format!(
            "not a numeric constant: {}",
            if *b { "True" } else { "False" }
        )),
        Value::Number(Number::Int(i)) => Ok((BigRational::from_integer(i.clone()), zero())),
        Value::Number(Number::Float(f)) => {
            if !f.is_finite() {
                return Err(format!(
                    "not a finite constant: {}",
                    crate::pyfmt::float_repr(*f)
                ));
            }
            let value = BigRational::from_float(*f).unwrap_or_default();
            let ulp = BigRational::from_float(ulp(*f)).unwrap_or_default();
            Ok((value, ulp / BigInt::from(2)))
        }
        Value::String(s) => decimal(s),
        other => Err(format!(
            "unsupported constant type {}",
            other.py_type_name()
        )),
    }
}

fn zero() -> BigRational {
    BigRational::zero()
}

/// Python's `math.ulp` for a finite float.
fn ulp(x: f64) -> f64 {
    let x = x.abs();
    if x == f64::MAX {
        return x - f64::from_bits(x.to_bits() - 1);
    }
    f64::from_bits(x.to_bits() + 1) - x
}

/// A string read with `Decimal`'s grammar after trimming Python whitespace.
fn decimal(raw: &str) -> Result<(BigRational, BigRational), String> {
    let (coefficient, exp, uncertain) = decimal_parts(raw)?;
    let scale = |e: i64| -> BigRational {
        let p = num_traits::pow(BigInt::from(10), e.unsigned_abs() as usize);
        if e >= 0 {
            BigRational::from_integer(p)
        } else {
            BigRational::new(BigInt::from(1), p)
        }
    };
    let value = BigRational::from_integer(coefficient) * scale(exp);
    let uncertainty = if uncertain {
        scale(exp) / BigInt::from(2)
    } else {
        zero()
    };
    Ok((value, uncertainty))
}

/// A decimal numeral as `(m, e, uncertain)` with value `m·10^e`; `uncertain` when the text has
/// a point or an exponent (then it is known to half a unit of `10^e`).
fn decimal_parts(raw: &str) -> Result<(BigInt, i64, bool), String> {
    // Python's Decimal() drops every underscore once the whitespace is trimmed (`1__0`,
    // `_1`, `1_` and `1e1_0` are all read).
    let trimmed = raw.trim_matches(is_py_space);
    let text: std::borrow::Cow<str> = if trimmed.contains('_') {
        trimmed
            .chars()
            .filter(|&c| c != '_')
            .collect::<String>()
            .into()
    } else {
        trimmed.into()
    };
    let text = &*text;
    let bad = || format!("not a decimal numeral: {}", str_repr(raw));
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    // Infinities and NaNs start with a letter; a numeral never does.
    if body.starts_with(|c: char| c.is_ascii_alphabetic()) {
        let lower = body.to_ascii_lowercase();
        if ["inf", "infinity", "nan", "snan"].contains(&lower.as_str())
            || ((lower.starts_with("nan") || lower.starts_with("snan"))
                && lower.trim_start_matches('s')[3..]
                    .chars()
                    .all(|c| c.is_ascii_digit()))
        {
            return Err(format!("not a finite constant: {}", str_repr(raw)));
        }
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (mantissa, None),
    };
    let int_digits = digits(int_part).ok_or_else(bad)?;
    let frac_digits = match frac_part {
        Some(f) => digits(f).ok_or_else(bad)?,
        None => "".into(),
    };
    if int_digits.is_empty() && frac_digits.is_empty() {
        return Err(bad());
    }
    let explicit: i64 = match exponent {
        None => 0,
        Some(e) => {
            let (sign, rest) = match e.strip_prefix('-') {
                Some(r) => (-1, r),
                None => (1, e.strip_prefix('+').unwrap_or(e)),
            };
            let d = digits(rest).filter(|d| !d.is_empty()).ok_or_else(bad)?;
            let magnitude: i64 = d.parse().map_err(|_| bad())?;
            sign * magnitude
        }
    };
    let exp = explicit - frac_digits.len() as i64;
    let mut coefficient: BigInt = format!("{int_digits}{frac_digits}")
        .parse()
        .unwrap_or_default();
    if negative {
        coefficient = -coefficient;
    }
    if exp.unsigned_abs() > 100_000 {
        return Err(format!(
            "not a decimal numeral: {} (exponent too large)",
            str_repr(raw)
        ));
    }
    let uncertain = text.contains('.') || text.contains(['e', 'E']);
    Ok((coefficient, exp, uncertain))
}

/// ASCII digits of a digit run of Unicode decimal digits; `None` if anything else is there.
fn digits(run: &str) -> Option<std::borrow::Cow<'_, str>> {
    if run.bytes().all(|b| b.is_ascii_digit()) {
        return Some(run.into());
    }
    run.chars()
        .map(|c| unicode_decimal(c).and_then(|d| char::from_digit(d, 10)))
        .collect::<Option<String>>()
        .map(Into::into)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(constants: Vec<Value>, coefficients: Vec<Value>, tolerance: Option<f64>) -> Recheck {
        let mut check = Object::new()
            .with("kind", KIND)
            .with("constants", Value::Array(constants))
            .with("coefficients", Value::Array(coefficients));
        if let Some(t) = tolerance {
            check.insert("tolerance", t);
        }
        recheck(&check, 1e-8)
    }

    const LOG2: &str = "0.693147180559945309417232121458176568075500134360255254120680";
    const HALF_LOG2: &str = "0.346573590279972654708616060729088284037750067180127627060340";

    #[test]
    fn reference_outcomes() {
        let r = run(
            vec![HALF_LOG2.into(), LOG2.into()],
            vec![(-2i64).into(), 1i64.into()],
            None,
        );
        assert_eq!(r.outcome, Outcome::NumericOk);
        assert_eq!(
            r.detail,
            "|sum a_i c_i| <= 1.5e-60 <= 1e-08 at the supplied precision (+-1.5e-60) (numeric evidence only)"
        );
        let r = run(
            vec!["0.3466".into(), "0.6931".into()],
            vec![(-2i64).into(), 1i64.into()],
            None,
        );
        assert_eq!(r.outcome, Outcome::Inconclusive);
        assert_eq!(
            r.detail,
            "|sum a_i c_i| = 0.0001 at the supplied precision (+-0.00015), which straddles the tolerance 1e-08: the constants were not supplied to enough digits to decide this relation"
        );
        let r = run(
            vec![HALF_LOG2.into(), LOG2.into()],
            vec![(-1i64).into(), 1i64.into()],
            None,
        );
        assert_eq!(r.outcome, Outcome::Failed);
        assert_eq!(
            r.detail,
            "|sum a_i c_i| >= 0.346574 > 1e-08 at the supplied precision (+-1e-60)"
        );
        let r = run(
            vec![0.5f64.into(), 1i64.into()],
            vec![2i64.into(), (-1i64).into()],
            None,
        );
        assert_eq!(r.outcome, Outcome::NumericOk);
        assert!(
            r.detail.starts_with("|sum a_i c_i| <= 1.11e-16 <= 1e-08"),
            "{}",
            r.detail
        );
        let r = run(vec![], vec![], None);
        assert_eq!(r.outcome, Outcome::NumericOk);
    }

    #[test]
    fn an_overflowing_float_conversion_is_alkahests_overflow_error() {
        let overflow = "OverflowError: integer division result too large for a float";
        for (constants, coefficients) in [
            (vec![Value::from("1e400")], vec![Value::from(1i64)]),
            (
                vec![Value::from("1e400"), Value::from("1e400")],
                vec![Value::from(1i64), Value::from(-1i64)],
            ),
        ] {
            assert_eq!(
                run(constants, coefficients, None),
                Recheck::new(Outcome::Inconclusive, KIND, overflow.into())
            );
        }
        let tiny = run(vec![Value::from("1e-400")], vec![Value::from(1i64)], None);
        assert_eq!(tiny.outcome, Outcome::NumericOk);
    }

    #[test]
    fn notation_sets_the_uncertainty() {
        let u = |s: &str| decimal(s).unwrap().1;
        assert_eq!(u("1"), zero());
        assert_eq!(u("1.50"), BigRational::new(5.into(), 1000.into()));
        assert_eq!(u("5."), BigRational::new(1.into(), 2.into()));
        assert_eq!(u("1e5"), BigRational::from_integer(50000.into()));
        assert_eq!(u("12e-3"), BigRational::new(5.into(), 10000.into()));
        assert_eq!(u(" 0.0 "), BigRational::new(5.into(), 100.into()));
        assert_eq!(
            decimal("1_000").unwrap().0,
            BigRational::from_integer(1000.into())
        );
        // Decimal() drops underscores wherever they are, as alkahest reads them.
        for (text, value) in [
            ("1__0", 10i64),
            ("_1", 1),
            ("1_", 1),
            ("1e1_0", 10_000_000_000),
        ] {
            assert_eq!(
                decimal(text).unwrap().0,
                BigRational::from_integer(value.into()),
                "{text}"
            );
        }
        assert!(decimal("_").is_err());
        assert_eq!(decimal("abc").unwrap_err(), "not a decimal numeral: 'abc'");
        assert_eq!(
            decimal("-Infinity").unwrap_err(),
            "not a finite constant: '-Infinity'"
        );
    }

    proptest::proptest! {
        #[test]
        fn fast_path_equals_exact_fractions(
            terms in proptest::collection::vec((-99999i64..99999, 0u32..8, proptest::bool::ANY, -50i64..50), 0..5)
        ) {
            let mut constants = Vec::new();
            let mut coefficients = Vec::new();
            for (m, places, written_as_decimal, coefficient) in terms {
                let text = if written_as_decimal {
                    let digits = format!("{:0>9}", m.unsigned_abs());
                    let (a, b) = digits.split_at(9 - places as usize);
                    format!("{}{a}.{b}", if m < 0 { "-" } else { "" })
                } else {
                    m.to_string()
                };
                constants.push(Value::from(text));
                coefficients.push(Value::from(coefficient));
            }
            let exact = rational_band(&constants, &coefficients).unwrap();
            proptest::prop_assert_eq!(decimal_band::<BigInt>(&constants, &coefficients).unwrap(), exact);
            if let Some(small) = decimal_band::<i128>(&constants, &coefficients) {
                proptest::prop_assert_eq!(small, exact);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn plain_numerals_read_as_decimal_reads_them(
            text in "[+-]?[0-9]{0,40}(\\.[0-9]{0,40})?([eE][+-]?[0-9]{1,5})?"
        ) {
            if let Some(small) = ascii_decimal(&text) {
                let (m, e, uncertain) = decimal_parts(&text).unwrap();
                proptest::prop_assert_eq!((BigInt::from(small.mantissa), small.exp, small.uncertain), (m, e, uncertain));
            }
        }

        #[test]
        fn long_numerals_either_path(
            terms in proptest::collection::vec(("[1-9][0-9]{0,39}", 0usize..40, -60i64..60, -5i64..5), 1..4)
        ) {
            // Mantissas of up to 40 digits: i128 overflows on some and must then decline.
            let mut constants = Vec::new();
            let mut coefficients = Vec::new();
            for (digits, places, exponent, coefficient) in terms {
                let (a, b) = digits.split_at(digits.len() - places.min(digits.len()));
                constants.push(Value::from(format!("{a}.{b}e{exponent}")));
                coefficients.push(Value::from(coefficient));
            }
            let exact = rational_band(&constants, &coefficients).unwrap();
            if let Some(big) = decimal_band::<BigInt>(&constants, &coefficients) {
                proptest::prop_assert_eq!(big, exact);
            }
            if let Some(small) = decimal_band::<i128>(&constants, &coefficients) {
                proptest::prop_assert_eq!(small, exact);
            }
        }
    }

    #[test]
    fn bad_inputs_are_inconclusive() {
        let r = recheck(&Object::new().with("kind", KIND), 1e-8);
        assert_eq!(
            (r.outcome, r.detail.as_str()),
            (Outcome::Inconclusive, "KeyError: 'constants'")
        );
        let r = run(vec![true.into()], vec![1i64.into()], None);
        assert_eq!(r.detail, "not a numeric constant: True");
        let r = run(vec![Value::Null], vec![1i64.into()], None);
        assert_eq!(r.detail, "unsupported constant type NoneType");
        let r = run(vec!["1".into()], vec![], None);
        assert_eq!(r.detail, "constant/coefficient length mismatch");
        let r = run(vec!["1".into()], vec![1i64.into()], Some(-1.0));
        assert_eq!(r.outcome, Outcome::Failed);
    }
}
