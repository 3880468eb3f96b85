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
use crate::pyfmt::{format_g, is_py_space, str_repr, unicode_decimal};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

const KIND: &str = "numeric_relation";

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
    let mut residual = BigRational::zero();
    let mut uncertainty = BigRational::zero();
    for (c, a) in constants.iter().zip(&coefficients) {
        let (c, uc) = match exact(c) {
            Ok(x) => x,
            Err(e) => return done(Outcome::Inconclusive, e),
        };
        let (a, ua) = match exact(a) {
            Ok(x) => x,
            Err(e) => return done(Outcome::Inconclusive, e),
        };
        uncertainty += a.abs() * uc + c.abs() * ua;
        residual += a * c;
    }
    let residual = residual.abs();
    let bound = match check.get("tolerance") {
        None => tolerance,
        Some(v) => match py_float(v) {
            Ok(b) => b,
            Err(e) => return done(Outcome::Inconclusive, e),
        },
    };
    let upper = to_f64(&(&residual + &uncertainty));
    let lower_exact = &residual - &uncertainty;
    let lower = if lower_exact.is_negative() {
        0.0
    } else {
        to_f64(&lower_exact)
    };
    let at = format!(
        "at the supplied precision (+-{})",
        format_g(to_f64(&uncertainty), 3)
    );
    if upper <= bound {
        done(
            Outcome::NumericOk,
            format!(
                "|sum a_i c_i| <= {} <= {} {at} (numeric evidence only)",
                format_g(upper, 3),
                format_g(bound, 6)
            ),
        )
    } else if lower > bound {
        done(
            Outcome::Failed,
            format!(
                "|sum a_i c_i| >= {} > {} {at}",
                format_g(lower, 6),
                format_g(bound, 6)
            ),
        )
    } else {
        done(
            Outcome::Inconclusive,
            format!(
                "|sum a_i c_i| = {} {at}, which straddles the tolerance {}: the constants were not supplied to enough digits to decide this relation",
                format_g(to_f64(&residual), 6),
                format_g(bound, 6)
            ),
        )
    }
}

/// Python's `float(Fraction)`: correctly rounded (infinite beyond the range).
fn to_f64(x: &BigRational) -> f64 {
    x.to_f64().unwrap_or(if x.is_negative() {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    })
}

/// `list(check[key])` with the reference's errors (`KeyError: 'constants'`).
fn as_list(check: &Object, key: &str) -> Result<Vec<Value>, String> {
    match check.get(key) {
        None => Err(format!("KeyError: {}", str_repr(key))),
        Some(Value::Array(items)) => Ok(items.clone()),
        Some(Value::String(s)) => Ok(s.chars().map(|c| Value::String(c.to_string())).collect()),
        Some(Value::Object(o)) => Ok(o.iter().map(|(k, _)| Value::from(k)).collect()),
        Some(v) => Err(format!(
            "TypeError: '{}' object is not iterable",
            v.py_type_name()
        )),
    }
}

/// Python's `float(value)` for a tolerance (a string must parse as a float).
fn py_float(v: &Value) -> Result<f64, String> {
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
    let text = raw.trim_matches(is_py_space);
    let bad = || format!("not a decimal numeral: {}", str_repr(raw));
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = body.to_ascii_lowercase();
    if ["inf", "infinity", "nan", "snan"].contains(&lower.as_str())
        || ((lower.starts_with("nan") || lower.starts_with("snan"))
            && lower.trim_start_matches('s')[3..]
                .chars()
                .all(|c| c.is_ascii_digit()))
    {
        return Err(format!("not a finite constant: {}", str_repr(raw)));
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
        None => String::new(),
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
    let scale = |e: i64| -> BigRational {
        let p = num_traits::pow(BigInt::from(10), e.unsigned_abs() as usize);
        if e >= 0 {
            BigRational::from_integer(p)
        } else {
            BigRational::new(BigInt::from(1), p)
        }
    };
    if exp.unsigned_abs() > 100_000 {
        return Err(format!(
            "not a decimal numeral: {} (exponent too large)",
            str_repr(raw)
        ));
    }
    let value = BigRational::from_integer(coefficient) * scale(exp);
    let exact = !text.contains('.') && !text.contains(['e', 'E']);
    let uncertainty = if exact {
        zero()
    } else {
        scale(exp) / BigInt::from(2)
    };
    Ok((value, uncertainty))
}

/// ASCII digits of a digit run with Python's `_` separators (only between digits) and
/// Unicode decimal digits; `None` if anything else is there.
fn digits(run: &str) -> Option<String> {
    let mut out = String::with_capacity(run.len());
    let mut previous_digit = false;
    let chars: Vec<char> = run.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            let next_digit = chars
                .get(i + 1)
                .is_some_and(|&n| unicode_decimal(n).is_some());
            if !previous_digit || !next_digit {
                return None;
            }
            previous_digit = false;
            continue;
        }
        let d = unicode_decimal(c)?;
        out.push(char::from_digit(d, 10)?);
        previous_digit = true;
    }
    Some(out)
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
        assert!(decimal("1__0").is_err());
        assert_eq!(decimal("abc").unwrap_err(), "not a decimal numeral: 'abc'");
        assert_eq!(
            decimal("-Infinity").unwrap_err(),
            "not a finite constant: '-Infinity'"
        );
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
