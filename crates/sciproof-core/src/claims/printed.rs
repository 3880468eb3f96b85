//! Printed-precision claims: does the found value, rounded to the precision a manuscript prints
//! it with, equal the printed text? Exact decimal arithmetic throughout (no binary rounding on
//! the way), with the tie rule of the claim-check profile: a value exactly half-way between two
//! printed neighbours matches either of them, and the tie is recorded.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};

/// An exact decimal `mantissa * 10^exponent`, with the exponent as written (`"3.20"` is
/// 320e-2, `"1.2E+3"` is 12e2, `"35"` is 35e0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    /// The digits, as an integer.
    pub mantissa: BigInt,
    /// The power of ten the digits are scaled by.
    pub exponent: i64,
}

impl Decimal {
    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`), keeping the
    /// exponent as written. Nothing else (no `NaN`, no `inf`, no `_`).
    pub fn parse(text: &str) -> Option<Decimal> {
        let (negative, body) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (number, exp) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let (int, frac) = number.split_once('.').unwrap_or((number, ""));
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let exp: i64 = match exp {
            None => 0,
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty()
                    || digits.len() > 9
                    || !digits.bytes().all(|b| b.is_ascii_digit())
                {
                    return None;
                }
                e.parse().ok()?
            }
        };
        let mut mantissa: BigInt = format!("{int}{frac}")
            .trim_start_matches('0')
            .parse()
            .unwrap_or_default();
        if negative {
            mantissa = -mantissa;
        }
        Some(Decimal {
            mantissa,
            exponent: exp - frac.len() as i64,
        })
    }

    /// The exact value of a binary64 as Python's `repr` writes it (shortest round trip), which
    /// is what a JSON file or a report shows for it.
    pub fn from_f64_repr(x: f64) -> Option<Decimal> {
        if !x.is_finite() {
            return None;
        }
        Decimal::parse(&format!("{x:e}"))
    }

    /// Whether the value is above zero.
    pub fn is_positive(&self) -> bool {
        self.mantissa.is_positive()
    }

    /// The product of two decimals (exact).
    pub fn times(&self, other: &Decimal) -> Decimal {
        Decimal {
            mantissa: &self.mantissa * &other.mantissa,
            exponent: self.exponent + other.exponent,
        }
    }

    /// The value in plain notation with exactly `-exponent` decimals (`at` is that exponent):
    /// `1.30`, `-0.1`, `1200`; zero unsigned.
    pub fn plain(mantissa: &BigInt, exponent: i64) -> String {
        let negative = mantissa.is_negative();
        let digits = mantissa.abs().to_string();
        let body = if exponent >= 0 {
            if mantissa.is_zero() {
                "0".to_string()
            } else {
                format!("{digits}{}", "0".repeat(exponent as usize))
            }
        } else {
            let places = (-exponent) as usize;
            let padded = format!("{digits:0>width$}", width = places + 1);
            let (int, frac) = padded.split_at(padded.len() - places);
            format!("{int}.{frac}")
        };
        if negative && !mantissa.is_zero() {
            format!("-{body}")
        } else {
            body
        }
    }
}

/// The outcome of a printed comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedOutcome {
    /// Whether the claim holds.
    pub holds: bool,
    /// The precision, `10^exponent` of the printed text, in plain notation (`0.01`).
    pub precision: String,
    /// The found value (after scaling) rounded to that precision, in plain notation.
    pub rounded: String,
    /// `(lower, upper)` when the found value lies exactly half-way between two printed
    /// neighbours (either matches).
    pub tie: Option<(String, String)>,
}

/// Compares the found value `found` (scaled by `scale`) with the printed text `printed`.
pub fn compare(found: &Decimal, printed: &Decimal, scale: Option<&Decimal>) -> PrintedOutcome {
    let value = match scale {
        Some(s) => found.times(s),
        None => found.clone(),
    };
    let e = printed.exponent;
    let precision = Decimal::plain(&BigInt::from(1), e);
    let shift = value.exponent - e;
    let ten = BigInt::from(10);
    if shift >= 0 {
        // already at (or coarser than) the printed precision: no rounding
        let u = &value.mantissa * num_traits::pow(ten, shift as usize);
        let holds = u == printed.mantissa;
        return PrintedOutcome {
            holds,
            precision,
            rounded: Decimal::plain(&u, e),
            tie: None,
        };
    }
    let denominator = num_traits::pow(ten, (-shift) as usize);
    let (q, r) = value.mantissa.div_mod_floor(&denominator);
    let twice = &r * 2;
    if twice == denominator {
        let upper = &q + 1;
        let holds = printed.mantissa == q || printed.mantissa == upper;
        let rounded = if printed.mantissa == upper {
            Decimal::plain(&upper, e)
        } else {
            Decimal::plain(&q, e)
        };
        return PrintedOutcome {
            holds,
            precision,
            rounded,
            tie: Some((Decimal::plain(&q, e), Decimal::plain(&upper, e))),
        };
    }
    let rounded = if twice > denominator { q + 1 } else { q };
    PrintedOutcome {
        holds: rounded == printed.mantissa,
        precision,
        rounded: Decimal::plain(&rounded, e),
        tie: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(found: &str, printed: &str) -> PrintedOutcome {
        compare(
            &Decimal::parse(found).unwrap(),
            &Decimal::parse(printed).unwrap(),
            None,
        )
    }

    #[test]
    fn precision_is_the_exponent_as_written() {
        assert!(check("3.2", "3").holds);
        assert!(check("0.6478999999999999", "0.648").holds);
        assert!(check("0.91", "0.910").holds);
        assert!(check("1234", "1.2E+3").holds);
        assert!(!check("1234", "1200").holds);
        assert!(check("1e-30", "0").holds);
        assert_eq!(check("0.9183", "0.92").rounded, "0.92");
        assert_eq!(check("0.9183", "0.92").precision, "0.01");
        assert!(!check("36", "35").holds);
    }

    #[test]
    fn exact_ties_match_either_neighbour_and_are_recorded() {
        let t = check("0.0455", "0.045");
        assert!(t.holds);
        assert_eq!(t.tie, Some(("0.045".into(), "0.046".into())));
        assert!(check("0.0455", "0.046").holds);
        assert!(!check("0.0455", "0.0450").holds);
        assert!(check("0.125", "0.12").holds && check("0.125", "0.13").holds);
        let t = check("1250", "1.2E+3");
        assert_eq!(t.tie, Some(("1200".into(), "1300".into())));
        assert!(!check("4.2500001", "4.2").holds);
        assert_eq!(
            check("-0.05", "0.0").tie,
            Some(("-0.1".into(), "0.0".into()))
        );
    }

    #[test]
    fn scale_converts_before_rounding() {
        let hundred = Decimal::parse("100").unwrap();
        assert!(
            compare(
                &Decimal::parse("0.9183").unwrap(),
                &Decimal::parse("91.8").unwrap(),
                Some(&hundred)
            )
            .holds
        );
        assert!(
            compare(
                &Decimal::parse("0.0426").unwrap(),
                &Decimal::parse("4.3").unwrap(),
                Some(&hundred)
            )
            .holds
        );
    }

    #[test]
    fn decimals_parse_only_plain_numbers() {
        assert_eq!(
            Decimal::parse("3.20"),
            Some(Decimal {
                mantissa: 320.into(),
                exponent: -2
            })
        );
        assert_eq!(
            Decimal::parse("1.2E+3"),
            Some(Decimal {
                mantissa: 12.into(),
                exponent: 2
            })
        );
        assert_eq!(
            Decimal::parse("-.5"),
            Some(Decimal {
                mantissa: (-5).into(),
                exponent: -1
            })
        );
        for bad in ["", ".", "NaN", "1_0", "1e", "0x1", "1.2.3", "inf"] {
            assert_eq!(Decimal::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Decimal::from_f64_repr(0.1).unwrap(),
            Decimal {
                mantissa: 1.into(),
                exponent: -1
            }
        );
    }
}
