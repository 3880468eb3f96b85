//! Bounds on the size of a value too large for a ball: `ln |v|` as an interval.
//!
//! A ball's bounds are f64 numbers, so a residual past 10^308 has none: `x^(10^12)` at
//! x = 1.23 is about 10^(9·10^10), `(x^1000 + 1)^999·x^999` about 10^89,900. f64 overflows
//! there too, and the numeric rule leaves such a point out (alkahest does), though the
//! residual has a value: a claim false at that point passes on the others. Its logarithm is
//! a modest number, and bounds on it settle the question.
//!
//! A node whose 128-bit ball is finite is a leaf: `ln |v|` is the ball of `log(abs(v))` when
//! the ball of `v` keeps off 0, and only an upper bound otherwise. Above the leaves, products
//! add the logarithms, integer and real powers scale them, `exp(u)` is `u` itself, and a sum
//! has a size only when one term outweighs the others together (its lower bound above their
//! upper bounds together, which leaves a lower bound of the sum: `sum`), or through the powers
//! its terms share, taken out (`factored_sum`). Terms of like size that may cancel give no
//! bound; nor does anything else (a function of a huge argument), so the answer is
//! conservative: a bound or nothing.
//!
//! Every f64 step is rounded outward (`next_down`, `next_up`), so the intervals hold the
//! exact logarithms; no step rests on the math library (the logarithms of the leaves come
//! from the balls, and the cruder bounds from the binary exponent alone).

use super::ball::Evaluator;
use super::eval::Bindings;
use super::expr::{Budget, Expr, Func, exact_value};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The bits of the leaves' balls.
const BITS: usize = 128;
/// ln 2 rounded down and up (0.693147180559945309...).
const LN2_DOWN: f64 = 0.693_147_180_559_945_2;
const LN2_UP: f64 = 0.693_147_180_559_945_4;

/// What is known of `v`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Size {
    /// `v ≠ 0`, and `ln |v|` in `[lo, hi]`.
    Known {
        /// The sign of `v`: 1 or −1.
        sign: i8,
        /// A lower bound of `ln |v|`.
        lo: f64,
        /// An upper bound of `ln |v|`.
        hi: f64,
    },
    /// `|v| ≤ e^hi` (possibly 0).
    AtMost(f64),
}

impl Size {
    fn hi(&self) -> f64 {
        match *self {
            Size::Known { hi, .. } | Size::AtMost(hi) => hi,
        }
    }
}

/// The size of `e` at `point`, or `None` when the rules above give none.
pub fn size(e: &Expr, point: &Bindings, budget: &mut Budget) -> Option<Size> {
    Sizer { point }.size(e, budget)
}

/// `ln t` rounded up, for a tolerance `t ≥ 0`, from its binary exponent alone (`t < 2^k`):
/// at most ln 2 above it.
pub fn ln_at_most(t: f64) -> f64 {
    if t <= 0.0 {
        return f64::NEG_INFINITY;
    }
    // (t = m·2^k with m in [1/2, 1))
    let (_, k) = libm::frexp(t);
    mul_up(f64::from(k), if k >= 0 { LN2_UP } else { LN2_DOWN })
}

struct Sizer<'a> {
    point: &'a Bindings,
}

impl Sizer<'_> {
    fn size(&self, e: &Expr, budget: &mut Budget) -> Option<Size> {
        budget.step().ok()?;
        if let Some(leaf) = self.leaf(e, budget) {
            return Some(leaf);
        }
        match e {
            Expr::Mul(xs) => {
                let mut acc = Size::Known {
                    sign: 1,
                    lo: 0.0,
                    hi: 0.0,
                };
                for x in xs.iter() {
                    acc = product(acc, self.size(x, budget)?);
                }
                Some(acc)
            }
            Expr::Add(xs) => {
                let sizes = xs
                    .iter()
                    .map(|x| self.size(x, budget))
                    .collect::<Option<Vec<_>>>();
                match sizes.as_deref().and_then(sum) {
                    Some(size) => Some(size),
                    None => self.factored_sum(xs, budget),
                }
            }
            Expr::Pow(p) => {
                let base = self.size(&p.0, budget)?;
                match exact_value(&p.1) {
                    Some(n) if n.is_integer() => {
                        let odd = n.to_integer().bit(0);
                        let (n_lo, n_hi) = enclose(n.to_f64()?);
                        match base {
                            Size::Known { sign, lo, hi } => {
                                let (lo, hi) = interval_mul((n_lo, n_hi), (lo, hi));
                                let sign = if sign < 0 && odd { -1 } else { 1 };
                                Some(Size::Known { sign, lo, hi })
                            }
                            // (a base that may be 0: nothing for n ≤ 0)
                            Size::AtMost(hi) if n.is_positive() => {
                                Some(Size::AtMost(mul_up(n_hi, hi).max(mul_up(n_lo, hi))))
                            }
                            Size::AtMost(_) => None,
                        }
                    }
                    // a real power of a positive base: e^(b·ln a)
                    _ => match base {
                        Size::Known { sign: 1, lo, hi } => {
                            let b = self.bounds(&p.1, budget)?;
                            let (lo, hi) = interval_mul(b, (lo, hi));
                            Some(Size::Known { sign: 1, lo, hi })
                        }
                        _ => None,
                    },
                }
            }
            Expr::Call(Func::Exp, xs) if xs.len() == 1 => {
                let (lo, hi) = self.bounds(&xs[0], budget)?;
                Some(Size::Known { sign: 1, lo, hi })
            }
            _ => None,
        }
    }

    /// The size of `e` from its ball, when the ball is finite (`None`: not a leaf).
    fn leaf(&self, e: &Expr, budget: &mut Budget) -> Option<Size> {
        let b = Evaluator::new(BITS, self.point).ball(e, budget).ok()?;
        let (lo, hi) = b.interval();
        if !(lo.is_finite() && hi.is_finite()) {
            return None;
        }
        let sign = b.sign();
        if sign == 0 {
            let most = lo.abs().max(hi.abs());
            return Some(Size::AtMost(ln_at_most(most)));
        }
        // ln |v| from the ball of log(abs(v)); from the binary exponents if that has none
        let log = Expr::call(Func::Log, Expr::call(Func::Abs, e.clone()));
        let (l_lo, l_hi) = match Evaluator::new(BITS, self.point).ball(&log, budget) {
            Ok(l) if l.interval().0.is_finite() && l.interval().1.is_finite() => l.interval(),
            _ => {
                let (small, large) = (lo.abs().min(hi.abs()), lo.abs().max(hi.abs()));
                let (_, k) = libm::frexp(small);
                (
                    mul_down(f64::from(k - 1), if k > 1 { LN2_DOWN } else { LN2_UP }),
                    ln_at_most(large),
                )
            }
        };
        Some(Size::Known {
            sign,
            lo: l_lo,
            hi: l_hi,
        })
    }

    /// The size of a sum whose terms share powers of some bases, each taken out with its least
    /// exponent: `y·y^(10^30) − y^(10^30)` is `y^(10^30)·(y − 1)`, where the two terms' sizes
    /// are too close for f64 to tell apart (each about `10^30·ln y`) but `y − 1` is a leaf.
    /// With integer exponents `B^e = B^m·B^(e−m)` wherever `B ≠ 0`, and where `B = 0` the
    /// factor `B^m` has no lower bound (`m > 0`) or no size at all (`m ≤ 0`), so nothing is
    /// refuted through it.
    fn factored_sum(&self, xs: &[Expr], budget: &mut Budget) -> Option<Size> {
        let terms = xs
            .iter()
            .map(|x| {
                let mut out = Vec::new();
                factors(x, &mut out, budget).map(|()| out)
            })
            .collect::<Option<Vec<_>>>()?;
        // the total exponent of `base` in a term (`None`: not a factor of it)
        let exponent = |term: &[(Expr, BigInt)], base: &Expr, budget: &mut Budget| {
            let mut total: Option<BigInt> = None;
            for (b, e) in term {
                if b.identical(base, budget).ok()? {
                    total = Some(total.unwrap_or_default() + e);
                }
            }
            total
        };
        // whether `base` is one of `list`'s bases
        let among = |list: &[(Expr, BigInt)], base: &Expr, budget: &mut Budget| {
            for (b, _) in list {
                if b.identical(base, budget).ok()? {
                    return Some(true);
                }
            }
            Some(false)
        };
        let mut common: Vec<(Expr, BigInt)> = Vec::new();
        for (base, _) in terms.first()? {
            if among(&common, base, budget)? {
                continue;
            }
            let least = terms
                .iter()
                .map(|t| exponent(t, base, budget))
                .collect::<Option<Vec<_>>>()
                .and_then(|es| es.into_iter().min());
            if let Some(least) = least.filter(|m| !m.is_zero()) {
                common.push((base.clone(), least));
            }
        }
        if common.is_empty() {
            return None;
        }
        let power = |base: &Expr, n: BigInt| {
            Expr::Pow(std::rc::Rc::new((
                base.clone(),
                Expr::Int(std::rc::Rc::new(n)),
            )))
        };
        let mut rest = Vec::with_capacity(terms.len());
        for term in &terms {
            let mut kept = Vec::new();
            for (b, e) in term {
                if !among(&common, b, budget)? {
                    kept.push(power(b, e.clone()));
                }
            }
            for (b, least) in &common {
                let n = exponent(term, b, budget)? - least;
                if !n.is_zero() {
                    kept.push(power(b, n));
                }
            }
            // (a term that was the common factor alone is 1)
            rest.push(match kept.len() {
                0 => Expr::Int(std::rc::Rc::new(BigInt::one())),
                _ => Expr::Mul(kept.into()),
            });
        }
        let mut acc = self.size(&Expr::Add(rest.into()), budget)?;
        for (b, least) in common {
            acc = product(acc, self.size(&power(&b, least), budget)?);
        }
        Some(acc)
    }

    /// Signed bounds of a value a finite ball holds.
    fn bounds(&self, e: &Expr, budget: &mut Budget) -> Option<(f64, f64)> {
        let b = Evaluator::new(BITS, self.point).ball(e, budget).ok()?;
        let (lo, hi) = b.interval();
        (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
    }
}

/// A term's factors as bases with integer exponents: `3·y·B^(10^30)` is `3^1`, `y^1` and
/// `B^(10^30)`.
fn factors(e: &Expr, out: &mut Vec<(Expr, BigInt)>, budget: &mut Budget) -> Option<()> {
    budget.step().ok()?;
    match e {
        Expr::Mul(xs) => {
            for x in xs.iter() {
                factors(x, out, budget)?;
            }
        }
        Expr::Pow(p) => match exact_value(&p.1).filter(|n| n.is_integer()) {
            Some(n) => out.push((p.0.clone(), n.to_integer())),
            None => out.push((e.clone(), BigInt::one())),
        },
        _ => out.push((e.clone(), BigInt::one())),
    }
    Some(())
}

/// The size of a product.
fn product(a: Size, b: Size) -> Size {
    match (a, b) {
        (
            Size::Known {
                sign: s,
                lo: a_lo,
                hi: a_hi,
            },
            Size::Known {
                sign: t,
                lo: b_lo,
                hi: b_hi,
            },
        ) => Size::Known {
            sign: s * t,
            lo: add_down(a_lo, b_lo),
            hi: add_up(a_hi, b_hi),
        },
        (a, b) => Size::AtMost(add_up(a.hi(), b.hi())),
    }
}

/// The size of a sum: that of a term that outweighs the others together. With `a` the
/// largest term, `h` the largest upper bound of the others and `hᵢ` each one's, the others are
/// together below `e^h·S`, `S = Σ 1/(1 + h − hᵢ)` (as `e^−t ≤ 1/(1 + t)` for `t ≥ 0`), and
/// `ln S ≤ S − 1`. When that leaves `e^−d` of `a`'s lower bound, `d > 0`,
/// `|sum| ≥ e^lo·(1 − e^−d) ≥ e^(lo − 1/d)` (as `1 − e^−d ≥ d/(1 + d)` and
/// `ln(1 + 1/d) ≤ 1/d`), and `|sum| < 2·e^hi`.
fn sum(sizes: &[Size]) -> Option<Size> {
    let (first, rest) = sizes.split_first()?;
    if rest.is_empty() {
        return Some(*first);
    }
    let (i, (sign, lo, hi)) = sizes
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match *s {
            Size::Known { sign, lo, hi } => Some((i, (sign, lo, hi))),
            Size::AtMost(_) => None,
        })
        .max_by(|a, b| a.1.1.total_cmp(&b.1.1))?;
    let others = || {
        sizes
            .iter()
            .enumerate()
            .filter(move |(j, _)| *j != i)
            .map(|(_, s)| s.hi())
    };
    let h = others().fold(f64::NEG_INFINITY, f64::max);
    if h == f64::NEG_INFINITY {
        // (the others are 0)
        return Some(sizes[i]);
    }
    let s = others().fold(0.0, |s, hi| {
        add_up(s, (1.0 / (1.0 + sub_down(h, hi))).next_up())
    });
    let d = sub_down(sub_down(lo, h), (s - 1.0).next_up());
    if d.is_nan() || d <= 0.0 {
        return None;
    }
    Some(Size::Known {
        sign,
        lo: sub_down(lo, (1.0 / d).next_up()),
        hi: add_up(hi, LN2_UP),
    })
}

/// An f64 interval that holds `x`'s exact value (`x` rounded to nearest).
fn enclose(x: f64) -> (f64, f64) {
    (x.next_down(), x.next_up())
}

fn add_down(a: f64, b: f64) -> f64 {
    (a + b).next_down()
}

fn add_up(a: f64, b: f64) -> f64 {
    (a + b).next_up()
}

fn sub_down(a: f64, b: f64) -> f64 {
    (a - b).next_down()
}

fn mul_down(a: f64, b: f64) -> f64 {
    (a * b).next_down()
}

fn mul_up(a: f64, b: f64) -> f64 {
    (a * b).next_up()
}

/// `[a] × [b]`, rounded outward.
fn interval_mul(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let products = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1];
    // (0·∞: nothing known)
    if products.iter().any(|p| p.is_nan()) {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let lo = products.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = products.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo.next_down(), hi.next_up())
}

/// `1e+k` for the largest integer `k` with `10^k ≤ e^lo` (that `lo` is a lower bound of a
/// logarithm makes the text one of the value), for a detail; past 10^15, where the f64 `k`'s
/// last digits are rounding, `10^k` with `k` to six digits, rounded down.
pub fn power_of_ten_below(lo: f64) -> String {
    // 1/ln 10 = 0.4342944819032518..., rounded toward zero
    let k = if lo >= 0.0 {
        mul_down(lo, 0.434_294_481_903_251_7)
    } else {
        (lo * 0.434_294_481_903_251_9).next_down()
    }
    .floor();
    if k >= 1e15 {
        // (six digits round by at most half a millionth, less than what is taken off)
        let below = mul_down(k, 1.0 - 1e-6);
        return format!("10^{}", sciproof_json::pyfmt::format_g(below, 6));
    }
    format!("1e{}{:.0}", if k < 0.0 { "-" } else { "+" }, k.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::recipe::expression::parse::parse;

    fn at(text: &str, x: f64) -> Option<Size> {
        let e = parse(text, &mut Default::default()).expect("parses");
        let point = Bindings::from([("x".to_string(), x)]);
        size(&e, &point, &mut Budget::standard())
    }

    fn known(s: Option<Size>) -> (i8, f64, f64) {
        match s {
            Some(Size::Known { sign, lo, hi }) => (sign, lo, hi),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn powers_past_the_f64_range_have_their_logarithm() {
        // ln(1.23^(10^12)) = 10^12·ln 1.23 = 207014169384.326...
        let (sign, lo, hi) = known(at("x^1000000000000", 1.23));
        assert_eq!(sign, 1);
        assert!(
            lo <= 207_014_169_384.326 && 207_014_169_384.326 <= hi,
            "{lo} {hi}"
        );
        assert!(hi - lo < 0.01, "{lo} {hi}");
        // an odd power of a negative base is negative; an even one positive
        assert_eq!(known(at("x^999999999999", -1.23)).0, -1);
        assert_eq!(known(at("x^(10^30)", -1.23)).0, 1);
        // e^1431.6...: exp of its argument
        let (sign, lo, hi) = known(at("2*exp(625*x^4)", 1.23));
        assert_eq!(sign, 1);
        let ln = 625.0 * 1.23f64.powi(4) + 2f64.ln();
        assert!(lo < ln && ln < hi && hi - lo < 1e-8, "{lo} {hi}");
    }

    #[test]
    fn a_sum_has_a_size_only_when_one_term_outweighs_the_rest() {
        // (x^1000 + 1)^999·(x^999 + 1) outweighs (x^1000 + 1)^999 by x^999 ≈ 10^89.8
        let (sign, lo, _) = known(at("(x^1000 + 1)^999 - (x^1000 + 1)^999*(x^999 + 1)", 1.23));
        assert_eq!(sign, -1);
        assert!(lo > 200_000.0, "{lo}");
        assert_eq!(
            known(at("x^(10^29)*x - x^(10^30)", 1.23)).0,
            -1,
            "the larger power decides"
        );
        // x·T − 1.1x·T beside a far smaller third term: what the others add is counted by
        // how far below they are, not by their number
        let (sign, lo, _) = known(at("x*x^1000000 - 1.1*x*x^1000000 + x^100001/7", 1.23));
        assert_eq!(sign, -1);
        assert!(lo > 1_000_000.0 * 1.23f64.ln() - 20.0, "{lo}");
        // terms of like size that cancel: no size
        assert_eq!(at("exp(625*x^4) - exp(625*x^4) - x^2/10^8", 1.23), None);
        // (unless they share a factor: e^L·(1 − (1 + 10^-30)) = −e^L·10^-30)
        let (sign, lo, hi) = known(at("exp(625*x^4) - exp(625*x^4)*(1 + 10^(-30))", 1.23));
        let l = 625.0 * 1.23f64.powi(4) - 30.0 * 10f64.ln();
        assert_eq!(sign, -1);
        assert!(lo < l && l < hi && hi - lo < 1e-6, "{lo} {hi}");
        // a factor of 2 is enough: -exp(625x^4), the larger term 2e^L, d = ln 2 below it
        let (sign, lo, hi) = known(at("exp(625*x^4) - 2*exp(625*x^4)", 1.23));
        assert_eq!(sign, -1);
        let (l, ln2) = (625.0 * 1.23f64.powi(4), 2f64.ln());
        assert!(l + ln2 - 1.0 / ln2 - 1e-6 < lo && lo < l, "{lo}");
        assert!(l < hi && hi < l + 2.0 * ln2 + 1e-6, "{hi}");
        // a function of a huge argument has none either
        assert_eq!(at("sin(x^1000000)", 1.23), None);
    }

    #[test]
    fn terms_sharing_a_power_are_sized_through_it() {
        // x^(10^30)·(x − 1): each term's logarithm is about 2·10^29, their difference ln x
        let (sign, lo, hi) = known(at("x^(10^30)*x - x^(10^30)", 1.23));
        assert_eq!(sign, 1);
        let l = 1e30 * 1.23f64.ln();
        assert!(
            lo > l * (1.0 - 1e-12) && hi < l * (1.0 + 1e-12),
            "{lo} {hi}"
        );
        // the least exponent is taken out, whatever the order, with several bases at once
        let (sign, ..) = known(at("3*x^(10^30+2)*exp(x) - x^(10^30)*exp(x)*x^2*4", 1.23));
        assert_eq!(sign, -1);
        // what is left may still cancel: no lower bound
        assert!(matches!(
            at("x^(10^30)*(x - 1) - x^(10^30)*x + x^(10^30)", 1.23),
            Some(Size::AtMost(_))
        ));
        // a base that is 0 at the point gives no lower bound
        assert!(matches!(
            at("(x - 1)^(10^30)*exp(x^1000) - (x - 1)^(10^30)", 1.0),
            Some(Size::AtMost(_)) | None
        ));
    }

    #[test]
    fn values_within_the_range_are_leaves() {
        let (sign, lo, hi) = known(at("x - 3", 1.0));
        assert_eq!(sign, -1);
        assert!(lo < 2f64.ln() && 2f64.ln() < hi, "{lo} {hi}");
        // a ball that holds 0 bounds the size from above only
        assert!(matches!(at("x - x", 1.0), Some(Size::AtMost(_))));
    }

    #[test]
    fn the_tolerance_bound_is_above_its_logarithm() {
        for t in [1e-8, 1.0, 0.75, 3.0, 1e300, 5e-324] {
            let b = ln_at_most(t);
            assert!(t.ln() <= b && b <= t.ln() + LN2_UP + 1e-9, "{t}: {b}");
        }
        assert_eq!(ln_at_most(0.0), f64::NEG_INFINITY);
        assert_eq!(power_of_ten_below(207_014_169_384.32), "1e+89905111439");
        assert_eq!(power_of_ten_below(2.31), "1e+1");
        assert_eq!(power_of_ten_below(2.30), "1e+0");
        assert_eq!(power_of_ten_below(-2.30), "1e-1");
        assert_eq!(power_of_ten_below(-2.31), "1e-2");
        // 10^(8.9905e+28) < 10^(8.990511e+28): six digits of a millionth less
        assert_eq!(power_of_ten_below(2.070_141_693_843_2e29), "10^8.9905e+28");
        assert_eq!(power_of_ten_below(2.3e15), "1e+998877308377478");
    }
}
