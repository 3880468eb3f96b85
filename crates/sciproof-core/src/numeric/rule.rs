//! The tolerance rule and the comparison of two leaf values (seed `numeric-comparison.txt`).

use super::diff::{Difference, Kind, Shown};
use super::value::{Scalar, short};
use crate::pyfmt::float_repr;
use num_traits::ToPrimitive;

/// The rule as the report states it.
pub const RULE_TEXT: &str =
    "|a - b| <= max(rtol * max(|a|, |b|), atol); NaN equals NaN; infinities must match in sign";

/// Whether `a` and `b` are equivalent: `|a - b| <= max(rtol * max(|a|, |b|), atol)`, inclusive;
/// NaN equals only NaN; an infinity equals only the same infinity. Symmetric in `a` and `b`.
pub fn numbers_close(a: f64, b: f64, rtol: f64, atol: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    (a - b).abs() <= (rtol * a.abs().max(b.abs())).max(atol)
}

/// `(abs_diff, rel_diff, allowed)` for two numbers, each `None` where undefined (a non-finite
/// input or result).
pub fn number_details(
    a: f64,
    b: f64,
    rtol: f64,
    atol: f64,
) -> (Option<f64>, Option<f64>, Option<f64>) {
    if !(a.is_finite() && b.is_finite()) {
        return (None, None, None);
    }
    let biggest = a.abs().max(b.abs());
    let absolute = (a - b).abs();
    let allowed = (rtol * biggest).max(atol);
    if !(absolute.is_finite() && allowed.is_finite()) {
        return (None, None, None);
    }
    let relative = if biggest > 0.0 {
        Some(absolute / biggest)
    } else if absolute == 0.0 {
        Some(0.0)
    } else {
        None
    };
    (Some(absolute), relative, Some(allowed))
}

/// The `(rtol=.., atol=..)` suffix of number messages.
pub fn tolerance_suffix(rtol: f64, atol: f64) -> String {
    format!(" (rtol={}, atol={})", float_repr(rtol), float_repr(atol))
}

/// Compares the recorded value `e` with the found value `a` at `location` (already decorated,
/// e.g. with a CSV column name). Returns the difference, or `None` when they are equivalent:
/// two integers exactly; two numbers by the tolerance rule; anything else by type and value.
pub fn compare_values(
    location: &str,
    e: &Scalar,
    a: &Scalar,
    rtol: f64,
    atol: f64,
) -> Option<Difference> {
    let (kind, different, suffix, details) = match (e, a) {
        (Scalar::Int(x), Scalar::Int(y)) => {
            if x == y {
                return None;
            }
            let (abs, rel, allowed) = match (
                x.to_f64().filter(|f| f.is_finite()),
                y.to_f64().filter(|f| f.is_finite()),
            ) {
                (Some(fx), Some(fy)) => {
                    let (abs, rel, _) = number_details(fx, fy, 0.0, 0.0);
                    (abs, rel, abs.map(|_| 0.0))
                }
                _ => (None, None, None),
            };
            (Kind::Number, true, String::new(), (abs, rel, allowed))
        }
        _ if e.is_number() && a.is_number() => {
            let suffix = tolerance_suffix(rtol, atol);
            match (e.to_f64(), a.to_f64()) {
                (Some(x), Some(y)) => {
                    if numbers_close(x, y, rtol, atol) {
                        return None;
                    }
                    (Kind::Number, true, suffix, number_details(x, y, rtol, atol))
                }
                // an integer beyond the float range cannot match a float
                _ => (Kind::Number, true, suffix, (None, None, None)),
            }
        }
        _ => {
            if e.same_value(a) {
                return None;
            }
            (Kind::Value, true, String::new(), (None, None, None))
        }
    };
    debug_assert!(different);
    Some(Difference {
        kind,
        location: Some(location.to_string()),
        recorded: Shown::of(e),
        found: Shown::of(a),
        abs_diff: details.0,
        rel_diff: details.1,
        allowed: details.2,
        message: format!(
            "{location}: recorded {}, found {}{suffix}",
            short(e.repr(), 60),
            short(a.repr(), 60)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use proptest::prelude::*;

    #[test]
    fn tolerance_rule_boundary_is_inclusive() {
        // |1 - 1.5| = 0.5 = atol
        assert!(numbers_close(1.0, 1.5, 0.0, 0.5));
        assert!(!numbers_close(1.0, 1.5000001, 0.0, 0.5));
        // rtol is relative to the larger magnitude: 0.1 * 10 = 1
        assert!(numbers_close(9.0, 10.0, 0.1, 0.0));
    }

    #[test]
    fn tolerance_rule_exact_when_both_tolerances_are_zero() {
        assert!(numbers_close(0.1, 0.1, 0.0, 0.0));
        assert!(!numbers_close(
            0.1,
            0.1 + f64::EPSILON / 8.0 + 1e-17,
            0.0,
            0.0
        ));
        assert!(numbers_close(0.0, -0.0, 0.0, 0.0));
    }

    #[test]
    fn tolerance_rule_large_rtol_accepts_zero_and_negation() {
        assert!(numbers_close(5.0, 0.0, 1.0, 0.0));
        assert!(!numbers_close(5.0, -5.0, 1.0, 0.0));
        assert!(numbers_close(5.0, -5.0, 2.0, 0.0));
    }

    #[test]
    fn nan_equals_only_nan_and_infinities_only_themselves() {
        assert!(numbers_close(f64::NAN, f64::NAN, 0.0, 0.0));
        assert!(!numbers_close(f64::NAN, 1.0, 1e9, 1e9));
        assert!(numbers_close(f64::INFINITY, f64::INFINITY, 0.0, 0.0));
        assert!(!numbers_close(f64::INFINITY, f64::NEG_INFINITY, 1e9, 1e9));
        assert!(!numbers_close(f64::INFINITY, 1e308, 1e9, 1e9));
    }

    #[test]
    fn integers_are_exact_at_any_size_and_never_use_the_tolerance() {
        let big = BigInt::from(2u64).pow(53);
        let e = Scalar::Int(big.clone());
        let a = Scalar::Int(big + 1);
        let d = compare_values("$.n", &e, &a, 1.0, 1e9).expect("differs");
        assert_eq!(d.kind, Kind::Number);
        assert_eq!(
            d.message,
            "$.n: recorded 9007199254740992, found 9007199254740993"
        );
        assert_eq!(d.allowed, Some(0.0));
        assert!(
            compare_values(
                "$.n",
                &Scalar::Int(100.into()),
                &Scalar::Int(100.into()),
                0.0,
                0.0
            )
            .is_none()
        );
    }

    #[test]
    fn integer_against_float_uses_the_rule() {
        assert!(
            compare_values(
                "$",
                &Scalar::Int(100.into()),
                &Scalar::Float(100.5),
                0.01,
                0.0
            )
            .is_none()
        );
        let d = compare_values(
            "$",
            &Scalar::Int(100.into()),
            &Scalar::Float(101.0),
            0.0,
            0.0,
        )
        .unwrap();
        assert_eq!(
            d.message,
            "$: recorded 100, found 101.0 (rtol=0.0, atol=0.0)"
        );
        let huge = Scalar::Int(BigInt::from(10).pow(400));
        assert!(compare_values("$", &huge, &Scalar::Float(f64::INFINITY), 1.0, 1.0).is_some());
    }

    #[test]
    fn strings_null_and_booleans_are_exact_and_typed() {
        let t = |e: Scalar, a: Scalar| {
            compare_values("$", &e, &a, 1e9, 1e9).map(|d| (d.kind, d.message))
        };
        assert_eq!(
            t(Scalar::Bool(true), Scalar::Int(1.into())),
            Some((Kind::Value, "$: recorded True, found 1".into()))
        );
        assert!(t(Scalar::Null, Scalar::Int(0.into())).is_some());
        assert!(t(Scalar::Str("1".into()), Scalar::Float(1.0)).is_some());
        assert!(t(Scalar::Str("a".into()), Scalar::Str("a".into())).is_none());
        assert!(t(Scalar::Str("a".into()), Scalar::Str("A".into())).is_some());
    }

    #[test]
    fn details_of_two_numbers() {
        let d = compare_values(
            "$.acc",
            &Scalar::Float(0.91),
            &Scalar::Float(0.85),
            1e-9,
            0.0,
        )
        .unwrap();
        assert_eq!(d.abs_diff, Some(0.06000000000000005));
        assert_eq!(d.rel_diff, Some(0.06593406593406599));
        assert_eq!(d.allowed, Some(9.100000000000001e-10));
        assert_eq!(
            d.message,
            "$.acc: recorded 0.91, found 0.85 (rtol=1e-09, atol=0.0)"
        );
    }

    proptest! {
        #[test]
        fn tolerance_rule_is_symmetric(a in any::<f64>(), b in any::<f64>(), rtol in 0.0f64..3.0, atol in 0.0f64..10.0) {
            prop_assert_eq!(numbers_close(a, b, rtol, atol), numbers_close(b, a, rtol, atol));
        }

        #[test]
        fn a_number_is_close_to_itself(a in any::<f64>()) {
            prop_assert!(numbers_close(a, a, 0.0, 0.0));
        }
    }
}
