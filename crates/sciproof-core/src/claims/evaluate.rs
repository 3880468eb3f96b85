//! Whether a claim holds for the value found at its location (seed `claims.txt`):
//! numbers compare as numbers (1 equals 1.0, integers exactly at any size, an integer against a
//! float exactly as Python compares them), booleans, strings and null exactly and by type; a
//! non-number never satisfies `< <= > >= ~=`; NaN satisfies none of `== < <= > >= ~=` (and
//! `!= x` holds); an absent location does not hold.

use super::printed::{self, Decimal, PrintedOutcome};
use super::{Claim, Op};
use crate::json::{self, Number, Value};
use crate::numeric::rule::numbers_close;
use crate::numeric::value::Scalar;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use std::cmp::Ordering;

/// The result of evaluating one claim.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimResult {
    /// Whether the claim holds.
    pub holds: bool,
    /// The value found (`None` when the location is absent).
    pub found: Option<Scalar>,
    /// `holds: $.acc is 0.91, claim is >= 0.9`, or why it does not hold.
    pub message: String,
    /// For a printed claim: precision, rounded value, tie.
    pub printed: Option<PrintedOutcome>,
}

/// The JSON-safe form of a found value (NaN and infinities as strings).
pub fn json_safe(value: &Scalar) -> Value {
    match value {
        Scalar::Null => Value::Null,
        Scalar::Bool(b) => Value::Bool(*b),
        Scalar::Int(i) => Value::Number(Number::Int(i.clone())),
        Scalar::Float(f) if f.is_nan() => Value::from("NaN"),
        Scalar::Float(f) if f.is_infinite() => {
            Value::from(if *f > 0.0 { "Infinity" } else { "-Infinity" })
        }
        Scalar::Float(f) => Value::from(*f),
        Scalar::Str(s) => Value::from(s.as_str()),
        Scalar::Keys(_) | Scalar::Repr(_) => Value::from(value.repr()),
    }
}

fn from_value(v: &Value) -> Scalar {
    match v {
        Value::Null => Scalar::Null,
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(Number::Int(i)) => Scalar::Int(i.clone()),
        Value::Number(Number::Float(f)) => Scalar::Float(*f),
        Value::String(s) => Scalar::Str(s.clone()),
        other => Scalar::Repr(json::to_string_compact(other)),
    }
}

fn exact(value: &Scalar) -> Option<BigRational> {
    match value {
        Scalar::Int(i) => Some(BigRational::from_integer(i.clone())),
        Scalar::Float(f) => BigRational::from_float(*f),
        _ => None,
    }
}

/// Python's comparison of two numbers: exact between integers and floats; `None` when a NaN
/// is involved (no order).
fn compare_numbers(a: &Scalar, b: &Scalar) -> Option<Ordering> {
    let (fa, fb) = (a.to_f64_lossy(), b.to_f64_lossy());
    if fa.is_nan() || fb.is_nan() {
        return None;
    }
    match (exact(a), exact(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        // at least one is infinite: the infinities order the usual way, beyond every integer
        _ => fa.partial_cmp(&fb),
    }
}

fn equal(found: &Scalar, expected: &Scalar) -> bool {
    if found.is_number() && expected.is_number() {
        compare_numbers(found, expected) == Some(Ordering::Equal)
    } else {
        found == expected
    }
}

impl Scalar {
    fn to_f64_lossy(&self) -> f64 {
        match self {
            Scalar::Float(f) => *f,
            Scalar::Int(i) => i
                .to_f64()
                .unwrap_or(if i.sign() == num_bigint::Sign::Minus {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }),
            _ => f64::NAN,
        }
    }
}

fn shown(found: &Scalar) -> String {
    match found {
        Scalar::Str(s) => {
            json::to_string_compact(&Value::from(s.chars().take(200).collect::<String>()))
        }
        other => json::to_string_compact(&json_safe(other)),
    }
}

/// Evaluates `claim` against the value `found` at its location.
pub fn evaluate(claim: &Claim, found: Option<Scalar>) -> ClaimResult {
    let location = &claim.location;
    let Some(found) = found else {
        return ClaimResult {
            holds: false,
            found: None,
            message: format!("{location} is not present in {}", claim.output),
            printed: None,
        };
    };
    let text = shown(&found);
    let is_nan = matches!(found, Scalar::Float(f) if f.is_nan());
    if claim.op.needs_number() {
        if !found.is_number() {
            let message = format!("{location} is {text}, which is not a number");
            return ClaimResult {
                holds: false,
                found: Some(found),
                message,
                printed: None,
            };
        }
        if is_nan {
            let message = format!("{location} is NaN, which satisfies no comparison");
            return ClaimResult {
                holds: false,
                found: Some(found),
                message,
                printed: None,
            };
        }
    }
    let expected = from_value(&claim.value);
    let mut printed_outcome = None;
    let holds = match claim.op {
        Op::Eq => equal(&found, &expected),
        Op::Ne => !equal(&found, &expected),
        Op::Lt => compare_numbers(&found, &expected) == Some(Ordering::Less),
        Op::Le => matches!(
            compare_numbers(&found, &expected),
            Some(Ordering::Less | Ordering::Equal)
        ),
        Op::Gt => compare_numbers(&found, &expected) == Some(Ordering::Greater),
        Op::Ge => matches!(
            compare_numbers(&found, &expected),
            Some(Ordering::Greater | Ordering::Equal)
        ),
        Op::Approx => {
            let (rtol, atol) = claim.tolerance.unwrap_or((0.0, 0.0));
            match (found.to_f64(), expected.to_f64()) {
                (Some(a), Some(b)) if a.is_infinite() || b.is_infinite() => a == b,
                (Some(a), Some(b)) => numbers_close(a, b, rtol, atol) && !a.is_nan(),
                // an integer beyond every float: only exact equality
                _ => equal(&found, &expected),
            }
        }
        Op::Printed => {
            let found_decimal = match &found {
                Scalar::Int(i) => Some(Decimal {
                    mantissa: i.clone(),
                    exponent: 0,
                }),
                Scalar::Float(f) => Decimal::from_f64_repr(*f),
                _ => None,
            };
            let printed_value = claim.value.as_str().and_then(Decimal::parse);
            let scale = claim.scale.as_deref().and_then(Decimal::parse);
            match (found_decimal, printed_value) {
                (Some(f), Some(p)) => {
                    let outcome = printed::compare(&f, &p, scale.as_ref());
                    let holds = outcome.holds;
                    printed_outcome = Some(outcome);
                    holds
                }
                // infinite: never equal to a printed number
                _ => false,
            }
        }
    };
    let verb = if holds { "holds" } else { "does not hold" };
    let mut message = format!(
        "{verb}: {location} is {text}, claim is {}",
        claim.comparison_text()
    );
    if let Some(p) = &printed_outcome {
        message.push_str(&format!(" (rounded to {}: {}", p.precision, p.rounded));
        if let Some((lower, upper)) = &p.tie {
            message.push_str(&format!(
                "; exactly half-way between {lower} and {upper}, either matches"
            ));
        }
        message.push(')');
    }
    ClaimResult {
        holds,
        found: Some(found),
        message,
        printed: printed_outcome,
    }
}

/// `BigInt` helper for tests and callers: an exact integer scalar.
pub fn int(i: i64) -> Scalar {
    Scalar::Int(BigInt::from(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::parse_claim;
    use proptest::prelude::*;

    fn holds(expr: &str, found: Scalar) -> bool {
        evaluate(&parse_claim("m.json", expr).unwrap(), Some(found)).holds
    }

    #[test]
    fn the_truth_table_of_the_reference() {
        let f = Scalar::Float;
        assert!(holds("$.a >= 0.9", f(0.9)));
        assert!(!holds("$.a >= 0.9", f(0.8999)));
        assert!(!holds("$.a > 0.9", f(0.9)));
        assert!(holds("$.a <= 1", f(1.0)));
        assert!(!holds("$.a < 1", f(1.0)));
        assert!(holds("$.a == 1", f(1.0)));
        assert!(!holds("$.a == 1", Scalar::Bool(true)));
        assert!(!holds("$.a == true", int(1)));
        assert!(holds("$.a != 1", int(2)));
        assert!(!holds("$.a == \"ok\"", Scalar::Str("OK".into())));
        assert!(holds("$.a != \"ok\"", int(3)));
        assert!(holds("$.a == null", Scalar::Null));
        assert!(!holds("$.a == 0", Scalar::Null));
        assert!(holds("$.a ~= 0.25 atol=0.01", f(0.2549)));
        assert!(!holds("$.a ~= 0.25 atol=0.01", f(0.27)));
        assert!(holds("$.a ~= 100 rtol=0.01", f(100.99)));
        assert!(!holds("$.a ~= 100 rtol=0.01", f(102.0)));
        assert!(holds("$.a ~= 1", f(1.0)));
        assert!(!holds("$.a ~= 1", f(1.0000001)));
        assert!(!holds("$.a >= 0", f(f64::NAN)));
        assert!(!holds("$.a ~= 0 atol=1", f(f64::NAN)));
        assert!(!holds("$.a == 1", f(f64::NAN)));
        assert!(holds("$.a != 1", f(f64::NAN)));
        assert!(holds("$.a >= 1", f(f64::INFINITY)));
        assert!(!holds("$.a >= 1", Scalar::Str("text".into())));
        assert!(!holds("$.a < 5", Scalar::Bool(true)));
    }

    #[test]
    fn integers_beyond_2_53_are_exact() {
        let big = BigInt::from(10).pow(400);
        let text = big.to_string();
        assert!(holds(&format!("$.a ~= {text}"), Scalar::Int(big.clone())));
        assert!(!holds(&format!("$.a ~= {text}"), Scalar::Int(&big + 1)));
        assert!(!holds("$.a ~= 1", Scalar::Int(big.clone())));
        assert!(!holds("$.a == 9007199254740992", int(9007199254740993)));
        assert!(holds("$.a > 9007199254740992.0", int(9007199254740993)));
    }

    #[test]
    fn messages_show_the_found_value() {
        let c = parse_claim("m.json", "$.v == 1").unwrap();
        assert_eq!(
            evaluate(&c, Some(Scalar::Float(f64::NAN))).message,
            "does not hold: $.v is \"NaN\", claim is == 1"
        );
        assert_eq!(evaluate(&c, None).message, "$.v is not present in m.json");
        let c = parse_claim("m.json", "$.v >= 1").unwrap();
        assert_eq!(
            evaluate(&c, Some(Scalar::Str("x".into()))).message,
            "$.v is \"x\", which is not a number"
        );
        assert_eq!(
            evaluate(&c, Some(Scalar::Float(1.5))).message,
            "holds: $.v is 1.5, claim is >= 1"
        );
    }

    #[test]
    fn printed_claims_round_to_the_printed_precision() {
        let p = parse_claim("m.json", "$.accuracy ~= 0.92 printed").unwrap();
        let r = evaluate(&p, Some(Scalar::Float(0.9183)));
        assert!(r.holds);
        assert_eq!(
            r.message,
            "holds: $.accuracy is 0.9183, claim is ~= 0.92 printed (rounded to 0.01: 0.92)"
        );
        assert!(
            !evaluate(
                &parse_claim("m.json", "$.n ~= 35 printed").unwrap(),
                Some(int(36))
            )
            .holds
        );
        assert!(!holds("$.n == 35", int(36)));
        let pct = parse_claim("m.json", "$.rate ~= 91.8 printed scale=100").unwrap();
        assert!(evaluate(&pct, Some(Scalar::Float(0.9183))).holds);
        let tie = evaluate(
            &parse_claim("m.json", "$.x ~= 0.12 printed").unwrap(),
            Some(Scalar::Float(0.125)),
        );
        assert!(tie.holds && tie.printed.unwrap().tie.is_some());
    }

    proptest! {
        #[test]
        fn approx_is_symmetric(a in -1e6f64..1e6, b in -1e6f64..1e6, rtol in 0.0f64..0.5, atol in 0.0f64..10.0) {
            let claim = |v: f64| Claim { output: "m.json".into(), location: "$.x".into(), op: Op::Approx, value: Value::from(v), tolerance: Some((rtol, atol)), scale: None };
            prop_assert_eq!(evaluate(&claim(b), Some(Scalar::Float(a))).holds, evaluate(&claim(a), Some(Scalar::Float(b))).holds);
        }

        #[test]
        fn eq_and_ne_are_each_others_negation_except_for_nan(a in prop_oneof![any::<f64>().prop_map(Scalar::Float), any::<i64>().prop_map(int), any::<bool>().prop_map(Scalar::Bool)], b in -5i64..5) {
            let make = |op: Op| Claim { output: "m.json".into(), location: "$.x".into(), op, value: Value::from(b), tolerance: None, scale: None };
            let eq = evaluate(&make(Op::Eq), Some(a.clone())).holds;
            let ne = evaluate(&make(Op::Ne), Some(a.clone())).holds;
            prop_assert_eq!(eq, !ne);
        }
    }
}
