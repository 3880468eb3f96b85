//! `ln` and `exp` at a precision of `p` bits with a proven relative error below `2^(1−p)`,
//! for the ball arithmetic ([`super::ball::High`], whose bound for a function is `2^(2−p)`).
//!
//! Written here instead of calling astro-float's own because the ball arithmetic needs a
//! bounded error, not the correct rounding astro-float pays for: its `ln` and `exp` reduce
//! their argument with square roots and spent about nine tenths of the time of refuting a
//! false expression recipe. These reduce by powers of two, sum a short series at `p + 64`
//! (or more) bits, and round once; astro-float's arithmetic (correctly rounded `+ − × ÷`) and
//! its `ln 2` do the rest. Arguments outside the ranges argued below go to astro-float.
//!
//! The error argument, with `u = 2^(1−W)` the relative error of one operation at the working
//! precision `W`:
//! * `ln x`: `x = m · 2^e` with `m ∈ [0.7, 1.4)`; `m − 1` is exact, `z = (m − 1)/(m + 1)` is
//!   within `3u` and `|z| < 0.18`; `ln m = 2 atanh z = 2 Σ z^(2k+1)/(2k+1)`, each term within
//!   `(8k + 4)u` and the terms falling by `z² < 0.033`, summed until a term is below `u·|z|`:
//!   `ln m` within `60u` relative. For `e ≠ 0`, `|e ln 2| ≥ 2 |ln m|`, so the sum loses at
//!   most a factor two: within `130u`. With `W = p + 64` that is far below `2^(−p)`, and the
//!   final rounding to `p` bits adds `2^(−p)`.
//! * `exp x` for `|x| ≤ 2^20`: `k = round(x / ln 2)`, `r = x − k ln 2` at `W = p + 96` bits is
//!   within `2^22 u` absolute (so `e^r` within about that, relative), `|r| < 0.35`;
//!   `e^(r/256)` by its Taylor series within `20u`; eight squarings double the relative error
//!   each: `2^13 u`; `× 2^k` is exact. Far below `2^(−p)` again, plus the final rounding.

use astro_float_num::{BigFloat, Consts, RoundingMode};

const RM: RoundingMode = RoundingMode::ToEven;

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
    let one = BigFloat::from_u8(1, 64);
    let z = m.sub(&one, w, RM).div(&m.add(&one, w, RM), w, RM);
    let mut sum = atanh_series(&z, w);
    // ln m = 2 atanh z: doubling is exact.
    if let Some(se) = sum.exponent() {
        sum.set_exponent(se + 1);
    }
    if e != 0 {
        let e_ln2 = BigFloat::from_i64(e, 64).mul(&cc.ln_2(w, RM), w, RM);
        sum = e_ln2.add(&sum, w, RM);
    }
    let mut out = sum;
    let _ = out.set_precision(p, RM);
    out
}

/// `Σ z^(2k+1)/(2k+1)` at `w` bits, until a term falls below `2^(−w)·|z|`.
fn atanh_series(z: &BigFloat, w: usize) -> BigFloat {
    if z.is_zero() {
        return z.clone();
    }
    let z2 = z.mul(z, w, RM);
    let mut power = z.clone();
    let mut sum = z.clone();
    let floor = exponent_of(z) - w as i64 - 2;
    for k in 1u32.. {
        power = power.mul(&z2, w, RM);
        let term = power.div(&BigFloat::from_u32(2 * k + 1, 64), w, RM);
        if term.is_zero() || exponent_of(&term) < floor {
            break;
        }
        sum = sum.add(&term, w, RM);
    }
    sum
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
    let mut y = taylor_exp(&r, w);
    for _ in 0..HALVINGS {
        y = y.mul(&y, w, RM);
    }
    if let Some(ye) = y.exponent() {
        y.set_exponent(ye + k as i32);
    }
    let _ = y.set_precision(p, RM);
    y
}

/// `Σ r^n/n!` at `w` bits for a small `r`, until a term falls below `2^(−w)`.
fn taylor_exp(r: &BigFloat, w: usize) -> BigFloat {
    let mut sum = BigFloat::from_u8(1, w);
    if r.is_zero() {
        return sum;
    }
    let mut term = sum.clone();
    let floor = -(w as i64) - 2;
    for n in 1u32.. {
        term = term.mul(r, w, RM).div(&BigFloat::from_u32(n, 64), w, RM);
        if term.is_zero() || exponent_of(&term) < floor {
            break;
        }
        sum = sum.add(&term, w, RM);
    }
    sum
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
