//! Exact rationals for the canonical form ([`super::canon`]): two machine integers while the
//! value fits, num-rational's `BigRational` beyond.
//!
//! Almost every coefficient the exact test meets is small (`2`, `-3`, `1/2`), and
//! `BigRational` allocates both parts and runs a big-integer gcd for each of them: that was a
//! fifth of the time of re-checking expression recipes. num-rational's `Ratio<i64>` panics on
//! overflow instead of widening, and a crate with inline small integers (dashu, malachite)
//! would mean converting every number of the expression tree, which is num-bigint's; so this
//! is a thin fast path in front of `BigRational`, with the same values and the same text.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive};
use std::fmt;

/// A rational number.
///
/// Invariant: a value whose reduced numerator and denominator both lie in `±(2^63 − 1)` is
/// always [`Q::Small`] (so derived equality is equality of values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Q {
    /// `numerator / denominator`, reduced, the denominator positive.
    Small(i64, i64),
    /// Any other value.
    Big(BigRational),
}

/// `i` when it fits the small form (`i64::MIN` does not: it has no negation).
fn small(i: i128) -> Option<i64> {
    i64::try_from(i).ok().filter(|&i| i != i64::MIN)
}

impl Q {
    /// Zero.
    pub fn zero() -> Q {
        Q::Small(0, 1)
    }

    /// One.
    pub fn one() -> Q {
        Q::Small(1, 1)
    }

    /// The integer `n`.
    pub fn int(n: i64) -> Q {
        Q::ratio(i128::from(n), 1)
    }

    /// `n / d` for `d ≠ 0`, reduced.
    pub fn ratio(n: i128, d: i128) -> Q {
        assert!(d != 0, "a rational with denominator zero");
        let (n, d) = if d < 0 { (-n, -d) } else { (n, d) };
        let g = n.unsigned_abs().gcd(&d.unsigned_abs()) as i128;
        let (n, d) = (n / g, d / g);
        match (small(n), small(d)) {
            (Some(n), Some(d)) => Q::Small(n, d),
            _ => Q::Big(BigRational::new_raw(n.into(), d.into())),
        }
    }

    /// A `BigRational` (reduced, as num-rational keeps them).
    pub fn from_big(r: BigRational) -> Q {
        let parts = (
            r.numer().to_i128().and_then(small),
            r.denom().to_i128().and_then(small),
        );
        match parts {
            (Some(n), Some(d)) => Q::Small(n, d),
            _ => Q::Big(r),
        }
    }

    /// The integer `n`.
    pub fn from_integer(n: &BigInt) -> Q {
        match n.to_i128().and_then(small) {
            Some(n) => Q::Small(n, 1),
            None => Q::Big(BigRational::from_integer(n.clone())),
        }
    }

    /// The value as a `BigRational`.
    pub fn to_big(&self) -> BigRational {
        match self {
            Q::Small(n, d) => BigRational::new_raw((*n).into(), (*d).into()),
            Q::Big(r) => r.clone(),
        }
    }

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        matches!(self, Q::Small(0, _))
    }

    /// Whether this is below 0.
    pub fn is_negative(&self) -> bool {
        match self {
            Q::Small(n, _) => *n < 0,
            Q::Big(r) => r.is_negative(),
        }
    }

    /// Whether this is above 0.
    pub fn is_positive(&self) -> bool {
        match self {
            Q::Small(n, _) => *n > 0,
            Q::Big(r) => r.is_positive(),
        }
    }

    /// Whether this is 1 or −1.
    pub fn is_unit(&self) -> bool {
        matches!(self, Q::Small(1 | -1, 1))
    }

    /// The size in bits of the larger of the numerator and the denominator.
    pub fn bits(&self) -> u64 {
        match self {
            Q::Small(n, d) => u64::from(64 - n.unsigned_abs().leading_zeros())
                .max(u64::from(64 - d.unsigned_abs().leading_zeros())),
            Q::Big(r) => r.numer().bits().max(r.denom().bits()),
        }
    }

    /// The value as an f64 (within a few units of the last place: the small form rounds its
    /// two parts and their quotient), or `None` past f64's range.
    pub fn to_f64(&self) -> Option<f64> {
        let v = match self {
            Q::Small(n, d) => *n as f64 / *d as f64,
            Q::Big(r) => r.to_f64()?,
        };
        v.is_finite().then_some(v)
    }

    /// `1 / self`; panics on zero, as `BigRational::recip` does.
    pub fn recip(&self) -> Q {
        match self {
            Q::Small(n, d) => Q::ratio(i128::from(*d), i128::from(*n)),
            Q::Big(r) => Q::from_big(r.recip()),
        }
    }

    /// `self^n`.
    pub fn pow(&self, mut n: u32) -> Q {
        let mut result = Q::one();
        let mut square = self.clone();
        while n > 0 {
            if n & 1 == 1 {
                result = &result * &square;
            }
            n >>= 1;
            if n > 0 {
                square = &square * &square;
            }
        }
        result
    }
}

impl std::ops::Add<&Q> for &Q {
    type Output = Q;
    fn add(self, other: &Q) -> Q {
        match (self, other) {
            (Q::Small(a, 1), Q::Small(c, 1)) => Q::ratio(i128::from(*a) + i128::from(*c), 1),
            (Q::Small(a, b), Q::Small(c, d)) => {
                let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
                // |a·d + c·b| < 2^127 and b·d < 2^126: no overflow.
                Q::ratio(a * d + c * b, b * d)
            }
            _ => {
                let (a, b) = (self.to_big(), other.to_big());
                let (n, d) = if a.denom() == b.denom() {
                    (a.numer() + b.numer(), a.denom().clone())
                } else {
                    (
                        a.numer() * b.denom() + b.numer() * a.denom(),
                        a.denom() * b.denom(),
                    )
                };
                reduced(n, d)
            }
        }
    }
}

impl std::ops::AddAssign<Q> for Q {
    fn add_assign(&mut self, other: Q) {
        *self = &*self + &other;
    }
}

impl std::ops::Mul<&Q> for &Q {
    type Output = Q;
    fn mul(self, other: &Q) -> Q {
        match (self, other) {
            (Q::Small(a, 1), Q::Small(c, 1)) => match small(i128::from(*a) * i128::from(*c)) {
                Some(n) => Q::Small(n, 1),
                None => Q::ratio(i128::from(*a) * i128::from(*c), 1),
            },
            (Q::Small(a, b), Q::Small(c, d)) => {
                // Cross-cancel first: the result is then reduced already.
                let g1 = a.unsigned_abs().gcd(&d.unsigned_abs()).max(1) as i64;
                let g2 = c.unsigned_abs().gcd(&b.unsigned_abs()).max(1) as i64;
                let n = i128::from(a / g1) * i128::from(c / g2);
                let m = i128::from(b / g2) * i128::from(d / g1);
                match (small(n), small(m)) {
                    (Some(n), Some(m)) => Q::Small(n, m),
                    _ => Q::Big(BigRational::new_raw(n.into(), m.into())),
                }
            }
            _ => {
                let (a, b) = (self.to_big(), other.to_big());
                reduced(a.numer() * b.numer(), a.denom() * b.denom())
            }
        }
    }
}

/// `n / d` for a positive `d`, reduced. (num-rational reduces by num-bigint's binary gcd,
/// which allocates at every shift: with coefficients past 64 bits it was most of the exact
/// test's time. Where both fit in 128 bits, the gcd is taken in machine integers, by
/// num-integer's binary gcd for `u128`.)
fn reduced(n: BigInt, d: BigInt) -> Q {
    use num_bigint::BigUint;
    let (p, q) = (n.magnitude(), d.magnitude());
    // (over 1 nothing to reduce: num-bigint's gcd with 1 still shifts the other number a bit
    // at a time, which was most of the time of expanding (1 − cos²)^500's binomials)
    if q.is_one() {
        return Q::from_big(BigRational::new_raw(n, d));
    }
    let g = match (p.to_u128(), q.to_u128()) {
        (Some(p), Some(q)) => BigUint::from(p.gcd(&q)),
        _ => p.gcd(q),
    };
    if g.is_one() {
        return Q::from_big(BigRational::new_raw(n, d));
    }
    let g = BigInt::from(g);
    Q::from_big(BigRational::new_raw(n / &g, d / &g))
}

impl std::ops::Neg for Q {
    type Output = Q;
    fn neg(self) -> Q {
        match self {
            // The small form excludes i64::MIN, so this cannot overflow.
            Q::Small(n, d) => Q::Small(-n, d),
            Q::Big(r) => Q::from_big(-r),
        }
    }
}

impl fmt::Display for Q {
    /// As `BigRational` writes it: `n` for an integer, else `n/d`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Q::Small(n, 1) => write!(f, "{n}"),
            Q::Small(n, d) => write!(f, "{n}/{d}"),
            Q::Big(r) => write!(f, "{r}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;
    use proptest::prelude::*;

    /// Values near the edges of the small form, and beyond it (past 128 bits too).
    fn value() -> impl Strategy<Value = BigRational> {
        let part = prop_oneof![
            (-20i128..20).prop_map(BigInt::from),
            any::<i64>().prop_map(BigInt::from),
            ((i64::MAX as i128 - 3)..(i64::MAX as i128 + 3)).prop_map(BigInt::from),
            ((i64::MIN as i128 - 3)..(i64::MIN as i128 + 3)).prop_map(BigInt::from),
            any::<i128>().prop_map(BigInt::from),
            (any::<i128>(), any::<u64>()).prop_map(|(a, b)| BigInt::from(a) * BigInt::from(b)),
            (any::<i128>(), 1u64..1000).prop_map(|(a, b)| BigInt::from(a) * BigInt::from(3 * b)),
        ];
        (part.clone(), part).prop_filter_map("nonzero denominator", |(n, d)| {
            (!d.is_zero()).then(|| BigRational::new(n, d))
        })
    }

    fn q(r: &BigRational) -> Q {
        Q::from_big(r.clone())
    }

    proptest! {
        #[test]
        fn agrees_with_big_rational(a in value(), b in value(), n in 0u32..5) {
            let (x, y) = (q(&a), q(&b));
            prop_assert_eq!((&x + &y).to_big(), &a + &b);
            prop_assert_eq!(&x + &y, q(&(&a + &b)));
            prop_assert_eq!(&x * &y, q(&(&a * &b)));
            prop_assert_eq!(-x.clone(), q(&-a.clone()));
            prop_assert_eq!(x.pow(n), q(&num_traits::pow::Pow::pow(&a, n)));
            if !a.is_zero() {
                prop_assert_eq!(x.recip(), q(&a.recip()));
            }
            prop_assert_eq!(x.to_string(), a.to_string());
            prop_assert_eq!(x.bits(), a.numer().bits().max(a.denom().bits()));
            prop_assert_eq!(x.is_negative(), a.is_negative());
            prop_assert_eq!(x.is_positive(), a.is_positive());
            prop_assert_eq!(x.is_zero(), a.is_zero());
            prop_assert_eq!(x.is_unit(), a.abs().is_one());
            prop_assert_eq!(x == y, a == b);
            let mut sum = x.clone();
            sum += y.clone();
            prop_assert_eq!(sum, &x + &y);
        }

        #[test]
        fn small_values_stay_small(a in -1000i64..1000, b in 1i64..1000, c in -1000i64..1000) {
            let x = Q::ratio(a.into(), b.into());
            let y = Q::int(c);
            prop_assert!(matches!(&x + &y, Q::Small(..)));
            prop_assert!(matches!(&x * &y, Q::Small(..)));
            prop_assert_eq!(Q::from_integer(&BigInt::from(c)), y);
        }
    }

    #[test]
    fn the_edges_of_the_small_form() {
        let max = Q::int(i64::MAX);
        assert!(matches!(max, Q::Small(..)));
        assert!(matches!(&max + &Q::one(), Q::Big(_)));
        assert_eq!(&(&max + &Q::one()) + &Q::int(-1), max);
        assert!(matches!(Q::ratio(i64::MIN as i128, 1), Q::Big(_)));
        assert_eq!(Q::ratio(i64::MIN as i128, 2), Q::int(i64::MIN / 2));
        assert_eq!(Q::ratio(6, -4).to_string(), "-3/2");
        assert_eq!(Q::zero().bits(), BigRational::zero().denom().bits());
    }
}
