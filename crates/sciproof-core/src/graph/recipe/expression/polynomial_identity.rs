//! The exact test's first step for a polynomial in one symbol whose powers are too high to
//! multiply out (`(x + 1)^200 − (x − 1)^199·(x + 1) − …`, the derivative of an antiderivative
//! sympy writes for it): a polynomial of degree at most `D` that is 0 at `D + 1` distinct
//! points is 0 everywhere, so the expression is evaluated in exact rationals at
//! `0, 1, −1, 2, −2, …`, as many points as its degree bound and one more. No rounding enters:
//! each value is an exact rational, and the proof is the count of roots.
//!
//! Only sums, products, integer literals and exact rationals, non-negative integer powers and
//! negative powers of nonzero constants qualify, with one symbol at most (`pi` or `e` as well:
//! both are transcendental, so a polynomial with rational coefficients vanishes at either only
//! if it vanishes everywhere). A decimal literal, a function or a power of a symbol to a
//! negative or fractional exponent leaves the test to the others.

use super::expr::{Budget, Expr, TooLarge, exact_value};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

/// The highest degree bound evaluated: `D + 1` points of values of up to about `D·log₂ D`
/// bits each.
const MOST_DEGREE: u64 = 512;

/// Whether `expr` is identically 0, decided by its values at more points than its degree,
/// where it is a polynomial in one symbol of a degree bound past `least` (below it, the
/// exact test multiplies such polynomials out) and at most `MOST_DEGREE` (512); `None` for any
/// other expression.
pub fn decided(expr: &Expr, least: u64, budget: &mut Budget) -> Result<Option<bool>, TooLarge> {
    let mut symbol = None;
    let Some(degree) = degree_bound(expr, &mut symbol, budget)? else {
        return Ok(None);
    };
    // (a constant, with no symbol, is evaluated exactly by the exact test)
    if degree <= least || degree > MOST_DEGREE || symbol.is_none() {
        return Ok(None);
    }
    for k in 0..=degree as i64 {
        // 0, 1, −1, 2, −2, …: the smallest values
        let point = if k % 2 == 1 { (k + 1) / 2 } else { -(k / 2) };
        let at = Value::integer(BigInt::from(point));
        match value(expr, &at, budget)? {
            Some(v) if v.n.is_zero() => {}
            Some(_) => return Ok(Some(false)),
            // (not met: degree_bound refuses a power of 0 to a negative exponent)
            None => return Ok(None),
        }
    }
    Ok(Some(true))
}

/// A bound on the degree of `e` as a polynomial in its one symbol (recorded in `symbol`);
/// `None` where `e` is not such a polynomial.
fn degree_bound<'e>(
    e: &'e Expr,
    symbol: &mut Option<&'e str>,
    budget: &mut Budget,
) -> Result<Option<u64>, TooLarge> {
    budget.step()?;
    Ok(match e {
        Expr::Int(_) | Expr::Rat(_) => Some(0),
        Expr::Float(_) | Expr::Call(..) => None,
        Expr::Sym(name) => match symbol {
            Some(s) if *s != &**name => None,
            _ => {
                *symbol = Some(name);
                Some(1)
            }
        },
        Expr::Add(xs) | Expr::Mul(xs) => {
            let product = matches!(e, Expr::Mul(_));
            let mut bound = 0u64;
            for x in xs.iter() {
                let Some(d) = degree_bound(x, symbol, budget)? else {
                    return Ok(None);
                };
                bound = if product {
                    bound.saturating_add(d)
                } else {
                    bound.max(d)
                };
            }
            Some(bound)
        }
        Expr::Pow(p) => {
            // The exponent's sign and size (an integer literal read as it is, without a
            // rational made of it: this walk runs before every exact test).
            let (negative, n) = match &p.1 {
                Expr::Int(n) => (n.is_negative(), n.magnitude().to_u64()),
                e => match exact_value(e).filter(BigRational::is_integer) {
                    Some(n) => (n.is_negative(), n.to_integer().magnitude().to_u64()),
                    None => return Ok(None),
                },
            };
            let Some(d) = degree_bound(&p.0, symbol, budget)? else {
                return Ok(None);
            };
            if negative {
                // a constant's reciprocal power only (and not of 0)
                if d != 0 || !nonzero_constant(&p.0, budget)? {
                    return Ok(None);
                }
                Some(0)
            } else {
                Some(d.saturating_mul(n.unwrap_or(u64::MAX)))
            }
        }
    })
}

/// Whether a symbol-free `e` that [`degree_bound`] accepted has a value other than 0 (not
/// where a power of 0 to a negative exponent leaves it without one).
fn nonzero_constant(e: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
    let point = Value::integer(BigInt::zero());
    Ok(value(e, &point, budget)?.is_some_and(|v| !v.n.is_zero()))
}

/// An exact rational `n/d` (`d > 0`) not reduced to lowest terms: most values here are
/// integers of a thousand bits or more, and `BigRational` would take a greatest common
/// divisor at every operation.
#[derive(Clone)]
struct Value {
    n: BigInt,
    d: BigInt,
}

impl Value {
    fn integer(n: BigInt) -> Value {
        Value {
            n,
            d: BigInt::from(1),
        }
    }

    fn rational(r: &BigRational) -> Value {
        Value {
            n: r.numer().clone(),
            d: r.denom().clone(),
        }
    }

    fn words(&self) -> u64 {
        (self.n.bits() + self.d.bits()) / 64 + 1
    }

    fn add(self, other: Value) -> Value {
        if self.d == other.d {
            return Value {
                n: self.n + other.n,
                d: self.d,
            };
        }
        Value {
            n: self.n * &other.d + other.n * &self.d,
            d: self.d * other.d,
        }
        .reduced()
    }

    fn mul(self, other: Value) -> Value {
        Value {
            n: self.n * other.n,
            d: self.d * other.d,
        }
        .reduced()
    }

    /// Lowest terms once the denominator passes a few words (so that a long sum of terms over
    /// different denominators does not grow without end).
    fn reduced(self) -> Value {
        if self.d.bits() <= 256 {
            return self;
        }
        let r = BigRational::new(self.n, self.d);
        Value::rational(&r)
    }
}

/// The value of `e` with its symbol at `at`, exactly; `None` for a power of 0 to a negative
/// exponent. Each sum, product and power is counted by the size of its operands as well (a
/// step for about 512 products of machine words).
fn value(e: &Expr, at: &Value, budget: &mut Budget) -> Result<Option<Value>, TooLarge> {
    // (a quarter step a node: most are small integers)
    budget.ticks(8)?;
    Ok(Some(match e {
        Expr::Int(n) => Value::integer((**n).clone()),
        Expr::Rat(r) => Value::rational(r),
        Expr::Sym(_) => at.clone(),
        Expr::Add(xs) => {
            let mut sum = Value::integer(BigInt::zero());
            for x in xs.iter() {
                let Some(v) = value(x, at, budget)? else {
                    return Ok(None);
                };
                budget.steps(sum.words().max(v.words()) / 64)?;
                sum = sum.add(v);
            }
            sum
        }
        Expr::Mul(xs) => {
            let mut product = Value::integer(BigInt::from(1));
            for x in xs.iter() {
                let Some(v) = value(x, at, budget)? else {
                    return Ok(None);
                };
                budget.steps(product.words() * v.words() / 512)?;
                product = product.mul(v);
            }
            product
        }
        Expr::Pow(p) => {
            let (Some(base), Some(n)) = (
                value(&p.0, at, budget)?,
                exact_value(&p.1).filter(BigRational::is_integer),
            ) else {
                return Ok(None);
            };
            if base.n.is_zero() && n.is_negative() {
                return Ok(None);
            }
            let Ok(n) = i32::try_from(n.to_integer()) else {
                return Err(TooLarge);
            };
            // (the result's words squared, as the last squaring costs)
            let bits = base.n.bits() + base.d.bits();
            let result = bits.saturating_mul(u64::from(n.unsigned_abs())) / 64 + 1;
            budget.steps(result.saturating_mul(result) / 512)?;
            let k = n.unsigned_abs();
            let (top, bottom) = (
                num_traits::Pow::pow(base.n, k),
                num_traits::Pow::pow(base.d, k),
            );
            if n >= 0 {
                Value { n: top, d: bottom }
            } else if top.is_negative() {
                Value {
                    n: -bottom,
                    d: -top,
                }
            } else {
                Value { n: bottom, d: top }
            }
        }
        Expr::Float(_) | Expr::Call(..) => return Ok(None),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::recipe::expression::parse::parse;
    use proptest::strategy::Strategy;
    use std::collections::BTreeSet;

    fn decide(text: &str, least: u64) -> Option<bool> {
        let e = parse(text, &mut BTreeSet::new()).unwrap();
        decided(&e, least, &mut Budget::standard()).unwrap()
    }

    #[test]
    fn a_polynomial_in_one_symbol_past_the_least_degree_is_decided() {
        assert_eq!(decide("(x+1)^3 - x^3 - 3*x^2 - 3*x - 1", 2), Some(true));
        assert_eq!(decide("(x+1)^3 - x^3 - 3*x^2 - 3*x", 2), Some(false));
        // 0 at 0, 1, −1, 2 (the first four points) but not at −2
        assert_eq!(decide("x*(x-1)*(x+1)*(x-2)*(x^2+1)^0", 3), Some(false));
        // reciprocals of nonzero constants, and rationals
        assert_eq!(decide("(x/2+1/2)^4*16 - (x+1)^4", 3), Some(true));
        assert_eq!(decide("(x+1)^4*3^-1*3 - (x+1)^4", 3), Some(true));
    }

    /// A product of powers of lines `(a·x + b)^n`, written as text.
    fn product(factors: &[(i64, i64, u32)]) -> String {
        factors
            .iter()
            .map(|(a, b, n)| format!("({a}*x + {b})^{n}"))
            .collect::<Vec<_>>()
            .join("*")
    }

    proptest::proptest! {
        /// A product of powers of lines equals itself with its factors reversed and one power
        /// split in two (`B^n = B^k·B^(n−k)`), and differs from it by any nonzero multiple of a
        /// power of `x` added; both decided here, past the least degree 64.
        #[test]
        fn products_of_lines_meet_their_rewritings_and_not_their_perturbations(
            factors in proptest::collection::vec((1i64..4, -3i64..4, 1u32..90), 1..5),
            split in 0u32..90,
            c in (-5i64..6).prop_filter("nonzero", |c| *c != 0),
            k in 0u32..100,
        ) {
            let degree: u32 = factors.iter().map(|f| f.2).sum();
            proptest::prop_assume!(degree > 64 && degree <= 512);
            let mut reversed = factors.clone();
            reversed.reverse();
            let (a, b, n) = reversed[0];
            let k_split = split % (n + 1);
            reversed[0] = (a, b, n - k_split);
            reversed.push((a, b, k_split));
            let rewritten = product(&reversed);
            let p = product(&factors);
            proptest::prop_assert_eq!(decide(&format!("{p} - {rewritten}"), 64), Some(true));
            let off = format!("{p} - {rewritten} + {c}*x^{}", k.min(degree));
            proptest::prop_assert_eq!(decide(&off, 64), Some(false));
        }
    }

    #[test]
    fn anything_else_is_left_to_the_other_tests() {
        // at or below the least degree
        assert_eq!(decide("(x+1)^2 - x^2 - 2*x - 1", 2), None);
        // two symbols, a function, a decimal, a negative or fractional power of the symbol,
        // a power of 0 to a negative exponent, past the highest degree, a constant
        for text in [
            "(x+y)^3 - x^3",
            "sin(x)^5",
            "0.5*x^5",
            "x^-5 + x^6",
            "x^(1/2) + x^6",
            "(x - x)^-1 + x^6",
            "0^-1*x^6",
            "x^600 - x^600",
            "(3+1)^5 - 4^5",
        ] {
            assert_eq!(decide(text, 4), None, "{text}");
        }
    }
}
