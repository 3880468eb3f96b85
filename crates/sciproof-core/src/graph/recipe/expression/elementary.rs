//! `ln` and `exp` at a precision of `p` bits with a proven relative error below `2^(1−p)`,
//! for the ball arithmetic ([`super::ball::High`], whose bound for a function is `2^(2−p)`).
//!
//! Written here instead of calling astro-float's own because the ball arithmetic needs a
//! bounded error, not the correct rounding astro-float pays for: its `ln` and `exp` reduce
//! their argument with square roots and spent about nine tenths of the time of refuting a
//! false expression recipe. These reduce the argument with a small table, sum a short series
//! by Horner's rule at `p + 64` (or more) bits with coefficients kept per thread (so no
//! division in the loop), and round once; astro-float's arithmetic (correctly rounded
//! `+ − × ÷`) and its `ln 2` do the rest. Arguments outside the ranges argued below go to
//! astro-float.
//!
//! The error argument, with `u = 2^(1−W)` the relative error of one operation at the working
//! precision `W`:
//! * `ln x`: `x = m · 2^e` with `m ∈ [0.7, 1.4)`, and `c = j/64` the table point nearest `m`
//!   (`45 ≤ j ≤ 90`), so `|m − c| ≤ 1/128` (plus the f64 rounding of the choice) and
//!   `z = (m − c)/(m + c)`, within `3u`, has `|z| < 2^(−7)`. `ln(m/c) = 2 atanh z =
//!   2z Σ z^(2k)/(2k+1)`, summed by Horner's rule in `z²` over `K ≤ (W+2)/14` terms with the
//!   reciprocals `1/(2k+1)` (each within `u`): every term is positive, so the sum is within
//!   `(3K + 1)u`, the truncation below `2^(−W−1)`, and `2 atanh z` within `(3K + 5)u`.
//!   `ln c` is `2 atanh((c − 1)/(c + 1))` by the same series at `W + 32` bits (`|z| < 0.18`,
//!   about `W/4` terms: within `2^(−20) u` before rounding), rounded to `W`: within `1.01u`
//!   (and exactly 0 for `j = 64`). For `j ≠ 64`, `|ln c| ≥ ln(65/64)` and
//!   `|ln(m/c)| ≤ ln(1 + 1/89)`, so `|ln c| + |ln(m/c)| ≤ 3.1 |ln m|` and the sum `ln m` is
//!   within `3.1 (3K + 6)u + u`. For `e ≠ 0`, `|e ln 2| ≥ 0.69 > |ln m|/0.52`, so adding
//!   `e ln 2` (within `2u`) loses at most a factor `3.2` more: within `40K u` in all, below
//!   `2^11 u` for every `W ≤ 600`. With `W = p + 64` that is far below `2^(−p)`, and the final
//!   rounding to `p` bits adds `2^(−p)`.
//! * `exp x` for `|x| ≤ 2^20`: `k = round(x / ln 2)`, `r = x − k ln 2` at `W = p + 96` bits is
//!   within `2^22 u` absolute (so `e^r` within about that, relative), `|r| < 0.35`;
//!   `s = r/256` (exact) has `|s| < 2^(−9)`; `e^s = Σ s^n/n!` by Horner's rule over the `N`
//!   terms that bring the tail below `2^(−W−2)`, with `1/n!` kept within `n u`: the sum of the
//!   terms' magnitudes is within `0.4%` of `e^s`, so `e^s` is within `(2N + 2)u ≤ 2^7 u`; eight
//!   squarings double the relative error each: `2^16 u`; `× 2^k` is exact. Far below
//!   `2^(−p)` again, plus the final rounding.

use astro_float_num::{BigFloat, Consts, RoundingMode};
use std::cell::RefCell;

const RM: RoundingMode = RoundingMode::ToEven;

/// The table points of `ln`: `c = j/64` for `j` in this range covers `m ∈ [0.7, 1.4)`.
const TABLE: std::ops::RangeInclusive<u32> = 45..=90;

/// What the series need at one working precision, filled in as it is first needed.
struct Coefficients {
    width: usize,
    /// `1/(2k+1)` for `k = 0, 1, ...`.
    odd_reciprocals: Vec<BigFloat>,
    /// `1/n!` for `n = 0, 1, ...`.
    inverse_factorials: Vec<BigFloat>,
    /// `ln(j/64)` by `j − 45`.
    ln_table: Vec<Option<BigFloat>>,
}

thread_local! {
    /// The coefficients by working precision (the ball arithmetic uses three or four).
    static COEFFICIENTS: RefCell<Vec<Coefficients>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with the coefficients at `width` bits.
fn with_coefficients<T>(width: usize, f: impl FnOnce(&mut Coefficients) -> T) -> T {
    COEFFICIENTS.with(|all| {
        let mut all = all.borrow_mut();
        let at = match all.iter().position(|c| c.width == width) {
            Some(at) => at,
            None => {
                all.push(Coefficients {
                    width,
                    odd_reciprocals: Vec::new(),
                    inverse_factorials: Vec::new(),
                    ln_table: vec![None; TABLE.clone().count()],
                });
                all.len() - 1
            }
        };
        f(&mut all[at])
    })
}

impl Coefficients {
    fn odd_reciprocals(&mut self, count: usize) -> &[BigFloat] {
        let w = self.width;
        while self.odd_reciprocals.len() < count {
            let k = self.odd_reciprocals.len() as u32;
            let r = BigFloat::from_u32(2 * k + 1, 64).reciprocal(w, RM);
            self.odd_reciprocals.push(r);
        }
        &self.odd_reciprocals[..count]
    }

    fn inverse_factorials(&mut self, count: usize) -> &[BigFloat] {
        let w = self.width;
        while self.inverse_factorials.len() < count {
            let n = self.inverse_factorials.len() as u32;
            let next = match self.inverse_factorials.last() {
                None => BigFloat::from_u8(1, w),
                Some(previous) => previous.div(&BigFloat::from_u32(n, 64), w, RM),
            };
            self.inverse_factorials.push(next);
        }
        &self.inverse_factorials[..count]
    }
}

/// `ln(j/64)` at `w` bits, computed once per thread: `2 atanh z` with `z = (c − 1)/(c + 1)`
/// (`|z| < 0.18`) at `w + 32` bits, then rounded. (astro-float's own `ln` took half a
/// millisecond for each entry, most of the time of a small pass.)
fn ln_of_table_point(j: u32, w: usize) -> BigFloat {
    let at = (j - TABLE.start()) as usize;
    if let Some(known) = with_coefficients(w, |c| c.ln_table[at].clone()) {
        return known;
    }
    let wide = w + 32;
    let c = table_point(j);
    let one = BigFloat::from_u8(1, 64);
    let z = c.sub(&one, wide, RM).div(&c.add(&one, wide, RM), wide, RM);
    let mut l = with_coefficients(wide, |coefficients| atanh_series(&z, wide, coefficients));
    if let Some(le) = l.exponent().filter(|_| !l.is_zero()) {
        l.set_exponent(le + 1);
    }
    let _ = l.set_precision(w, RM);
    with_coefficients(w, |c| c.ln_table[at] = Some(l.clone()));
    l
}

/// `j/64`, exactly.
fn table_point(j: u32) -> BigFloat {
    BigFloat::from_f64(f64::from(j) / 64.0, 64)
}

/// The natural logarithm of `x` at `p` bits (see the module's error argument), or astro-float's
/// for what the argument does not cover (zero, negatives, infinities, NaN).
pub fn ln(x: &BigFloat, p: usize, cc: &mut Consts) -> BigFloat {
    let Some(e) = x.exponent().filter(|_| x.is_positive() && !x.is_zero()) else {
        return x.ln(p, RM, cc);
    };
    let w = p + 64;
    // x = m · 2^e with m in [0.5, 1) (astro-float's normal form), moved into [0.7, 1.4).
    let mut m = x.clone();
    let mut e = i64::from(e);
    m.set_exponent(0);
    if super::ball::High::approx_of(&m) < 0.7 {
        m.set_exponent(1);
        e -= 1;
    }
    let j = ((super::ball::High::approx_of(&m) * 64.0).round() as u32)
        .clamp(*TABLE.start(), *TABLE.end());
    let c = table_point(j);
    let z = m.sub(&c, w, RM).div(&m.add(&c, w, RM), w, RM);
    let mut sum = with_coefficients(w, |coefficients| atanh_series(&z, w, coefficients));
    // ln(m/c) = 2 atanh z: doubling is exact.
    if let Some(se) = sum.exponent().filter(|_| !sum.is_zero()) {
        sum.set_exponent(se + 1);
    }
    if j != 64 {
        sum = ln_of_table_point(j, w).add(&sum, w, RM);
    }
    if e != 0 {
        let e_ln2 = BigFloat::from_i64(e, 64).mul(&cc.ln_2(w, RM), w, RM);
        sum = e_ln2.add(&sum, w, RM);
    }
    let mut out = sum;
    let _ = out.set_precision(p, RM);
    out
}

/// `atanh z = z Σ z^(2k)/(2k+1)` at `w` bits for `|z| < 1/4` (`2^(−7)` in `ln`), by Horner's
/// rule in `z²` over enough terms that the rest is below `2^(−w−2)` of the sum.
fn atanh_series(z: &BigFloat, w: usize, coefficients: &mut Coefficients) -> BigFloat {
    if z.is_zero() {
        return z.clone();
    }
    // |z| < 2^(−ez) with ez ≥ 2 (7 in `ln`), so z^(2k) < 2^(−2k·ez).
    let ez = exponent_of(z).min(-1).unsigned_abs() as usize;
    let terms = (w + 2).div_ceil(2 * ez).max(1);
    let z2 = z.mul(z, w, RM);
    let reciprocals = coefficients.odd_reciprocals(terms);
    let mut acc = reciprocals[terms - 1].clone();
    for r in reciprocals[..terms - 1].iter().rev() {
        acc = acc.mul(&z2, w, RM).add(r, w, RM);
    }
    acc.mul(z, w, RM)
}

/// `e^x` at `p` bits (see the module's error argument), or astro-float's beyond `|x| ≤ 2^20`.
pub fn exp(x: &BigFloat, p: usize, cc: &mut Consts) -> BigFloat {
    let approx = super::ball::High::approx_of(x);
    if x.is_nan() || x.is_inf() || !approx.is_finite() || approx.abs() > f64::from(1 << 20) {
        return x.exp(p, RM, cc);
    }
    if x.is_zero() {
        return BigFloat::from_u8(1, p);
    }
    let w = p + 96;
    let k = (approx / std::f64::consts::LN_2).round() as i64;
    let mut r = if k == 0 {
        x.clone()
    } else {
        let k_ln2 = BigFloat::from_i64(k, 64).mul(&cc.ln_2(w, RM), w, RM);
        x.sub(&k_ln2, w, RM)
    };
    // e^r = (e^(r/256))^256.
    const HALVINGS: i32 = 8;
    if let Some(re) = r.exponent().filter(|_| !r.is_zero()) {
        r.set_exponent(re - HALVINGS);
    }
    let mut y = with_coefficients(w, |coefficients| taylor_exp(&r, w, coefficients));
    for _ in 0..HALVINGS {
        y = y.mul(&y, w, RM);
    }
    if let Some(ye) = y.exponent() {
        y.set_exponent(ye + k as i32);
    }
    let _ = y.set_precision(p, RM);
    y
}

/// `Σ s^n/n!` at `w` bits for `|s| < 2^(−9)`, by Horner's rule over enough terms that the rest
/// is below `2^(−w−2)`.
fn taylor_exp(s: &BigFloat, w: usize, coefficients: &mut Coefficients) -> BigFloat {
    if s.is_zero() {
        return BigFloat::from_u8(1, w);
    }
    // |s| < 2^(−es): the term of degree n is below 2^(−n·es) / n!.
    let es = exponent_of(s).min(-1).unsigned_abs() as f64;
    let (mut terms, mut log2_factorial) = (1usize, 0.0f64);
    while terms as f64 * es + log2_factorial < (w + 3) as f64 {
        terms += 1;
        log2_factorial += (terms as f64).log2();
    }
    let factors = coefficients.inverse_factorials(terms + 1);
    let mut acc = factors[terms].clone();
    for f in factors[..terms].iter().rev() {
        acc = acc.mul(s, w, RM).add(f, w, RM);
    }
    acc
}

/// The binary exponent (`x = m · 2^e`, `m ∈ [0.5, 1)`); very small for zero.
fn exponent_of(x: &BigFloat) -> i64 {
    x.exponent().map_or(i64::MIN / 2, i64::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `|ours − reference| ≤ 2^(1−p) |reference|`, the reference astro-float's own at p + 64
    /// bits.
    fn close(ours: &BigFloat, reference: &BigFloat, p: usize) -> bool {
        let w = p + 64;
        let diff = ours.sub(reference, w, RM).abs();
        if reference.is_zero() {
            return ours.is_zero();
        }
        let allowed = reference
            .abs()
            .mul(&BigFloat::from_f64(2f64.powi(1 - p as i32), 64), w, RM);
        diff.cmp(&allowed).is_some_and(|c| c <= 0)
    }

    fn arguments() -> Vec<BigFloat> {
        let mut xs: Vec<BigFloat> = [
            1.0,
            2.0,
            0.5,
            0.7,
            std::f64::consts::FRAC_1_SQRT_2,
            0.75,
            1.4,
            std::f64::consts::SQRT_2,
            3.0,
            10.0,
            1e-300,
            1e300,
            0.37,
            1.23,
            2.71,
            1.0 + 1e-15,
            1.0 - 1e-15,
            7.389,
            123456.789,
            2f64.powi(40),
        ]
        .iter()
        .map(|&v| BigFloat::from_f64(v, 128))
        .collect();
        // Exactly representable neighbours of 1 at 128 bits, and pseudo-random values.
        let mut cc = Consts::new().unwrap();
        for text in [
            "1.0000000000000000000000000000000001",
            "0.99999999999999999999999999999",
        ] {
            xs.push(BigFloat::parse(
                text,
                astro_float_num::Radix::Dec,
                128,
                RM,
                &mut cc,
            ));
        }
        // Every table point, and the edges of its bucket, at two scales.
        for j in TABLE {
            for offset in [-0.4999, -0.25, 0.0, 1e-12, 0.4999] {
                let m = (f64::from(j) + offset) / 64.0;
                xs.push(BigFloat::from_f64(m, 128));
                xs.push(BigFloat::from_f64(m * 1024.0, 128));
            }
        }
        let mut s = 0x2545f4914f6cdd1du64;
        for _ in 0..300 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = (s >> 11) as f64 / (1u64 << 53) as f64;
            xs.push(BigFloat::from_f64(v * 40.0 - 20.0, 128).abs());
            xs.push(BigFloat::from_f64((v * 60.0 - 30.0).exp(), 128));
        }
        xs
    }

    type Function = fn(&BigFloat, usize, &mut Consts) -> BigFloat;

    /// `ours` within its bound of astro-float's `theirs` at every precision and argument.
    fn within_bound(name: &str, ours: Function, theirs: Function, xs: &[BigFloat]) {
        let mut cc = Consts::new().unwrap();
        for p in [128, 256, 512] {
            for x in xs {
                let (a, b) = (ours(x, p, &mut cc), theirs(x, p + 64, &mut cc));
                assert!(close(&a, &b, p), "{name} {x} at {p}: {a} against {b}");
            }
        }
    }

    #[test]
    fn ln_within_its_bound() {
        within_bound("ln", ln, |x, p, cc| x.ln(p, RM, cc), &arguments());
        let mut cc = Consts::new().unwrap();
        let one = BigFloat::from_u8(1, 128);
        assert!(ln(&one, 128, &mut cc).is_zero(), "ln 1 is exactly 0");
        assert!(ln(&BigFloat::from_i8(-1, 128), 128, &mut cc).is_nan());
    }

    #[test]
    fn exp_within_its_bound() {
        let xs: Vec<BigFloat> = arguments()
            .into_iter()
            .flat_map(|x| [x.neg(), x])
            .filter(|x| super::super::ball::High::approx_of(x).abs() <= 5000.0)
            .collect();
        within_bound("exp", exp, |x, p, cc| x.exp(p, RM, cc), &xs);
        let mut cc = Consts::new().unwrap();
        let zero = BigFloat::from_u8(0, 128);
        assert_eq!(exp(&zero, 128, &mut cc), BigFloat::from_u8(1, 128));
        // Beyond the covered range: astro-float's own (overflow included).
        let huge = BigFloat::from_f64(1e7, 128);
        assert_eq!(exp(&huge, 128, &mut cc), huge.exp(128, RM, &mut cc));
    }
}
