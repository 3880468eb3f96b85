//! The incomplete elliptic integrals `F(φ | m)`, `E(φ | m)` and `Π(n; φ | m)` at exact points,
//! with a proven bound on the error, through Carlson's symmetric integrals `R_F`, `R_D`, `R_J`
//! (the same forms as the f64 evaluator in [`super::special`]).
//!
//! Written here for the reason [`super::validated`] gives (no crate evaluates these with an
//! error bound). The method needs no series remainder: `R_F`, `R_D` and `R_J` (with `p > 0`)
//! decrease in every argument, equal `t^(−1/2)` or `t^(−3/2)` where all arguments are `t`, and
//! the duplication theorem replaces the arguments by `(x + λ)/4, …` with
//! `λ = √x√y + √y√z + √z√x` (keeping `R_F`; adding `3/(√z (z + λ))` to `R_D` and
//! `3 R_C(α, β)` to `R_J`, each scaled by `4^−k`), which draws them together fourfold per
//! step. Every quantity is increasing in the arguments, so the iteration run on lower bounds
//! with each result pushed down (and on upper bounds pushed up) keeps true bounds; when the
//! arguments agree to the precision, `R_F` lies between `max^(−1/2)` and `min^(−1/2)`. The
//! `R_C(α, β)` terms are `α^(−1/2) Σ t^k/(2k+1)` at `t = 1 − β/α` with the series' remainder
//! bounded, or `R_F(α, β, β)` by the same bracket while `|t| > 1/2`.
//!
//! The brackets run in astro-float at `p + 64` bits (what may refute a claim) or in f64
//! (`incomplete_f64`, `complete_f64`: 500 times cheaper, within about 10^-13), which lets
//! the f64 ball clear a point where a true identity among these integrals passed in f64: a
//! 128-bit look at each such point was most of the time of verifying a graph that has them.

use super::expr::Func;
use astro_float_num::{BigFloat, Consts, RoundingMode};
use std::cmp::Ordering;

const RM: RoundingMode = RoundingMode::ToEven;

/// A value and a bound on its absolute error (as in [`super::validated`]).
pub type Valued<T = BigFloat> = (T, f64);

/// The most working bits (error bounds are f64 numbers, and `2^(4−w)` must stay normal).
const MAX_WIDTH: usize = 960;

/// How close the f64 brackets draw their arguments together ([`Work::target`]): far enough
/// that the rounding of the steps (2^-49 each) rather than the finish limits the result.
const F64_TARGET: f64 = 1.0 / (1u64 << 46) as f64;

/// The largest `|φ|` reduced by quarter periods (`k` stays an exact small integer).
const MAX_AMPLITUDE: f64 = 1e12;

/// The numbers the brackets are computed in: astro-float at `w` bits, whose bounds may refute a
/// claim, or f64 (`w` = 53), cheap, which the f64 ball ([`super::ball::Double`]) uses to clear
/// a point that passed in f64 already. The bounds below count on each of `+ − × ÷` and the
/// correctly rounded `√` being within a unit `u = 2^(1−w)` (twice what rounding to nearest
/// leaves), which IEEE 754 guarantees for f64 on normal numbers; so an f64 result outside the
/// normal range is NaN here (see [`checked`]), which no bound survives. The sine, cosine and π
/// are the math library's in f64, trusted as the f64 ball trusts them.
pub(super) trait Num: Clone + PartialEq {
    type Context;
    fn small(n: u32) -> Self;
    /// An f64, exactly.
    fn float(v: f64) -> Self;
    fn add(&self, other: &Self, w: usize) -> Self;
    fn sub(&self, other: &Self, w: usize) -> Self;
    fn mul(&self, other: &Self, w: usize) -> Self;
    fn div(&self, other: &Self, w: usize) -> Self;
    /// The correctly rounded root.
    fn sqrt(&self, w: usize) -> Self;
    /// `√self` within 6 units, the quickest way there ([`Work::sqrt`]), starting from the
    /// root of a `near` number where one is given; and what a root of a number near this one
    /// may start from.
    fn root(&self, near: Option<&Near<Self>>, w: usize) -> (Self, Option<Near<Self>>);
    fn abs(&self) -> Self;
    fn neg(&self) -> Self;
    fn floor(&self) -> Self;
    fn is_positive(&self) -> bool;
    fn is_negative(&self) -> bool;
    fn compare(&self, other: &Self) -> Option<Ordering>;
    fn min(&self, other: &Self) -> Self;
    fn max(&self, other: &Self) -> Self;
    /// The value as an f64 (within a relative 1e-15).
    fn approx(&self) -> f64;
    /// An upper bound of the magnitude.
    fn mag(&self) -> f64;
    fn pi(w: usize, cx: &mut Self::Context) -> Self;
    fn sin(&self, w: usize, cx: &mut Self::Context) -> Self;
    fn cos(&self, w: usize, cx: &mut Self::Context) -> Self;
}

impl Num for BigFloat {
    type Context = Consts;
    fn small(n: u32) -> Self {
        BigFloat::from_u32(n, 64)
    }
    fn float(v: f64) -> Self {
        BigFloat::from_f64(v, 64)
    }
    fn add(&self, other: &Self, w: usize) -> Self {
        BigFloat::add(self, other, w, RM)
    }
    fn sub(&self, other: &Self, w: usize) -> Self {
        BigFloat::sub(self, other, w, RM)
    }
    fn mul(&self, other: &Self, w: usize) -> Self {
        BigFloat::mul(self, other, w, RM)
    }
    fn div(&self, other: &Self, w: usize) -> Self {
        BigFloat::div(self, other, w, RM)
    }
    fn sqrt(&self, w: usize) -> Self {
        BigFloat::sqrt(self, w, RM)
    }
    /// `v · y` with `y → v^(−1/2)` by Newton's step `y + y (1 − v y²)/2` from the f64 value
    /// (ten times faster than astro-float's correctly rounded root, which was most of the
    /// cost). With `y = v^(−1/2)(1 + ε)` a step leaves `1.5ε² + 0.5|ε|³` and its rounding
    /// (within 2.6 units: `v y²` two, the difference one, the correction and the sum one and a
    /// half); once `ε` is within 3 units the product adds one more: within 6. From the `y₀` of
    /// a near `v₀` (within 3 units of `v₀^(−1/2)`) with `|v − v₀| ≤ δ v₀`, `|ε| ≤ δ + 3u(1 + δ)`
    /// (`|√(v/v₀) − 1| ≤ δ`): the upper bounds of a bracket start from the lower ones' roots,
    /// a step away where the f64 value is three.
    fn root(&self, near: Option<&Near<Self>>, w: usize) -> (Self, Option<Near<Self>>) {
        let v = self;
        let vf = v.approx();
        if v.is_zero() || !(vf.is_normal() && vf > 1e-300 && vf < 1e300) {
            return (Num::sqrt(v, w), None);
        }
        let u = 2f64.powi(1 - w as i32);
        let one = BigFloat::small(1);
        let from_near = near.and_then(|(v0, y0)| {
            let delta = Num::div(&Num::sub(v, v0, w), v0, w).mag() * (1.0 + 1e-9);
            (delta < 2f64.powi(-40)).then(|| (y0.clone(), delta + 3.0 * u * (1.0 + delta)))
        });
        // (else the f64 value: approx within 1e-15, the root and quotient within a unit each)
        let (mut y, mut error) =
            from_near.unwrap_or_else(|| (BigFloat::float(1.0 / vf.sqrt()), 2f64.powi(-45)));
        // (halving by a product is exact, as the quotient was, and cheaper)
        let half = BigFloat::float(0.5);
        for _ in 0..64 {
            let r = Num::sub(&one, &Num::mul(v, &Num::mul(&y, &y, w), w), w);
            let correction = Num::mul(&Num::mul(&y, &r, w), &half, w);
            y = Num::add(&y, &correction, w);
            error = 1.5 * error * error + 0.5 * error.powi(3) + 2.6 * u;
            if error <= 3.0 * u {
                return (Num::mul(v, &y, w), Some((v.clone(), y)));
            }
        }
        (Num::sqrt(v, w), None)
    }
    fn abs(&self) -> Self {
        BigFloat::abs(self)
    }
    fn neg(&self) -> Self {
        BigFloat::neg(self)
    }
    fn floor(&self) -> Self {
        BigFloat::floor(self)
    }
    fn is_positive(&self) -> bool {
        BigFloat::is_positive(self)
    }
    fn is_negative(&self) -> bool {
        BigFloat::is_negative(self)
    }
    fn compare(&self, other: &Self) -> Option<Ordering> {
        BigFloat::cmp(self, other).map(|c| c.cmp(&0))
    }
    fn min(&self, other: &Self) -> Self {
        BigFloat::min(self, other)
    }
    fn max(&self, other: &Self) -> Self {
        BigFloat::max(self, other)
    }
    fn approx(&self) -> f64 {
        super::validated::approx(self)
    }
    fn mag(&self) -> f64 {
        super::validated::mag(self)
    }
    fn pi(w: usize, cx: &mut Consts) -> Self {
        cx.pi(w, RM)
    }
    fn sin(&self, w: usize, cx: &mut Consts) -> Self {
        BigFloat::sin(self, w, RM, cx)
    }
    fn cos(&self, w: usize, cx: &mut Consts) -> Self {
        BigFloat::cos(self, w, RM, cx)
    }
}

/// An f64 result in the range where a correctly rounded operation is within a unit of the
/// true value (normal or exactly 0), else NaN. (`inexact_zero`: a product or quotient of
/// nonzero numbers that underflowed to 0.)
fn checked(v: f64, inexact_zero: bool) -> f64 {
    if v.is_normal() || (v == 0.0 && !inexact_zero) {
        v
    } else {
        f64::NAN
    }
}

impl Num for f64 {
    type Context = ();
    fn small(n: u32) -> Self {
        f64::from(n)
    }
    fn float(v: f64) -> Self {
        v
    }
    fn add(&self, other: &Self, _: usize) -> Self {
        checked(self + other, false)
    }
    fn sub(&self, other: &Self, _: usize) -> Self {
        checked(self - other, false)
    }
    fn mul(&self, other: &Self, _: usize) -> Self {
        checked(self * other, *self != 0.0 && *other != 0.0)
    }
    fn div(&self, other: &Self, _: usize) -> Self {
        checked(self / other, *self != 0.0)
    }
    fn sqrt(&self, _: usize) -> Self {
        checked(f64::sqrt(*self), false)
    }
    fn root(&self, _: Option<&Near<Self>>, w: usize) -> (Self, Option<Near<Self>>) {
        (Num::sqrt(self, w), None)
    }
    fn abs(&self) -> Self {
        f64::abs(*self)
    }
    fn neg(&self) -> Self {
        -self
    }
    fn floor(&self) -> Self {
        f64::floor(*self)
    }
    fn is_positive(&self) -> bool {
        *self > 0.0
    }
    fn is_negative(&self) -> bool {
        *self < 0.0
    }
    fn compare(&self, other: &Self) -> Option<Ordering> {
        self.partial_cmp(other)
    }
    // (NaN wins, where f64::min would drop it)
    fn min(&self, other: &Self) -> Self {
        if self.is_nan() || other.is_nan() {
            f64::NAN
        } else {
            f64::min(*self, *other)
        }
    }
    fn max(&self, other: &Self) -> Self {
        if self.is_nan() || other.is_nan() {
            f64::NAN
        } else {
            f64::max(*self, *other)
        }
    }
    fn approx(&self) -> f64 {
        *self
    }
    fn mag(&self) -> f64 {
        f64::abs(*self)
    }
    fn pi(_: usize, _: &mut ()) -> Self {
        std::f64::consts::PI
    }
    fn sin(&self, _: usize, _: &mut ()) -> Self {
        f64::sin(*self)
    }
    fn cos(&self, _: usize, _: &mut ()) -> Self {
        f64::cos(*self)
    }
}

/// A number `v₀` and `y₀` within 3 units of `v₀^(−1/2)` ([`Num::root`]).
pub(super) type Near<T> = (T, T);

/// Which side of the true value a bound lies on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Low,
    High,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Low => Side::High,
            Side::High => Side::Low,
        }
    }
}

/// Arithmetic at `w` bits on positive bounds.
struct Work<T> {
    w: usize,
    /// `1 ∓ 2^(4−w)`: a result within 6 units (`u = 2^(1−w)`) of a positive quantity, times
    /// this (rounded, one more unit), lies on the wanted side of it.
    down: T,
    up: T,
    /// How close a bracket's arguments are drawn together before it is finished: the sixth
    /// power of their relative spread, times 4, below this.
    target: f64,
    one_quarter: T,
}

impl<T: Num> Work<T> {
    fn new(w: usize, target: f64) -> Work<T> {
        let one = T::small(1);
        let step = T::float(2f64.powi(4 - w as i32));
        Work {
            w,
            down: one.sub(&step, w),
            up: one.add(&step, w),
            target,
            one_quarter: T::float(0.25),
        }
    }

    fn u(&self) -> f64 {
        2f64.powi(1 - self.w as i32)
    }

    /// `v`, a positive quantity computed within 6 units, moved past the true value to `side`.
    fn push(&self, v: T, side: Side) -> T {
        let factor = match side {
            Side::Low => &self.down,
            Side::High => &self.up,
        };
        v.mul(factor, self.w)
    }

    /// `√v` bounded on `side`.
    fn sqrt(&self, v: &T, side: Side) -> T {
        self.push(v.root(None, self.w).0, side)
    }

    /// `v/4` (exact, as a product by 1/4).
    fn quarter(&self, v: &T) -> T {
        v.mul(&self.one_quarter, self.w)
    }
}

/// Which symmetric integral.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    F,
    D,
    J,
}

/// Lower and upper bounds of `R_kind(args)` for every argument vector between `lo` and `hi`
/// (componentwise; non-negative; `z` and `p` positive for `R_D` and `R_J`), or `None` where the
/// integral may be infinite or the bracket does not close.
fn bracket<T: Num>(kind: Kind, lo: &[T], hi: &[T], work: &Work<T>) -> Option<[T; 2]> {
    let zeros = lo[..3].iter().filter(|v| !v.is_positive()).count();
    if lo.iter().any(|v| v.is_negative()) || zeros > 1 {
        return None;
    }
    if kind != Kind::F && !lo[lo.len() - 1].is_positive() {
        return None;
    }
    let mut states = [lo.to_vec(), hi.to_vec()];
    // The sum of the explicit terms: a lower bound from the upper arguments and the reverse.
    let mut sums = [T::small(0), T::small(0)];
    let mut scale = T::small(1);
    let w = work.w;
    let target = work.target;
    for _ in 0..(2 * w + 64) {
        let least = min_of(&states[0]);
        let most = max_of(&states[1]);
        if least.is_positive() {
            let spread = most.sub(&least, w).div(&least, w).mag();
            // The bound of `finish` is sixth order in the spread.
            if spread < 1e-3 && 4.0 * spread.powi(6) < target {
                return Some(finish(kind, &states, &sums, &scale, work));
            }
        }
        // (the upper bounds' roots start from the lower ones')
        let mut near: [Option<Near<T>>; 3] = [None, None, None];
        for (state, side) in states.iter_mut().zip([Side::Low, Side::High]) {
            let mut roots = Vec::with_capacity(3);
            for (v, near) in state[..3].iter().zip(near.iter_mut()) {
                let (root, next) = v.root(near.as_ref(), w);
                *near = next;
                roots.push(work.push(root, side));
            }
            let pairs = roots[0]
                .mul(&roots[1], w)
                .add(&roots[1].mul(&roots[2], w), w)
                .add(&roots[2].mul(&roots[0], w), w);
            let lambda = work.push(pairs, side);
            // The term decreases in the arguments: its bound is on the other side.
            let term = match kind {
                Kind::F => None,
                Kind::D => {
                    let z = &state[2];
                    let denominator = roots[2].mul(&z.add(&lambda, w), w);
                    let t = T::small(3).div(&denominator, w);
                    Some(work.push(t, side.other()))
                }
                Kind::J => {
                    let p = &state[3];
                    let sum = roots[0].add(&roots[1], w).add(&roots[2], w);
                    let product = roots[0].mul(&roots[1], w).mul(&roots[2], w);
                    let t = work.push(p.mul(&sum, w).add(&product, w), side);
                    let alpha = work.push(t.mul(&t, w), side);
                    let p_lambda = work.push(p.add(&lambda, w), side);
                    let beta = work.push(p.mul(&p_lambda.mul(&p_lambda, w), w), side);
                    let rc = carlson_rc(&alpha, &beta, side.other(), work)?;
                    Some(work.push(T::small(3).mul(&rc, w), side.other()))
                }
            };
            if let Some(term) = term {
                let at = usize::from(side == Side::Low);
                let scaled = term.mul(&scale, w);
                sums[at] = work.push(sums[at].add(&scaled, w), side.other());
            }
            for v in state.iter_mut() {
                *v = work.push(work.quarter(&v.add(&lambda, w)), side);
            }
        }
        scale = work.quarter(&scale);
    }
    None
}

fn min_of<T: Num>(v: &[T]) -> T {
    v.iter().skip(1).fold(v[0].clone(), |a, b| a.min(b))
}

fn max_of<T: Num>(v: &[T]) -> T {
    v.iter().skip(1).fold(v[0].clone(), |a, b| a.max(b))
}

/// The bracket once the arguments agree closely. With weights `w_i` (½ for `x, y, z`; 3/2 for
/// the `z` of `R_D`; 1 for `p`) and `W = Σ w_i`, `R = (W − 1) ∫₀^∞ Π (t + x_i)^(−w_i) dt`.
/// About a centre `c` (the weighted mean `A` as computed, within 10 units of it), with
/// `d_i = x_i − c`, `ε = max |d_i| / c` (at most 10^-3 here), `η = c/(t + c)` and
/// `s_i = d_i/(t + c)`, the integrand is `(t + c)^(−W) exp(g₁ + G)`: `g₁ = −W (A − c)/(t + c)`
/// (at most `10W u η`) and `G = −Σ w_i (ln(1 + s_i) − s_i) = Σ_(k≥2) g_k`,
/// `g_k = (−1)^k Σ w_i s_i^k / k`, `|G| ≤ 0.501 W ε²η²`. Writing `exp(G)` as
/// `1 + g₂ + g₃ + g₄ + g₅ + g₂²/2 + g₂g₃` leaves the tail of the logarithm from `k = 6`
/// (`W ε⁶η⁶/6(1 − ε)`), `g₃²/2 + g₂(G − g₂ − g₃)` and smaller products (`(W²/18 + W²/8) ε⁶η⁶`
/// and less), and `|G|³ e^|G| / 6`: at most `1.9 ε⁶η⁶` for `W ≤ 5/2`; `exp(g₁)` adds
/// `26 u` at most. Each power `(t + c)^(−W−j)` integrates exactly, to `T_j c^(1−W−j)` with
/// `T_j = (W − 1)/(W + j − 1)` (so `η^j` to at most `c^(1−W)`):
/// `R = c^(1−W) (1 + T₂E₂/2 − T₃E₃/3 + T₄(E₄/4 + E₂²/8) − T₅(E₅/5 + E₂E₃/6))` with
/// `E_k = Σ w_i (d_i/c)^k` (Carlson's series to fifth order: `1 − E₂/10 + E₃/14 + E₂²/24 −
/// 3E₂E₃/44` for `R_F` in his symmetric functions) within `c^(1−W) (4ε⁶ + 26u)`; 60 units
/// allow for the rounding too. The lower bound is taken at the upper arguments and the upper
/// at the lower (`R` decreases in each). Sixth order in the spread: a third of the duplication
/// steps of the second-order bound used before. `R_D` and `R_J` add their sums and scale this
/// by `4^−n`.
fn finish<T: Num>(
    kind: Kind,
    states: &[Vec<T>; 2],
    sums: &[T; 2],
    scale: &T,
    work: &Work<T>,
) -> [T; 2] {
    let w = work.w;
    let one = T::small(1);
    // twice the weights, and twice W
    let weights: &[u32] = match kind {
        Kind::F => &[1, 1, 1],
        Kind::D => &[1, 1, 3],
        Kind::J => &[1, 1, 1, 2],
    };
    let n: u32 = weights.iter().sum();
    // The series' coefficients with n = 2W, for the sums e_k = Σ k_i r_i^k of twice-weighted
    // powers of r_i = d_i/c (so E_k = e_k c^k / 2), and T_j = (W − 1)/(W + j − 1) =
    // (n − 2)/(n + 2j − 2): T₂E₂/2 is (n − 2)/(4(n + 2)) e₂; T₃E₃/3 is (n − 2)/(6(n + 4)) e₃;
    // T₄(E₄/4 + E₂²/8) is (n − 2)/(8(n + 6)) e₄ + (n − 2)/(32(n + 6)) e₂²; T₅(E₅/5 + E₂E₃/6) is
    // (n − 2)/(10(n + 8)) e₅ + (n − 2)/(24(n + 8)) e₂e₃.
    let ratio = |over: u32| T::small(n - 2).div(&T::small(over), w);
    let coefficients = [
        ratio(4 * (n + 2)),
        ratio(6 * (n + 4)),
        ratio(8 * (n + 6)),
        ratio(32 * (n + 6)),
        ratio(10 * (n + 8)),
        ratio(24 * (n + 8)),
    ];
    let bound = |state: &[T], side: Side| {
        let mut acc = T::small(0);
        for (x, k) in state.iter().zip(weights) {
            acc = acc.add(&x.mul(&T::small(*k), w), w);
        }
        let c = acc.div(&T::small(n), w);
        let mut e = [T::small(0), T::small(0), T::small(0), T::small(0)];
        let mut widest = 0.0f64;
        for (x, k) in state.iter().zip(weights) {
            let d = x.sub(&c, w);
            widest = widest.max(d.mag());
            let r = d.div(&c, w);
            let mut power = r.mul(&r, w);
            for e in e.iter_mut() {
                *e = e.add(&power.mul(&T::small(*k), w), w);
                power = power.mul(&r, w);
            }
        }
        let [e2, e3, e4, e5] = &e;
        let [c2, c3, c4, c22, c5, c23] = &coefficients;
        let rising = c2
            .mul(e2, w)
            .add(&c4.mul(e4, w), w)
            .add(&c22.mul(&e2.mul(e2, w), w), w);
        let falling = c3
            .mul(e3, w)
            .add(&c5.mul(e5, w), w)
            .add(&c23.mul(&e2.mul(e3, w), w), w);
        let series = one.add(&rising, w).sub(&falling, w);
        // c^(−1/2) or c^(−3/2) on `side`
        let root = c.sqrt(w);
        let base = match kind {
            Kind::F => one.div(&root, w),
            _ => one.div(&root.mul(&c, w), w),
        };
        let base = work.push(base, side);
        // (ε from above: d and c within a unit or two, the quotient within 10^-15)
        let eps = widest / c.approx() * (1.0 + 1e-9);
        let margin = T::float((4.0 * eps.powi(6) + 60.0 * work.u()) * 1.01);
        let factor = match side {
            Side::Low => one.sub(&margin, w),
            Side::High => one.add(&margin, w),
        };
        work.push(base.mul(&series, w).mul(&factor, w), side)
    };
    let low = bound(&states[1], Side::Low);
    let high = bound(&states[0], Side::High);
    if kind == Kind::F {
        return [low, high];
    }
    let low = work.push(sums[0].add(&low.mul(scale, w), w), Side::Low);
    let high = work.push(sums[1].add(&high.mul(scale, w), w), Side::High);
    [low, high]
}

/// A bound on `side` of `R_C(α, β) = α^(−1/2) g(1 − β/α)`, `g(t) = Σ t^k/(2k+1)` (increasing
/// in `t`), for exact `α, β > 0`; through the `R_F` bracket where `|t| > 1/2`.
fn carlson_rc<T: Num>(alpha: &T, beta: &T, side: Side, work: &Work<T>) -> Option<T> {
    let w = work.w;
    let u = work.u();
    let one = T::small(1);
    let t = one.sub(&beta.div(alpha, w), w);
    let tf = t.approx();
    if tf.abs() > 0.5 {
        let args = [alpha.clone(), beta.clone(), beta.clone()];
        let [low, high] = bracket(Kind::F, &args, &args, work)?;
        return Some(if side == Side::Low { low } else { high });
    }
    // t within 2u|β/α| + u|t| of 1 − β/α; |g'| ≤ Σ k|t|^(k−1)/(2k+1) ≤ 4/3 for |t| ≤ 1/2.
    let t_error = (2.0 * (1.0 + tf.abs()) + tf.abs()) * u * 1.5;
    let (mut sum, mut power) = (T::small(1), T::small(1));
    let mut terms = 0u32;
    let mut tail = 0.0f64;
    for k in 1..(4 * w as u32) {
        power = power.mul(&t, w);
        let p = power.mag();
        sum = sum.add(&power.div(&T::small(2 * k + 1), w), w);
        terms = k;
        // The rest: Σ_(j>k) |t|^j/(2j+1) ≤ |t|^(k+1) / ((2k+3)(1 − |t|)).
        tail = p * tf.abs() / ((2 * k + 3) as f64 * (1.0 - tf.abs()));
        if tail < u || p == 0.0 {
            break;
        }
    }
    // Each term within (k + 1) units, each addition one unit of a sum below 2.
    let rounding = (4.0 + 2.0 * f64::from(terms)) * u;
    let error = T::float((rounding + tail + t_error) * 1.01);
    let g = match side {
        Side::Low => sum.sub(&error, w),
        Side::High => sum.add(&error, w),
    };
    let root = work.sqrt(alpha, side.other());
    Some(work.push(g.div(&root, w), side))
}

/// `[lo, hi]` as a value and an error bound.
fn valued<T: Num>(b: &[T; 2], w: usize) -> Valued<T> {
    let mid = b[0].add(&b[1], w).div(&T::small(2), w);
    let half = b[1].sub(&b[0], w).mag() * 0.5;
    let e = half * 1.01 + mid.mag() * 2f64.powi(2 - w as i32);
    (mid, e)
}

fn product<T: Num>(a: &Valued<T>, b: &Valued<T>, w: usize) -> Valued<T> {
    let v = a.0.mul(&b.0, w);
    let (ma, mb) = (a.0.mag(), b.0.mag());
    let e = ma * b.1 + mb * a.1 + a.1 * b.1 + v.mag() * 2f64.powi(1 - w as i32);
    (v, e * 1.01)
}

fn sum<T: Num>(a: &Valued<T>, b: &Valued<T>, w: usize) -> Valued<T> {
    let v = a.0.add(&b.0, w);
    let e = a.1 + b.1 + v.mag() * 2f64.powi(1 - w as i32);
    (v, e * 1.01)
}

fn exact<T: Num>(v: T) -> Valued<T> {
    (v, 0.0)
}

/// A bracket of `1 − a·s2` for exact `a` and `s2` within `e2`; `None` where it may be negative
/// (outside the domain) or, when `positive`, where it may be 0.
fn one_minus<T: Num>(a: &T, s2: &Valued<T>, positive: bool, w: usize) -> Option<[T; 2]> {
    let u = 2f64.powi(1 - w as i32);
    let one = T::small(1);
    let product = a.mul(&s2.0, w);
    let v = one.sub(&product, w);
    let mp = product.mag();
    let e = (a.mag() * s2.1 + mp * 2.0 * u + v.mag() * u) * 1.01;
    let e = T::float(e);
    let lo = v.sub(&e, w);
    let hi = v.add(&e, w);
    if hi.is_negative() || (positive && !lo.is_positive()) {
        return None;
    }
    let lo = if lo.is_negative() { T::small(0) } else { lo };
    Some([lo, hi])
}

/// `F(φ | m)`, `E(φ | m)` (two arguments) or `Π(n; φ | m)` at exact arguments, aiming at `p`
/// bits; `None` outside the real domain (the f64 evaluator's) or where no bound closes.
pub(super) fn incomplete(
    f: Func,
    args: &[BigFloat],
    p: usize,
    cc: &mut Consts,
    completes: &mut Completes,
) -> Option<Valued> {
    let w = (p + 64).div_ceil(64) * 64;
    if w > MAX_WIDTH {
        return None;
    }
    // (π to 64 more bits than the result; the brackets drawn together 24 bits past `p`)
    let work = Work::new(w, 2f64.powi(40 - w as i32));
    incomplete_in(f, args, &work, w + 64, cc, completes)
}

/// A bound on `|∂/∂φ|` of `F(φ | m)`, `E(φ | m)` (`f` one of those) or `Π(n; φ | m)` for every
/// real `φ`, every `n ≤ n_most` and every `m` in `[m_least, m_most]`: the integrands at `φ` are
/// `1/√(1 − m sin²φ)`, `√(1 − m sin²φ)` and `1/((1 − n sin²φ) √(1 − m sin²φ))`, with `sin²φ`
/// anywhere in `[0, 1]`, so at most `1/√(1 − m⁺)`, `√(1 + m⁻)` and `1/((1 − n⁺) √(1 − m⁺))`
/// (`m⁺ = max(m, 0)`, `m⁻ = max(−m, 0)`), with a thousandth added for the f64 rounding. Not
/// finite where `m_most ≥ 1` (for `F` and `Π`) or `n_most ≥ 1`: the caller checks.
pub(super) fn phi_slope(f: Func, n_most: f64, m_least: f64, m_most: f64) -> f64 {
    let bound = match f {
        Func::EllipticF => 1.0 / (1.0 - m_most.max(0.0)).sqrt(),
        Func::EllipticE => (1.0 + (-m_least).max(0.0)).sqrt(),
        _ => 1.0 / ((1.0 - n_most.max(0.0)) * (1.0 - m_most.max(0.0)).sqrt()),
    };
    bound * 1.001
}

/// The same in f64 (53 bits, π and the reduction at f64's own precision), for the f64 ball: a
/// value within about 10^-13 relative, or `None` where f64 cannot bound it (or the value is
/// not real).
pub(super) fn incomplete_f64(f: Func, args: &[f64]) -> Option<Valued<f64>> {
    incomplete_in(
        f,
        args,
        &Work::new(53, F64_TARGET),
        53,
        &mut (),
        &mut Completes::default(),
    )
}

fn incomplete_in<T: Num>(
    f: Func,
    args: &[T],
    work: &Work<T>,
    wide: usize,
    cc: &mut T::Context,
    completes: &mut Completes<T>,
) -> Option<Valued<T>> {
    let (n, phi, m) = match (f, args) {
        (Func::EllipticPi, [n, phi, m]) => (Some(n), phi, m),
        (Func::EllipticF | Func::EllipticE, [phi, m]) => (None, phi, m),
        _ => return None,
    };
    let w = work.w;
    let u = work.u();
    let phif = phi.approx();
    if phif.is_nan() || phif.abs() > MAX_AMPLITUDE || !m.approx().is_finite() {
        return None;
    }
    let one = T::small(1);
    let below = |a: &T, strict: bool| {
        a.compare(&one)
            .is_some_and(|c| c.is_lt() || (!strict && c.is_eq()))
    };
    // φ = φ₀ + kπ, |φ₀| ≤ π/2 (to rounding), with π to `wide` bits; k from φ/π at that
    // precision (in f64, π/2 itself would round up to a whole period).
    let pi = T::pi(wide, cc);
    let half = T::float(0.5);
    let k = phi.div(&pi, wide).add(&half, wide).floor().approx();
    let (reduced, reduced_error) = if k == 0.0 {
        (phi.clone(), 0.0)
    } else {
        let kpi = T::float(k).mul(&pi, wide);
        let r = phi.sub(&kpi, wide);
        let ul = 2f64.powi(1 - wide as i32);
        (r.clone(), (k.abs() * 4.0 * 3.0 * ul + r.mag() * ul) * 1.01)
    };
    // How far φ₀ may lie beyond π/2: the forms below give the value at the mirror image there.
    let half_pi = pi.div(&T::small(2), wide);
    let excess = reduced.abs().sub(&half_pi, wide).approx()
        + reduced_error
        + 4.0 * 2f64.powi(1 - wide as i32);
    let crossing = k != 0.0 || excess >= 0.0;
    let strict = f != Func::EllipticE;
    if crossing && (!below(m, strict) || n.is_some_and(|n| !below(n, true))) {
        return None;
    }
    // |∂/∂φ| near the quarter period (m < 1, n < 1 there).
    let mf = m.approx();
    let nf = n.map_or(0.0, Num::approx);
    let slope = phi_slope(f, nf, mf, mf);
    let angle_error = if crossing {
        if !slope.is_finite() {
            return None;
        }
        slope * (reduced_error + 2.0 * excess.max(0.0)) * 1.01
    } else {
        0.0
    };
    let s = reduced.sin(w, cc);
    let c = reduced.cos(w, cc);
    let fu = 4.0 * u;
    let s_v: Valued<T> = (s.clone(), s.mag() * fu);
    let s2 = product(&s_v, &s_v, w);
    let c_v: Valued<T> = (c.clone(), c.mag() * fu);
    let c2 = product(&c_v, &c_v, w);
    let e_c2 = T::float(c2.1);
    let x_lo = c2.0.sub(&e_c2, w);
    let x = [
        if x_lo.is_negative() {
            T::small(0)
        } else {
            x_lo
        },
        c2.0.add(&e_c2, w),
    ];
    let y = one_minus(m, &s2, false, w)?;
    let z = one.clone();
    let rf = |lo: &[T], hi: &[T], kind: Kind| bracket(kind, lo, hi, work).map(|b| valued(&b, w));
    let args3 = |x: &[T; 2], y: &[T; 2]| {
        (
            vec![x[0].clone(), y[0].clone(), z.clone()],
            vec![x[1].clone(), y[1].clone(), z.clone()],
        )
    };
    let (lo, hi) = args3(&x, &y);
    // sin φ · R_F (none at φ = ±π/2 with m = 1, where E alone has a value)
    let first = || rf(&lo, &hi, Kind::F).map(|r| product(&s_v, &r, w));
    let s3 = product(&s2, &s_v, w);
    let third = |a: &T| exact(a.div(&T::small(3), w));
    let mut complete = || completes.get(f, n, m, work);
    let (value, complete) = match f {
        Func::EllipticF => {
            let complete = if k == 0.0 { None } else { Some(complete()?) };
            (first()?, complete)
        }
        Func::EllipticE if m.compare(&one) == Some(Ordering::Equal) => {
            // E(φ | 1) = sin φ on the quarter period, and E(1) = 1.
            (s_v.clone(), (k != 0.0).then(|| exact(one.clone())))
        }
        Func::EllipticE => {
            let m3 = third(m);
            let rd = rf(&lo, &hi, Kind::D)?;
            let second = product(&product(&m3, &s3, w), &rd, w);
            let value = sum(&first()?, &(second.0.neg(), second.1), w);
            let complete = if k == 0.0 { None } else { Some(complete()?) };
            (value, complete)
        }
        _ => {
            let n = n.expect("Π has n");
            let q = one_minus(n, &s2, true, w)?;
            let (mut lo4, mut hi4) = (lo.clone(), hi.clone());
            lo4.push(q[0].clone());
            hi4.push(q[1].clone());
            let n3 = third(n);
            let rj = rf(&lo4, &hi4, Kind::J)?;
            let value = sum(&first()?, &product(&product(&n3, &s3, w), &rj, w), w);
            let complete = if k == 0.0 { None } else { Some(complete()?) };
            (value, complete)
        }
    };
    let total = match complete {
        None => value,
        Some(c) => {
            let twice_k = exact(T::float(2.0 * k));
            sum(&value, &product(&twice_k, &c, w), w)
        }
    };
    let (v, e) = total;
    let e = e + angle_error;
    (v.approx().is_finite() && e.is_finite()).then_some((v, e))
}

/// Complete integrals already bracketed in one evaluation, by kind, arguments and width: the
/// corners of an argument box that differ in φ alone (and the terms of a residual with the
/// same `n` and `m`) share them, and they were a third of the time of a refutation.
pub(super) struct Completes<T = BigFloat>(Vec<CompleteValue<T>>);

type CompleteValue<T> = (Func, Option<T>, T, usize, Valued<T>);

impl<T> Default for Completes<T> {
    fn default() -> Self {
        Completes(Vec::new())
    }
}

impl<T: Num> Completes<T> {
    /// [`complete`], once for each kind, `n`, `m` and width.
    fn get(&mut self, f: Func, n: Option<&T>, m: &T, work: &Work<T>) -> Option<Valued<T>> {
        let kind = match f {
            Func::EllipticF => Func::EllipticK,
            other => other,
        };
        let known = self
            .0
            .iter()
            .find(|(g, gn, gm, gw, _)| *g == kind && gn.as_ref() == n && gm == m && *gw == work.w);
        if let Some((.., value)) = known {
            return Some(value.clone());
        }
        let value = complete(f, n, m, work)?;
        self.0
            .push((kind, n.cloned(), m.clone(), work.w, value.clone()));
        Some(value)
    }
}

/// The complete integral of `f` (the incomplete one's kind, or `K` and `E` themselves):
/// `K(m) = R_F(0, 1 − m, 1)`, `E(m) = K(m) − (m/3) R_D(0, 1 − m, 1)` (1 at `m = 1`),
/// `Π(n | m) = K(m) + (n/3) R_J(0, 1 − m, 1, 1 − n)`; `None` outside the domain.
fn complete<T: Num>(f: Func, n: Option<&T>, m: &T, work: &Work<T>) -> Option<Valued<T>> {
    let w = work.w;
    let one = T::small(1);
    let [y_lo, y_hi] = one_minus(m, &exact(one.clone()), false, w)?;
    let zero = T::small(0);
    let mut lo = vec![zero.clone(), y_lo, one.clone()];
    let mut hi = vec![zero, y_hi, one.clone()];
    let rf = |lo: &[T], hi: &[T], kind: Kind| bracket(kind, lo, hi, work).map(|b| valued(&b, w));
    let third = |a: &T| exact(a.div(&T::small(3), w));
    match f {
        Func::EllipticF | Func::EllipticK => rf(&lo, &hi, Kind::F),
        Func::EllipticE if m.compare(&one) == Some(Ordering::Equal) => Some(exact(one)),
        Func::EllipticE => {
            let kf = rf(&lo, &hi, Kind::F)?;
            let kd = product(&third(m), &rf(&lo, &hi, Kind::D)?, w);
            Some(sum(&kf, &(kd.0.neg(), kd.1), w))
        }
        _ => {
            let n = n?;
            let kf = rf(&lo, &hi, Kind::F)?;
            let [p_lo, p_hi] = one_minus(n, &exact(one), true, w)?;
            lo.push(p_lo);
            hi.push(p_hi);
            let kj = product(&third(n), &rf(&lo, &hi, Kind::J)?, w);
            Some(sum(&kf, &kj, w))
        }
    }
}

/// `K(m)` or `E(m)` in f64, as [`incomplete_f64`].
pub(super) fn complete_f64(f: Func, m: f64) -> Option<Valued<f64>> {
    if !matches!(f, Func::EllipticK | Func::EllipticE) || !m.is_finite() {
        return None;
    }
    let (v, e) = complete(f, None, &m, &Work::new(53, F64_TARGET))?;
    (v.is_finite() && e.is_finite()).then_some((v, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(f: Func, args: &[f64], p: usize) -> Option<(f64, f64)> {
        // f64 approximations: only their presence matters to the callers
        let mut cc = Consts::new().unwrap();
        let args: Vec<BigFloat> = args.iter().map(|a| BigFloat::from_f64(*a, 64)).collect();
        incomplete(f, &args, p, &mut cc, &mut Completes::default())
            .map(|(v, e)| (super::super::validated::approx(&v), e))
    }

    /// mpmath at 95 digits.
    const CASES: &[(Func, &[f64], &str)] = &[
        (
            Func::EllipticF,
            &[0.37, 0.5],
            "0.37423380004656383906598985050068980108431329688178745799670204111343633141959456233232656683004",
        ),
        (
            Func::EllipticF,
            &[2.71, 0.5],
            "3.2698311713635047097967987123899951621874654259921859717466899356025731575782465713454656611089",
        ),
        (
            Func::EllipticF,
            &[-4.0, 0.5],
            "-4.6195206162571071618990994625183186327510487667960414205535143001617484550173168425106061762599",
        ),
        (
            Func::EllipticF,
            &[0.37, 1.5],
            "0.38356602853349080161741582326898903541845130402801703404823451643341848288729710884018820227259",
        ),
        (
            Func::EllipticF,
            &[1.0, 1.0],
            "1.226191170883517070813060967471906752724248350220740279138616843542984676244280381692374256378",
        ),
        (
            Func::EllipticF,
            &[1.0, -1000.0],
            "0.13392156225611868806303263626147827285439663856074355621472658831776271752882396063759511417309",
        ),
        (
            Func::EllipticF,
            &[std::f64::consts::FRAC_PI_2, 0.3],
            "1.7138894481787909823590597369233124806302842217388418216470232471448983774605692744920689641549",
        ),
        (
            Func::EllipticF,
            &[1e6, 0.7],
            "1321217.316213890008773737850984615620039819979151303747122927437487068443785698951648236848591",
        ),
        (
            Func::EllipticE,
            &[7.0, -5.0],
            "12.258994636383021814053331251975356672646984293254486429484278468594952603494352715791552136048",
        ),
        (
            Func::EllipticE,
            &[1.23, 0.9],
            "0.98075999353096787000398183166053824881432271915135554854552542405005794960962819025871167874594",
        ),
        (
            Func::EllipticE,
            &[2.0, 1.0],
            "1.090702573174318304603980134088255157297745028552109731621026988469032698459216455379873311075",
        ),
        (
            Func::EllipticE,
            &[std::f64::consts::FRAC_PI_2, 0.999],
            "1.0021707908344451656409908962565423531372158700223465624042169613133744137796155458699276381364",
        ),
        (
            Func::EllipticPi,
            &[0.3, 1.23, 0.5],
            "1.5847727568730177416313869069074546928626570491657453937019567176843284989243774161683131460196",
        ),
        (
            Func::EllipticPi,
            &[-2.0, 1.0, 0.5],
            "0.74660414096788047311019733643273012485729208124967729607304740027797714965198048261982911881319",
        ),
        (
            Func::EllipticPi,
            &[0.9, -4.0, -2.0],
            "-7.3921092788207929966917661035229304982126756875257074475537979008566646750182134070999368505539",
        ),
        (
            Func::EllipticPi,
            &[-5.0, 10.0, 0.3],
            "4.4623363243587980233200852408328820741301337900878978712567318726594474235161264087596071708992",
        ),
        (
            Func::EllipticPi,
            &[0.999, 0.2, 0.5],
            "0.20339088174617662918070457501603953158955099230445515278375392935247635424074947625186598697099",
        ),
    ];

    /// mpmath at 95 digits: each value lies within its bound at 128, 256 and 512 bits, and
    /// the bound is within a few units of the precision asked for.
    #[test]
    fn values_within_their_bounds() {
        let mut cc = Consts::new().unwrap();
        for (f, args, want) in CASES {
            let want = BigFloat::parse(want, astro_float_num::Radix::Dec, 400, RM, &mut cc);
            let big: Vec<BigFloat> = args.iter().map(|a| BigFloat::from_f64(*a, 64)).collect();
            for p in [128, 256, 512] {
                let (v, e) = incomplete(*f, &big, p, &mut cc, &mut Completes::default())
                    .unwrap_or_else(|| panic!("{f:?}{args:?} at {p} bits"));
                let off = super::super::validated::mag(&v.sub(&want, 600, RM));
                let size = super::super::validated::mag(&want).max(1.0);
                // the reference itself is good to 10^-94
                assert!(
                    off <= e + size * 1e-94,
                    "{f:?}{args:?} at {p} bits: off by {off:e} > {e:e}"
                );
                let tight = size * 2f64.powi(8 - p.min(300) as i32);
                assert!(e < tight, "{f:?}{args:?} at {p} bits: bound {e:e}");
            }
        }
    }

    /// The same references in f64: each within its f64 bound, which is tight enough to clear
    /// a residual (a relative 10^-10 at most; near 10^-13 but where the value is ill-conditioned,
    /// as `E(π/2 | 0.999)` with `1 − m sin²φ` near 0).
    #[test]
    fn f64_values_within_their_bounds() {
        let mut cc = Consts::new().unwrap();
        for (f, args, want) in CASES {
            let want = BigFloat::parse(want, astro_float_num::Radix::Dec, 400, RM, &mut cc);
            let (v, e) = incomplete_f64(*f, args).unwrap_or_else(|| panic!("{f:?}{args:?}"));
            let off = super::super::validated::mag(&BigFloat::from_f64(v, 64).sub(&want, 600, RM));
            let size = super::super::validated::mag(&want).max(1.0);
            assert!(off <= e, "{f:?}{args:?} in f64: off by {off:e} > {e:e}");
            assert!(e < size * 1e-10, "{f:?}{args:?} in f64: bound {e:e}");
        }
        // K(m) and E(m), mpmath at 40 digits
        let complete: &[(Func, f64, &str)] = &[
            (
                Func::EllipticK,
                0.5,
                "1.854074677301371918433850347195260046218",
            ),
            (
                Func::EllipticK,
                -2.0,
                "1.171420084146769858926335880095841831976",
            ),
            (
                Func::EllipticK,
                0.999,
                "4.841132560550297030339104064607123221454",
            ),
            (
                Func::EllipticK,
                -1000.0,
                "0.1530293349884987857672670277458036133509",
            ),
            (
                Func::EllipticE,
                0.5,
                "1.35064388104767550252017473533872584135",
            ),
            (
                Func::EllipticE,
                -2.0,
                "2.184438142746201185404837989426993627928",
            ),
            (
                Func::EllipticE,
                0.999,
                "1.002170790834445165870779456522021506427",
            ),
            (
                Func::EllipticE,
                -1000.0,
                "31.70720405371125971997588339615284626046",
            ),
            (Func::EllipticE, 1.0, "1.0"),
        ];
        for &(f, m, want) in complete {
            let (v, e) = complete_f64(f, m).unwrap_or_else(|| panic!("{f:?}({m})"));
            let want = BigFloat::parse(want, astro_float_num::Radix::Dec, 200, RM, &mut cc);
            let off = super::super::validated::mag(&BigFloat::from_f64(v, 64).sub(&want, 300, RM));
            assert!(off <= e, "{f:?}({m}): {v} off by {off:e} > {e:e}");
            let size = super::super::validated::mag(&want);
            assert!(e < size * 1e-12, "{f:?}({m}): bound {e:e}");
        }
        assert_eq!(complete_f64(Func::EllipticK, 1.0), None);
        assert_eq!(complete_f64(Func::EllipticK, 1.5), None);
        assert_eq!(complete_f64(Func::EllipticE, 1.5), None);
        assert_eq!(complete_f64(Func::Gamma, 0.5), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(200))]
        /// The f64 evaluator ([`super::super::special`]) and the validated one agree over the
        /// whole domain, quarter periods and negative parameters included: two
        /// implementations of the same forms, so this checks each against the other.
        #[test]
        fn the_f64_values_lie_near_the_validated_ones(
            which in 0usize..3,
            phi in -20.0f64..20.0,
            t in 0.0f64..1.0,
            v in 0.0f64..1.0,
        ) {
            use super::super::special;
            let s2 = phi.sin().powi(2);
            // m and n from −100 up to the domain's edge (1 across a quarter period, 1/sin²φ
            // within one), a little short of it
            let edge = if phi.abs() > 1.5 { 1.0 } else { (1.0 / s2).min(1e3) };
            let m = -100.0 + t * (edge - 1e-3 + 100.0);
            let n = -100.0 + v * (edge.min(1.0) - 1e-3 + 100.0);
            let (f, args, f64_value) = match which {
                0 => (Func::EllipticF, vec![phi, m], special::elliptic_f(phi, m)),
                1 => (Func::EllipticE, vec![phi, m], special::elliptic_e_incomplete(phi, m)),
                _ => (Func::EllipticPi, vec![n, phi, m], special::elliptic_pi(n, phi, m)),
            };
            let Ok(f64_value) = f64_value else {
                return Ok(());
            };
            let (v, e) = at(f, &args, 128).expect("a validated value wherever f64 has one");
            proptest::prop_assert!(
                (v - f64_value).abs() <= e + 1e-12 * v.abs().max(1.0),
                "{f:?}{args:?}: f64 {f64_value}, validated {v} ± {e}"
            );
            // The f64 brackets, where they close, hold the 128-bit value (v, as an f64, is
            // within 10^-15 of it): the same forms rounded another way.
            if let Some((v64, e64)) = incomplete_f64(f, &args) {
                proptest::prop_assert!(
                    (v64 - v).abs() <= e64 + e + 1e-15 * v.abs(),
                    "{f:?}{args:?}: f64 bracket {v64} ± {e64}, 128 bits {v} ± {e}"
                );
            }
        }

        /// `K(m)` and `E(m)` in f64 hold the 128-bit values of [`super::super::validated`]
        /// (another method: the AGM and its series).
        #[test]
        fn the_complete_f64_brackets_hold_the_validated_values(
            complete_e in proptest::bool::ANY,
            m in -1000.0f64..1.0,
        ) {
            let f = if complete_e { Func::EllipticE } else { Func::EllipticK };
            let mut cc = Consts::new().unwrap();
            let validated = super::super::validated::value(f, &BigFloat::from_f64(m, 64), 128, &mut cc);
            let (Some((v, e)), Some((v64, e64))) = (validated, complete_f64(f, m)) else {
                return Ok(());
            };
            let v = super::super::validated::approx(&v);
            proptest::prop_assert!(
                (v64 - v).abs() <= e64 + e + 1e-15 * v.abs(),
                "{f:?}({m}): f64 bracket {v64} ± {e64}, 128 bits {v} ± {e}"
            );
            proptest::prop_assert!(e64 < 1e-12 * v.abs(), "{f:?}({m}): bound {e64:e}");
        }
    }

    /// Corners that differ in φ alone bracket the complete integral once: the value is the
    /// one bracketed alone, and the memo holds one entry per kind, `n`, `m` and width.
    #[test]
    fn complete_integrals_are_bracketed_once() {
        let mut cc = Consts::new().unwrap();
        let mut completes = Completes::default();
        let mut at = |f: Func, args: &[f64], p: usize, completes: &mut Completes| {
            let big: Vec<BigFloat> = args.iter().map(|a| BigFloat::from_f64(*a, 64)).collect();
            incomplete(f, &big, p, &mut cc, completes).expect("a value")
        };
        for phi in [3.5, 3.6, -4.0] {
            let shared = at(Func::EllipticPi, &[-0.5, phi, 0.5], 128, &mut completes);
            let alone = at(
                Func::EllipticPi,
                &[-0.5, phi, 0.5],
                128,
                &mut Completes::default(),
            );
            assert_eq!(shared, alone, "φ = {phi}");
        }
        assert_eq!(completes.0.len(), 1);
        // F and K share one; another m, another n or another width does not.
        for (f, args, p) in [
            (Func::EllipticF, &[3.5, 0.5][..], 128),
            (Func::EllipticF, &[-3.5, 0.5], 128),
            (Func::EllipticPi, &[-0.25, 3.5, 0.5], 128),
            (Func::EllipticPi, &[-0.5, 3.5, 0.25], 128),
            (Func::EllipticPi, &[-0.5, 3.5, 0.5], 256),
        ] {
            at(f, args, p, &mut completes);
        }
        assert_eq!(completes.0.len(), 5);
    }

    #[test]
    fn no_value_outside_the_domain() {
        assert_eq!(at(Func::EllipticF, &[1.23, 1.5], 128), None);
        assert_eq!(at(Func::EllipticF, &[2.0, 1.0], 128), None);
        assert_eq!(at(Func::EllipticPi, &[2.0, 1.0, 0.5], 128), None);
        assert_eq!(at(Func::EllipticPi, &[0.5, 2.0, 1.0], 128), None);
        assert_eq!(at(Func::EllipticF, &[1e13, 0.5], 128), None);
    }
}
