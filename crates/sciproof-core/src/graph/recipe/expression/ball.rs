//! Evaluation with a guaranteed error bound (ball arithmetic): a value `mid ± rad` that holds
//! the true value of the expression at the point.
//!
//! Two arithmetics share one evaluator: [`High`], astro-float numbers at 128, 256 or 512 bits
//! (up to [`MOST_BITS`] where 512 leave a ball too wide; correctly rounded arithmetic and functions, except `ln` and `exp`, which come from
//! [`super::elementary`] within half the bound assumed below), which is what may refute a claim; and [`Double`], f64 with the error
//! bounds of the platform's math library, a cheap first look that only ever clears a point
//! that already passed in f64. Radii are f64 upper bounds, rounded up with a safety factor.
//! Every operation adds its own rounding error (four units in the last place for arithmetic;
//! for functions, four in [`High`] and sixteen in [`Double`], well above what glibc documents),
//! and every function propagates its argument's radius through a bound on its derivative over
//! the whole ball. The special functions take validated values at exact points
//! ([`super::validated`]) and carry the radius by a slope bound or, where they are monotone, as
//! the hull of their values at the ball's ends; `floor`, `ceil`, `round` and `sign` are exact
//! at exact rational arguments and constant on a ball that holds no jump. A ball that meets a
//! pole, a jump or a domain boundary gives no answer rather than a guess. The incomplete
//! elliptic integrals take validated values at the corners of their argument box
//! ([`super::carlson`]), where they are least and greatest; they are the only special
//! functions [`Double`] has, by the same brackets in f64.

use super::domain::RealDomain;
use super::eval::{Bindings, constant};
use super::expr::{Budget, Expr, Func};
use astro_float_num::{BigFloat, Consts, Radix, RoundingMode, Sign};

const RM: RoundingMode = RoundingMode::ToEven;
/// Radii are multiplied by this after each f64 step, to stay upper bounds.
const UP: f64 = 1.0 + 1e-12;
/// A floor for absolute errors (values this small never decide against a tolerance).
const TINY: f64 = 1e-300;

/// Why a ball could not be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BallError {
    /// The ball meets a pole or a domain boundary, or is too wide to say anything.
    Undecided,
    /// No bound for this function in this build.
    Unsupported(&'static str),
    /// The expression is too large.
    TooLarge,
}

/// The number type of midpoints and its correctly rounded (or bounded) operations.
pub trait Arith {
    /// A midpoint.
    type Mid: Clone + PartialEq + std::fmt::Debug;
    /// Relative error bound of one arithmetic operation.
    fn eps(&self) -> f64;
    /// Relative error bound of one function evaluation.
    fn function_eps(&self) -> f64;
    /// An f64, exactly.
    fn exactly(&mut self, v: f64) -> Self::Mid;
    /// A decimal numeral, rounded.
    fn parse(&mut self, text: &str) -> Self::Mid;
    /// `a + b`, rounded.
    fn add(&mut self, a: &Self::Mid, b: &Self::Mid) -> Self::Mid;
    /// `a · b`, rounded.
    fn mul(&mut self, a: &Self::Mid, b: &Self::Mid) -> Self::Mid;
    /// `a / b`, rounded.
    fn div(&mut self, a: &Self::Mid, b: &Self::Mid) -> Self::Mid;
    /// Whether `product` is `a · b` exactly (`a` and `b` exact): then its ball has no radius.
    /// `false` where this arithmetic cannot tell (f64).
    fn is_exact_product(&mut self, product: &Self::Mid, a: &Self::Mid, b: &Self::Mid) -> bool {
        let _ = (product, a, b);
        false
    }
    /// Whether `quotient` is `a / b` exactly, the same way.
    fn is_exact_quotient(&mut self, quotient: &Self::Mid, a: &Self::Mid, b: &Self::Mid) -> bool {
        let _ = (quotient, a, b);
        false
    }
    /// `f(x)` for the functions with a derivative bound in `Evaluator::unary`.
    fn call(&mut self, f: Func, x: &Self::Mid) -> Self::Mid;
    /// The midpoint as an f64 (within a relative 1e-15).
    fn approx(m: &Self::Mid) -> f64;
    /// π, within [`Arith::eps`] relative.
    fn pi(&mut self) -> Self::Mid;
    /// A special function at the exact point `x`: a value and a bound on its absolute error
    /// ([`super::validated`]); `Unsupported` in an arithmetic without such methods (f64),
    /// `Undecided` where the method has no value.
    fn special(&mut self, f: Func, x: &Self::Mid) -> Result<(Self::Mid, f64), BallError> {
        let _ = x;
        Err(BallError::Unsupported(f.name()))
    }
    /// An incomplete elliptic integral at the exact arguments `xs` ([`super::carlson`]), the
    /// same way.
    fn special_n(&mut self, f: Func, xs: &[Self::Mid]) -> Result<(Self::Mid, f64), BallError> {
        let _ = xs;
        Err(BallError::Unsupported(f.name()))
    }
    /// The budget steps one value of a special function costs here (`special_steps` at 128
    /// bits): none where it has no value.
    fn special_steps(&self, f: Func, arguments: usize) -> u64 {
        let _ = arguments;
        let _ = f;
        0
    }
    /// The budget ticks one node costs here (a tick is an f64 operation's work).
    fn node_ticks(&self) -> u64;
    /// How much an elementary function's value costs here, as a multiple of its cost at 128
    /// bits (`elementary_steps`); 0 where it is as cheap as an arithmetic node (f64).
    fn elementary_scale(&self) -> u64 {
        0
    }
}

/// The budget steps one value of an elementary function costs at 128 bits, beside the step of
/// its node ([`Budget`]: about half a microsecond each): the most measured with astro-float at
/// 128 bits over arguments from 0.001 to 10^8 (`exp`, `log` 5 us; `sqrt` 10; `sin`, `cos` 22;
/// `sinh`, `cosh`, `tan`, `tanh` 29 to 36; `atan` 43; `asinh`, `acosh`, `atanh` about 50;
/// `asin` 72; `acos` 95). At 256 and 512 bits they take 1.2 to 2.6 times as long. (A residual
/// of 5,000 `sin` terms once took 6 s when each counted as one step.)
fn elementary_steps(f: Func) -> u64 {
    match f {
        Func::Exp | Func::Log => 10,
        Func::Sqrt => 20,
        Func::Sin | Func::Cos => 45,
        Func::Sinh | Func::Cosh | Func::Tan | Func::Tanh => 72,
        Func::Atan => 86,
        Func::Asinh | Func::Acosh | Func::Atanh => 108,
        Func::Asin => 144,
        Func::Acos => 190,
        _ => 0,
    }
}

/// The budget steps one validated value of `f` costs at 128 bits (at one end of a ball, or one
/// corner of an elliptic integral's argument box), beside the step of its node. Measured with
/// arguments from 0.001 to 10^8, the most seen, in microseconds: `J0`, `J1`, `Si`, `Shi` up to
/// 30; `erf`, `erfc`, `W`, `Ci`, `Chi` up to 45; `K`, `dilog`, `li` 50 to 100; `E` and `Ei`
/// up to 120; the Fresnel integrals up to 130 (large arguments); `Γ`, `ψ`, `ψ₁` 100 to 150; an
/// incomplete elliptic integral 1 to 4 ms a corner. So an expression full of them ends within
/// its budget's time as a plain one does. (An enclosure of `∫ EllipticPi(0, π/4, x) dx` took
/// 5 s when every value counted as one step.)
fn special_steps(f: Func, arguments: usize) -> u64 {
    match f {
        Func::EllipticF => 4000,
        Func::EllipticE if arguments == 2 => 8000,
        Func::EllipticPi => 9000,
        Func::Gamma | Func::Digamma | Func::Trigamma => 300,
        Func::Ei | Func::FresnelS | Func::FresnelC => 280,
        Func::EllipticE => 250,
        Func::EllipticK | Func::Dilog | Func::Li => 200,
        Func::Erf | Func::Erfc | Func::LambertW | Func::Ci | Func::Chi => 90,
        Func::BesselJ0 | Func::BesselJ1 | Func::Si | Func::Shi => 60,
        _ => 0,
    }
}

/// The most bits a ball may be computed at: radii are f64 numbers, and the rounding error of
/// one operation, `2^(2−bits)` relative, must stay a normal one for the bounds to hold.
pub const MOST_BITS: usize = 1000;

/// astro-float numbers at a number of bits: correctly rounded.
pub struct High {
    bits: usize,
    /// Always present until dropped (then it goes back to [`CONSTANTS`]).
    consts: Option<Consts>,
    /// The complete elliptic integrals bracketed so far.
    completes: super::carlson::Completes,
}

thread_local! {
    /// astro-float's cache of π, e and ln 2, kept between evaluators: computing them again for
    /// every sample point was most of the time of a pass.
    static CONSTANTS: std::cell::RefCell<Option<Consts>> = const { std::cell::RefCell::new(None) };
}

impl High {
    /// At `bits` of precision.
    pub fn new(bits: usize) -> High {
        assert!(
            bits <= MOST_BITS,
            "a {bits}-bit ball's errors would not be f64 numbers"
        );
        High {
            bits,
            consts: Some(
                CONSTANTS
                    .with(|c| c.borrow_mut().take())
                    .unwrap_or_else(|| Consts::new().expect("astro-float constants")),
            ),
            completes: Default::default(),
        }
    }

    fn cc(&mut self) -> &mut Consts {
        self.consts.as_mut().expect("present until dropped")
    }
}

impl Drop for High {
    fn drop(&mut self) {
        let consts = self.consts.take();
        CONSTANTS.with(|c| *c.borrow_mut() = consts);
    }
}

impl Arith for High {
    type Mid = BigFloat;
    fn node_ticks(&self) -> u64 {
        // a step: 0.1 to 0.3 us for arithmetic at 128 to 512 bits; a product takes 67 ns at
        // 128 bits, 130 at 512 and 300 at 960 (past 512, in proportion to the width)
        if self.bits <= 512 {
            32
        } else {
            32 * self.bits as u64 / 256
        }
    }
    fn eps(&self) -> f64 {
        2f64.powi(2 - self.bits as i32)
    }
    fn function_eps(&self) -> f64 {
        self.eps()
    }
    fn special_steps(&self, f: Func, arguments: usize) -> u64 {
        // (the series and duplications cost about the square of the width)
        let words = (self.bits as u64).div_ceil(128);
        special_steps(f, arguments) * words * words
    }
    fn elementary_scale(&self) -> u64 {
        // 1, 2 and 3 at 128, 256 and 512 bits; past 512, 1.5 for each 128 bits (at 960:
        // `sin` 4.5 times its cost at 128 bits, `exp` 9, `ln` 11)
        let words = (self.bits as u64).div_ceil(128);
        if self.bits <= 512 {
            1 + words / 2
        } else {
            words * 3 / 2
        }
    }
    fn exactly(&mut self, v: f64) -> BigFloat {
        BigFloat::from_f64(v, self.bits)
    }
    fn parse(&mut self, text: &str) -> BigFloat {
        let p = self.bits;
        BigFloat::parse(text, Radix::Dec, p, RM, self.cc())
    }
    fn add(&mut self, a: &BigFloat, b: &BigFloat) -> BigFloat {
        a.add(b, self.bits, RM)
    }
    fn mul(&mut self, a: &BigFloat, b: &BigFloat) -> BigFloat {
        a.mul(b, self.bits, RM)
    }
    fn div(&mut self, a: &BigFloat, b: &BigFloat) -> BigFloat {
        a.div(b, self.bits, RM)
    }
    /// The product again with room for every bit of both mantissas (exact), compared.
    fn is_exact_product(&mut self, product: &BigFloat, a: &BigFloat, b: &BigFloat) -> bool {
        match (a.mantissa_max_bit_len(), b.mantissa_max_bit_len()) {
            (Some(pa), Some(pb)) => a.mul(b, pa + pb, RM).cmp(product) == Some(0),
            _ => false,
        }
    }
    /// `quotient · b`, exact with room for both mantissas, compared with `a`.
    fn is_exact_quotient(&mut self, quotient: &BigFloat, a: &BigFloat, b: &BigFloat) -> bool {
        match (quotient.mantissa_max_bit_len(), b.mantissa_max_bit_len()) {
            (Some(pq), Some(pb)) => quotient.mul(b, pq + pb, RM).cmp(a) == Some(0),
            _ => false,
        }
    }
    fn call(&mut self, f: Func, x: &BigFloat) -> BigFloat {
        let p = self.bits;
        let cc = self.cc();
        match f {
            Func::Sin => x.sin(p, RM, cc),
            Func::Cos => x.cos(p, RM, cc),
            Func::Tan => x.tan(p, RM, cc),
            Func::Atan => x.atan(p, RM, cc),
            Func::Tanh => x.tanh(p, RM, cc),
            Func::Asinh => x.asinh(p, RM, cc),
            Func::Abs => x.abs(),
            Func::Exp => super::elementary::exp(x, p, cc),
            Func::Sinh => x.sinh(p, RM, cc),
            Func::Cosh => x.cosh(p, RM, cc),
            Func::Log => super::elementary::ln(x, p, cc),
            Func::Sqrt => x.sqrt(p, RM),
            Func::Asin => x.asin(p, RM, cc),
            Func::Acos => x.acos(p, RM, cc),
            Func::Acosh => x.acosh(p, RM, cc),
            Func::Atanh => x.atanh(p, RM, cc),
            _ => astro_float_num::NAN,
        }
    }
    fn approx(x: &BigFloat) -> f64 {
        High::approx_of(x)
    }
    fn pi(&mut self) -> BigFloat {
        let p = self.bits;
        self.cc().pi(p, RM)
    }
    fn special(&mut self, f: Func, x: &BigFloat) -> Result<(BigFloat, f64), BallError> {
        let p = self.bits;
        super::validated::value(f, x, p, self.cc()).ok_or(BallError::Undecided)
    }
    fn special_n(&mut self, f: Func, xs: &[BigFloat]) -> Result<(BigFloat, f64), BallError> {
        let p = self.bits;
        let cc = self.consts.as_mut().expect("present until dropped");
        super::carlson::incomplete(f, xs, p, cc, &mut self.completes).ok_or(BallError::Undecided)
    }
}

impl High {
    /// `x` as an f64 (within a relative 1e-15).
    pub fn approx_of(x: &BigFloat) -> f64 {
        if x.is_zero() {
            return 0.0;
        }
        match x.as_raw_parts() {
            Some((words, _, sign, exponent, _)) => {
                // top/2^64 is in [1/2, 1); scaling it in one step keeps the values near the
                // ends of the f64 range (2^(exponent − 64) alone underflows 10^-300 to 0).
                let top = *words.last().expect("a word") as f64 / 2f64.powi(64);
                let v = libm::ldexp(top, exponent);
                if sign == Sign::Neg { -v } else { v }
            }
            None => f64::NAN,
        }
    }
}

/// f64, with the math library's functions: cheap, and trusted only to clear a point that
/// passed in f64 already, never to refute.
pub struct Double;

impl Arith for Double {
    type Mid = f64;
    fn node_ticks(&self) -> u64 {
        // (a bound beside each operation: about twice plain f64)
        2
    }
    fn eps(&self) -> f64 {
        4.0 * f64::EPSILON / 2.0
    }
    fn function_eps(&self) -> f64 {
        16.0 * f64::EPSILON / 2.0
    }
    fn exactly(&mut self, v: f64) -> f64 {
        v
    }
    fn parse(&mut self, text: &str) -> f64 {
        text.parse().unwrap_or(f64::NAN)
    }
    fn add(&mut self, a: &f64, b: &f64) -> f64 {
        a + b
    }
    fn mul(&mut self, a: &f64, b: &f64) -> f64 {
        a * b
    }
    fn div(&mut self, a: &f64, b: &f64) -> f64 {
        a / b
    }
    fn call(&mut self, f: Func, x: &f64) -> f64 {
        match f {
            Func::Sin => x.sin(),
            Func::Cos => x.cos(),
            Func::Tan => x.tan(),
            Func::Atan => x.atan(),
            Func::Tanh => x.tanh(),
            Func::Asinh => x.asinh(),
            Func::Abs => x.abs(),
            Func::Exp => x.exp(),
            Func::Sinh => x.sinh(),
            Func::Cosh => x.cosh(),
            Func::Log => x.ln(),
            Func::Sqrt => x.sqrt(),
            Func::Asin => x.asin(),
            Func::Acos => x.acos(),
            Func::Acosh => x.acosh(),
            Func::Atanh => x.atanh(),
            _ => f64::NAN,
        }
    }
    fn approx(x: &f64) -> f64 {
        *x
    }
    fn pi(&mut self) -> f64 {
        std::f64::consts::PI
    }
    /// `K` and `E` only (the rest are `Unsupported`): Carlson's brackets in f64.
    fn special(&mut self, f: Func, x: &f64) -> Result<(f64, f64), BallError> {
        match f {
            Func::EllipticK | Func::EllipticE => {
                super::carlson::complete_f64(f, *x).ok_or(BallError::Undecided)
            }
            _ => Err(BallError::Unsupported(f.name())),
        }
    }
    fn special_n(&mut self, f: Func, xs: &[f64]) -> Result<(f64, f64), BallError> {
        super::carlson::incomplete_f64(f, xs).ok_or(BallError::Undecided)
    }
    fn special_steps(&self, f: Func, arguments: usize) -> u64 {
        // an elliptic integral in f64: 1 to 7 us a value (the rest have no value here)
        match f {
            Func::EllipticF | Func::EllipticE | Func::EllipticPi if arguments >= 2 => 15,
            Func::EllipticK | Func::EllipticE => 5,
            _ => 0,
        }
    }
}

/// A bound on `|∂/∂φ|` of `F(φ | m)`, `E(φ | m)` or `Π(n; φ | m)` (the `φ` at `args[phi]`) for
/// every real `φ` and every `n`, `m` in their balls ([`super::carlson::phi_slope`]), or `None`
/// where `φ` is exact or not every `φ` has a value (`m < 1`, `m ≤ 1` for `E`, and `n < 1` are
/// needed). The balls' greatest and least values from their f64 midpoints (within 10^-15) and
/// radii, `m` and `n` kept 10^-6 from 1, so that f64 rounding cannot bring the bound below the
/// truth.
fn phi_slope<M>(f: Func, args: &[Ball<M>], phi: usize) -> Option<f64> {
    if args.len() < 2 || args.get(phi)?.rad == 0.0 {
        return None;
    }
    let reach = |b: &Ball<M>| b.rad * UP + b.approx.abs() * 1e-15;
    let top = |b: &Ball<M>| b.approx + reach(b);
    let bottom = |b: &Ball<M>| b.approx - reach(b);
    const EDGE: f64 = 1.0 - 1e-6;
    let m = args.last()?;
    let n_most = if f == Func::EllipticPi {
        top(&args[0])
    } else {
        0.0
    };
    let has_every_phi = match f {
        Func::EllipticF => top(m) < EDGE,
        Func::EllipticE => top(m) <= 1.0,
        Func::EllipticPi => n_most < EDGE && top(m) < EDGE,
        _ => false,
    };
    let slope = super::carlson::phi_slope(f, n_most, bottom(m), top(m));
    (has_every_phi && slope.is_finite() && slope > 0.0).then_some(slope)
}

/// A value known to lie in `[mid − rad, mid + rad]`.
#[derive(Debug, Clone)]
pub struct Ball<M = BigFloat> {
    mid: M,
    /// The midpoint as an f64 (within a relative 1e-15), for the bounds below.
    approx: f64,
    rad: f64,
}

fn magnitude_up(a: f64) -> f64 {
    if a.is_nan() {
        f64::INFINITY
    } else {
        a.abs() * (1.0 + 1e-9) + TINY
    }
}

fn magnitude_down(a: f64) -> f64 {
    if a.is_nan() {
        0.0
    } else {
        a.abs() * (1.0 - 1e-9)
    }
}

impl<M> Ball<M> {
    /// Upper bound of |value|.
    pub fn upper(&self) -> f64 {
        magnitude_up(self.approx) + self.rad
    }

    /// Lower bound of |value| (0 when the ball contains 0).
    pub fn lower(&self) -> f64 {
        (magnitude_down(self.approx) - self.rad * UP).max(0.0)
    }

    /// The midpoint as an f64 (for details).
    pub fn approx(&self) -> f64 {
        self.approx
    }

    /// 1 when every value in the ball is positive, −1 when every one is negative, 0 when the
    /// ball may hold 0.
    pub fn sign(&self) -> i8 {
        if self.above(0.0) {
            1
        } else if self.below(0.0) {
            -1
        } else {
            0
        }
    }

    /// Signed bounds of the value: the radius, and twice the relative 1e-15 by which
    /// [`Ball::approx`] may miss the midpoint, about it, each end rounded outward (infinite or
    /// NaN where the value is past the f64 range).
    pub fn interval(&self) -> (f64, f64) {
        let r = (self.rad * UP + self.approx.abs() * 2e-15).next_up();
        ((self.approx - r).next_down(), (self.approx + r).next_up())
    }

    /// The radius about the midpoint (an upper bound; the f64 [`Ball::approx`] may be a
    /// relative 1e-15 away from the midpoint besides).
    pub fn radius(&self) -> f64 {
        self.rad
    }

    /// Whether every value in the ball is above `t` (with a relative margin of 1e-12 of `t`
    /// for the f64 arithmetic of the test).
    pub fn above(&self, t: f64) -> bool {
        let r = self.rad * UP + self.approx.abs() * 1e-15;
        self.approx - r > t + t.abs() * 1e-12
    }

    /// Whether every value in the ball is below `t` (as [`Ball::above`]).
    pub fn below(&self, t: f64) -> bool {
        let r = self.rad * UP + self.approx.abs() * 1e-15;
        self.approx + r < t - t.abs() * 1e-12
    }
}

impl Ball<BigFloat> {
    /// Whether |value| > `t` (`Some(true)`) or |value| ≤ `t` (`Some(false)`), decided on the
    /// midpoint itself; `None` while the ball holds `t`. [`Ball::upper`] and [`Ball::lower`] go
    /// through the midpoint's f64 value and keep a relative margin of 1e-9 for it: too coarse
    /// for a residual within a few units of the tolerance's last place (the exact residual
    /// 10^-8 against the tolerance 1e-8, whose f64 is 2·10^-25 above it).
    pub fn compared_with(&self, t: f64) -> Option<bool> {
        let p = self.mid.mantissa_max_bit_len()? + 64;
        let t = BigFloat::from_f64(t, 64);
        let m = self.mid.abs();
        // Both f64s are exact; a difference of exact numbers rounded to nearest at p bits is
        // within 2^−p of itself, relatively, and keeps its sign: when it is at least twice the
        // radius, the difference itself exceeds the radius.
        let twice_rad = BigFloat::from_f64(2.0 * self.rad, 64);
        let above = m.sub(&t, p, RM);
        if above.is_positive() && !above.is_zero() && above >= twice_rad {
            return Some(true);
        }
        let below = t.sub(&m, p, RM);
        if (below.is_zero() || below.is_positive()) && below >= twice_rad {
            return Some(false);
        }
        None
    }
}

/// An evaluator in one arithmetic, for one point (or one interval, see [`Evaluator::over`]).
pub struct Evaluator<'a, A: Arith = High> {
    arith: A,
    bindings: &'a Bindings,
    /// A symbol standing for every point of an interval.
    interval: Option<(String, Ball<A::Mid>)>,
    /// That interval's two ends, when they are exact ([`Evaluator::over_exactly`]).
    ends: Option<[num_rational::BigRational; 2]>,
    /// The functions computed so far, with their arguments: a residual often applies one
    /// function to one argument several times (the product and quotient rules repeat `e^2x`),
    /// and at high precision the function is most of the cost. The same midpoint gives the
    /// same value, so reusing it changes no bound.
    calls: Vec<(Func, A::Mid, A::Mid)>,
    /// Budget steps spent on function values and not yet taken from the budget.
    owed: u64,
}

/// The most function values an evaluator remembers (a linear search stays cheap).
const REMEMBERED_CALLS: usize = 16;

impl<'a> Evaluator<'a, High> {
    /// An evaluator at `bits` of precision for the point `bindings`.
    pub fn new(bits: usize, bindings: &'a Bindings) -> Evaluator<'a, High> {
        Evaluator::with(High::new(bits), bindings)
    }
}

impl<'a, A: Arith> Evaluator<'a, A> {
    /// An evaluator in `arith` for the point `bindings`.
    pub fn with(arith: A, bindings: &'a Bindings) -> Evaluator<'a, A> {
        Evaluator {
            arith,
            bindings,
            interval: None,
            ends: None,
            calls: Vec::new(),
            owed: 0,
        }
    }

    /// The ball of exactly `v` (a finite f64).
    pub fn exactly(&mut self, v: f64) -> Ball<A::Mid> {
        Ball {
            mid: self.arith.exactly(v),
            approx: v,
            rad: 0.0,
        }
    }

    /// Lets `var` stand for every point between the balls `a` and `b` (in either order): a
    /// ball computed afterwards holds the value at each such point, and computing it at all
    /// shows that no operation meets a pole or a domain boundary anywhere on the interval.
    pub fn over(&mut self, var: &str, a: &Ball<A::Mid>, b: &Ball<A::Mid>) {
        let ends = [a.approx, b.approx];
        let slack = |m: f64, r: f64| r * UP + m.abs() * 1e-15;
        let lo = (ends[0] - slack(ends[0], a.rad)).min(ends[1] - slack(ends[1], b.rad));
        let hi = (ends[0] + slack(ends[0], a.rad)).max(ends[1] + slack(ends[1], b.rad));
        let mid = 0.5 * (lo + hi);
        let rad = (0.5 * (hi - lo) + mid.abs() * 1e-15) * UP + TINY;
        let approx = mid;
        let mid = self.arith.exactly(mid);
        self.interval = Some((var.to_string(), Ball { mid, approx, rad }));
        self.ends = None;
    }

    /// [`Evaluator::over`] the interval between the exact numbers `a` and `b`; a power of a
    /// monotone function of `var` (`√x`, `(1 − x)^(3/2)`, `√tan x`: `Evaluator::monotone_power`)
    /// is then taken at the two ends (the hull of the two holds it).
    pub fn over_exactly(
        &mut self,
        var: &str,
        a: &num_rational::BigRational,
        b: &num_rational::BigRational,
        budget: &mut Budget,
    ) -> Result<(), BallError> {
        let number = super::integrate::number;
        let a_ball = self.ball(&number(a), budget)?;
        let b_ball = self.ball(&number(b), budget)?;
        self.over(var, &a_ball, &b_ball);
        self.ends = Some([a.clone(), b.clone()]);
        Ok(())
    }

    fn rounded(&self, mid: A::Mid, rad: f64, eps: f64) -> Result<Ball<A::Mid>, BallError> {
        let m = A::approx(&mid);
        if !m.is_finite() || !rad.is_finite() {
            return Err(BallError::Undecided);
        }
        let rad = (rad * UP + magnitude_up(m) * eps + TINY) * UP;
        Ok(Ball {
            mid,
            approx: m,
            rad,
        })
    }

    fn exact(&self, mid: A::Mid) -> Result<Ball<A::Mid>, BallError> {
        // A conversion that had to round counts its rounding like an operation.
        self.rounded(mid, 0.0, self.arith.eps())
    }

    /// The ball of `e`.
    pub fn ball(&mut self, e: &Expr, budget: &mut Budget) -> Result<Ball<A::Mid>, BallError> {
        budget
            .ticks(self.arith.node_ticks())
            .map_err(|_| BallError::TooLarge)?;
        let ball = self.node(e, budget);
        // (the function values computed for this node, at most one of them past the budget)
        let owed = std::mem::take(&mut self.owed);
        budget.steps(owed).map_err(|_| BallError::TooLarge)?;
        ball
    }

    /// Whether `e` is `√u` or `u^r` (`r > 0` exact, not an integer), or `asin u`, `acos u`,
    /// `acosh u`, `atanh u`, of a `u` that has a ball over the interval (so no pole or domain
    /// boundary lies inside) and is monotone there by its form ([`Evaluator::direction`]: `x`,
    /// `tan x`, `exp(x) − 1`, `1 − x^3`). Such an `e` is monotone and continuous wherever it is
    /// defined, and its domain is an interval, so where it is defined at both ends it is
    /// between them (`asin x` over `[1 − h, 1]`, where a ball of `x` reaches past 1).
    fn monotone_power(&mut self, e: &Expr, budget: &mut Budget) -> bool {
        let base = match e {
            Expr::Call(Func::Asin | Func::Acos | Func::Acosh | Func::Atanh, xs) => &xs[0],
            _ => match root_base(e) {
                Some(base) => base,
                None => return false,
            },
        };
        matches!(self.direction(base, budget), Ok(Some(1 | -1))) && self.node(base, budget).is_ok()
    }

    /// `1` when `u` increases with the interval's variable by its form, `-1` when it decreases,
    /// `0` when it is constant; `None` when its form does not say. Each rule holds on any
    /// interval where `u` has a ball (no pole of `tan` or `1/v` inside, every argument in its
    /// function's domain, which is an interval): a function increasing or decreasing on its
    /// domain (or between two poles) of a monotone argument; a sum of terms that do not go
    /// opposite ways; a product of one monotone factor and constants of known sign; an odd
    /// power or a positive fractional power of a monotone base, or an even power of one whose
    /// ball has one sign; a ratio `(ax + b)/(cx + d)`
    /// of first-degree polynomials with exact coefficients, whose derivative
    /// `(ad − bc)/(cx + d)²` has one sign between poles.
    fn direction(&mut self, u: &Expr, budget: &mut Budget) -> Result<Option<i8>, BallError> {
        budget.step().map_err(|_| BallError::TooLarge)?;
        let varies = match &self.interval {
            Some((name, _)) => u.contains(name, budget).map_err(|_| BallError::TooLarge)?,
            None => return Ok(None),
        };
        if !varies {
            return Ok(Some(0));
        }
        Ok(match self.direction_of_parts(u, budget)? {
            None if matches!(u, Expr::Mul(_) | Expr::Pow(_)) => self.ratio_direction(u, budget)?,
            by_form => by_form,
        })
    }

    /// [`Evaluator::direction`] of a `u` that varies, from the directions of its parts.
    fn direction_of_parts(
        &mut self,
        u: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<i8>, BallError> {
        Ok(match u {
            Expr::Sym(_) => Some(1),
            Expr::Call(f, xs) if xs.len() == 1 => {
                let turn = match f {
                    Func::Exp
                    | Func::Log
                    | Func::Sqrt
                    | Func::Sinh
                    | Func::Tanh
                    | Func::Tan
                    | Func::Atan
                    | Func::Asin
                    | Func::Asinh
                    | Func::Acosh
                    | Func::Atanh
                    | Func::Erf => 1,
                    Func::Acos | Func::Erfc => -1,
                    _ => return Ok(None),
                };
                self.direction(&xs[0], budget)?.map(|d| turn * d)
            }
            Expr::Add(xs) => {
                let mut way = 0;
                for x in xs.iter() {
                    match self.direction(x, budget)? {
                        None => return Ok(None),
                        Some(0) => {}
                        Some(d) if way == 0 || way == d => way = d,
                        Some(_) => return Ok(None),
                    }
                }
                Some(way)
            }
            Expr::Mul(xs) => {
                let mut way = None;
                let mut sign = 1;
                for x in xs.iter() {
                    match self.direction(x, budget)? {
                        Some(0) => {
                            let b = self.node(x, budget)?;
                            match b.sign() {
                                0 => return Ok(None),
                                s => sign *= s,
                            }
                        }
                        Some(d) if way.is_none() => way = Some(d),
                        _ => return Ok(None),
                    }
                }
                way.map(|d| d * sign)
            }
            Expr::Pow(p) => {
                let k = integer_exponent(&p.1);
                let odd = k.is_some_and(|k| k > 0 && k % 2 == 1);
                if odd || root_base(u).is_some() {
                    self.direction(&p.0, budget)?
                } else if k.is_some_and(|k| k > 0) {
                    // an even power of a monotone base of one sign over the interval goes the
                    // way |base| goes: `x^2` on [1/2, 1], so `1 − x^2` there
                    match self.direction(&p.0, budget)? {
                        Some(d) if d != 0 => match self.node(&p.0, budget)?.sign() {
                            0 => None,
                            s => Some(d * s),
                        },
                        _ => None,
                    }
                } else {
                    None
                }
            }
            _ => None,
        })
    }

    /// The direction of a ratio `(ax + b)/(cx + d)` with `c ≠ 0` (in the interval's variable,
    /// exact coefficients, in any form: `(1 − x)·(x + 1)^-1`): the sign of `ad − bc`.
    fn ratio_direction(&mut self, u: &Expr, budget: &mut Budget) -> Result<Option<i8>, BallError> {
        use num_traits::Signed;
        let name = self.interval.as_ref().expect("an interval").0.clone();
        let ratio = super::integrate::rational_function(u, &name, budget)
            .map_err(|_| BallError::TooLarge)?;
        let Some((n, d)) = ratio else {
            return Ok(None);
        };
        let zero = num_rational::BigRational::default();
        let coefficient =
            |p: &[num_rational::BigRational], k: usize| p.get(k).unwrap_or(&zero).clone();
        if n.len() > 2 || d.len() != 2 || coefficient(&d, 1) == zero {
            return Ok(None);
        }
        let slope =
            coefficient(&n, 1) * coefficient(&d, 0) - coefficient(&n, 0) * coefficient(&d, 1);
        Ok(Some(if slope.is_positive() {
            1
        } else if slope.is_negative() {
            -1
        } else {
            0
        }))
    }

    /// A monotone `e` ([`Evaluator::monotone_power`]) over the interval: the hull of its
    /// values at the two exact ends, which holds every value between. A ball over `[0, b]` has
    /// no derivative bound for `√x` at 0, where the value at the end is exactly 0.
    fn over_ends(&mut self, e: &Expr, budget: &mut Budget) -> Result<Ball<A::Mid>, BallError> {
        let name = self.interval.as_ref().expect("an interval").0.clone();
        let ends = self.ends.take().expect("exact ends");
        let mut at = |this: &mut Self, end: &num_rational::BigRational| {
            let point = e
                .substitute(&name, &super::integrate::number(end), budget)
                .map_err(|_| BallError::TooLarge)?;
            this.node(&point, budget)
        };
        let (low, high) = (at(self, &ends[0]), at(self, &ends[1]));
        self.ends = Some(ends);
        let (low, high) = (low?, high?);
        self.hull(&low.mid, &high.mid, low.rad.max(high.rad))
    }

    /// The ball of `e` ([`Evaluator::ball`] counts the node and the function values it takes;
    /// a special function's value is charged here, before it is computed, since one can take
    /// milliseconds).
    fn node(&mut self, e: &Expr, budget: &mut Budget) -> Result<Ball<A::Mid>, BallError> {
        match self.node_of(e, budget) {
            // A root whose base is defined here, with a ball about 0 that no root can take,
            // and that the exact test shows is exactly 0 (`exp(0) − 1`, `log(1)`, as an
            // antiderivative at an end writes them): the root is 0.
            Err(BallError::Undecided) => match root_base(e) {
                Some(base)
                    if self.node_of(base, budget).is_ok_and(|b| b.sign() == 0)
                        && super::canon::constant_value(base, budget)
                            .is_ok_and(|v| v.is_some_and(|v| num_traits::Zero::is_zero(&v))) =>
                {
                    Ok(self.exactly(0.0))
                }
                Some(base) => self
                    .power_of_a_square(e, base, budget)
                    .ok_or(BallError::Undecided),
                _ => Err(BallError::Undecided),
            },
            other => other,
        }
    }

    /// `(P²)^(k/2)` over the interval, for a base that is a polynomial in the interval's
    /// variable and the square of a polynomial `P`: `|P|^k`, the same number wherever either
    /// is defined (everywhere), whose ball is never below 0 where that of `P²` may be, its
    /// terms bounded one by one (`sqrt(x² − 2x + 1)` about 1). `None` for any other root.
    fn power_of_a_square(
        &mut self,
        e: &Expr,
        base: &Expr,
        budget: &mut Budget,
    ) -> Option<Ball<A::Mid>> {
        let k = match e {
            Expr::Call(Func::Sqrt, _) => 1,
            Expr::Pow(p) => {
                let r = super::expr::exact_value(&p.1)?;
                if r.denom() != &num_bigint::BigInt::from(2) {
                    return None;
                }
                num_traits::ToPrimitive::to_i64(r.numer())?
            }
            _ => return None,
        };
        let var = self.interval.as_ref()?.0.clone();
        let q = super::integrate::numeric_polynomial(base, &var, budget).ok()??;
        let p = super::partial_fractions::square_root(&q).filter(|p| p.len() >= 2)?;
        let abs = Expr::call(Func::Abs, super::partial_fractions::expression(&p, &var));
        self.node_of(&Expr::pow(abs, Expr::int(k)), budget).ok()
    }

    /// [`Evaluator::node`] by the form of `e`.
    fn node_of(&mut self, e: &Expr, budget: &mut Budget) -> Result<Ball<A::Mid>, BallError> {
        if self.ends.is_some()
            && self.monotone_power(e, budget)
            && let Ok(ball) = self.over_ends(e, budget)
        {
            return Ok(ball);
        }
        match e {
            Expr::Int(n) => self.integer_ball(n),
            Expr::Rat(r) => {
                let n = self.integer_ball(r.numer())?;
                let d = self.integer_ball(r.denom())?;
                self.div(&n, &d)
            }
            Expr::Float(l) => {
                let v = self.arith.parse(&l.text);
                self.exact(v)
            }
            Expr::Sym(s) => {
                if let Some((name, ball)) = &self.interval
                    && name == &**s
                {
                    return Ok(ball.clone());
                }
                // `pi` and `e` are π and Euler's number at this precision, whatever f64 the
                // sample binds them to: that f64 is the numeric rule's rounding, and a residual
                // that only this rounding keeps from zero (`cos(pi/3)*10^12 - 10^12/2`) is
                // cancellation, not a counterexample.
                match &**s {
                    "pi" => {
                        let pi = self.arith.pi();
                        return self.exact(pi);
                    }
                    "e" => {
                        let one = self.exactly(1.0);
                        return self.unary(Func::Exp, &one);
                    }
                    _ => {}
                }
                if let Some(v) = self.bindings.get(&**s) {
                    // A sample value is an f64, taken exactly.
                    return Ok(Ball {
                        mid: self.arith.exactly(*v),
                        approx: *v,
                        rad: 0.0,
                    });
                }
                // `pi` or `e` where no sample binds it: the true constant, within a radius
                // that covers its f64 rounding.
                let v = constant(s).ok_or(BallError::Undecided)?;
                Ok(Ball {
                    mid: self.arith.exactly(v),
                    approx: v,
                    rad: v * f64::EPSILON,
                })
            }
            Expr::Add(xs) => {
                let mut acc = self.ball(&xs[0], budget)?;
                for x in &xs[1..] {
                    let b = self.ball(x, budget)?;
                    let mid = self.arith.add(&acc.mid, &b.mid);
                    acc = self.rounded(mid, acc.rad + b.rad, self.arith.eps())?;
                }
                Ok(acc)
            }
            Expr::Mul(xs) => {
                let mut acc = self.ball(&xs[0], budget)?;
                for x in &xs[1..] {
                    let b = self.ball(x, budget)?;
                    acc = self.mul(&acc, &b)?;
                }
                Ok(acc)
            }
            Expr::Pow(pw) => {
                let base = self.ball(&pw.0, budget)?;
                if let Some(n) = integer_exponent(&pw.1) {
                    return self.powi(base, n);
                }
                // 0^b = 0 for an exact b > 0 (`0^(1/2)`, as alkahest writes sqrt(0)): the end of
                // the domain, where the derivative bound of log cannot reach
                if (base.rad == 0.0 && base.approx == 0.0 && base.mid == self.arith.exactly(0.0)
                    || super::expr::exact_value(&pw.0)
                        .is_some_and(|a| num_traits::Zero::is_zero(&a)))
                    && super::expr::exact_value(&pw.1)
                        .is_some_and(|b| num_traits::Signed::is_positive(&b))
                {
                    return Ok(self.exactly(0.0));
                }
                let exponent = self.ball(&pw.1, budget)?;
                // a^b = exp(b·log a) for a > 0 (a negative base has no real value here).
                let log = self.unary(Func::Log, &base)?;
                let product = self.mul(&exponent, &log)?;
                self.unary(Func::Exp, &product)
            }
            Expr::Call(f @ (Func::Floor | Func::Ceil | Func::Round | Func::Sign), xs) => {
                self.step(*f, &xs[0], budget)
            }
            Expr::Call(Func::Atan2, xs) if xs.len() == 2 => {
                let y = self.ball(&xs[0], budget)?;
                let x = self.ball(&xs[1], budget)?;
                self.atan2(&y, &x)
            }
            Expr::Call(f @ (Func::EllipticE | Func::EllipticF | Func::EllipticPi), xs)
                if xs.len() >= 2 =>
            {
                let args = xs
                    .iter()
                    .map(|x| self.ball(x, budget))
                    .collect::<Result<Vec<_>, _>>()?;
                let corners: u64 = args
                    .iter()
                    .map(|a| if a.rad == 0.0 { 1 } else { 2 })
                    .product();
                self.charge(self.arith.special_steps(*f, xs.len()) * corners, budget)?;
                self.incomplete_elliptic(*f, &args)
            }
            Expr::Call(f, xs) if xs.len() == 1 => {
                // (an argument that is exactly −1, 0 or 1, however written, is that point,
                // without the radius its arithmetic leaves: `asin(1·1 + 0)` and
                // `asin(sqrt(1))` are asin's end)
                let point = exact_with_square_roots(&xs[0])
                    .filter(|v| v.is_integer())
                    .and_then(|v| i8::try_from(v.to_integer()).ok())
                    .filter(|v| (-1..=1).contains(v));
                let x = match point {
                    Some(v) => self.exactly(f64::from(v)),
                    None => self.ball(&xs[0], budget)?,
                };
                // (a ball that is not a point may take the values at both its ends)
                let ends = if x.rad == 0.0 { 1 } else { 2 };
                self.charge(self.arith.special_steps(*f, 1) * ends, budget)?;
                self.unary(*f, &x)
            }
            Expr::Call(f, _) => Err(BallError::Unsupported(f.name())),
        }
    }

    /// Takes `steps` from the budget.
    fn charge(&self, steps: u64, budget: &mut Budget) -> Result<(), BallError> {
        if steps == 0 {
            return Ok(());
        }
        budget.steps(steps).map_err(|_| BallError::TooLarge)
    }

    /// Whether `e` is shown to have a value at the point: every operation's argument lies in
    /// its domain. Only the arguments a domain depends on are evaluated (as balls), so a value
    /// too large for any ball (`exp(10^6)`, `Γ(10^6)`) still counts as one.
    pub fn defined(&mut self, e: &Expr, budget: &mut Budget) -> bool {
        if budget.step().is_err() {
            return false;
        }
        match e {
            Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) => true,
            Expr::Sym(s) => {
                self.bindings.contains_key(&**s)
                    || constant(s).is_some()
                    || self.interval.as_ref().is_some_and(|(n, _)| n == &**s)
            }
            Expr::Add(xs) | Expr::Mul(xs) => xs.iter().all(|x| self.defined(x, budget)),
            Expr::Pow(p) => {
                if !self.defined(&p.0, budget) || !self.defined(&p.1, budget) {
                    return false;
                }
                // (any integer exponent: `(−x)^999999999997` has a value past every ball)
                match super::expr::exact_value(&p.1).filter(num_rational::BigRational::is_integer) {
                    Some(n) if !num_traits::Signed::is_negative(&n) => true,
                    Some(_) => self.sign_of(&p.0, budget) != 0,
                    // (0^b for an exact b > 0 is 0)
                    None if super::expr::exact_value(&p.1)
                        .is_some_and(|b| num_traits::Signed::is_positive(&b))
                        && super::expr::exact_value(&p.0)
                            .is_some_and(|a| num_traits::Zero::is_zero(&a)) =>
                    {
                        true
                    }
                    None => self.sign_of(&p.0, budget) == 1,
                }
            }
            Expr::Call(f, xs) => {
                if !xs.iter().all(|x| self.defined(x, budget)) {
                    return false;
                }
                match RealDomain::of(*f) {
                    // (the steps too, though not continuous)
                    RealDomain::Line => true,
                    // (0 itself is seldom shown by a ball, nor needed)
                    RealDomain::Positive | RealDomain::NonNegative => {
                        self.sign_of(&xs[0], budget) == 1
                    }
                    RealDomain::NonNegativeButOne => {
                        let shifted = Expr::minus(xs[0].clone(), Expr::int(1));
                        self.sign_of(&xs[0], budget) == 1 && self.sign_of(&shifted, budget) != 0
                    }
                    RealDomain::NonZero => self.sign_of(&xs[0], budget) != 0,
                    // (enough: the poles are at 0 and below)
                    RealDomain::BesidePoles => self.sign_of(&xs[0], budget) == 1,
                    // The rest: only where a ball of the whole call exists.
                    RealDomain::ClosedUnit
                    | RealDomain::OpenUnit
                    | RealDomain::FromOne
                    | RealDomain::UpToOne
                    | RealDomain::FromBranchPoint
                    | RealDomain::Own => self.ball(e, budget).is_ok(),
                }
            }
        }
    }

    /// The sign of `e`'s ball ([`Ball::sign`]), 0 when there is none; `exp` and `cosh` of a
    /// defined argument are positive by their form, however large.
    fn sign_of(&mut self, e: &Expr, budget: &mut Budget) -> i8 {
        if let Expr::Call(Func::Exp | Func::Cosh, _) = e {
            return 1;
        }
        self.ball(e, budget).map_or(0, |b| b.sign())
    }

    /// `floor`, `ceil`, `round` (half away from zero, as alkahest and f64 round) or `sign` of
    /// `arg`: exactly when `arg` is an exact rational (`round(5/2)` is 3, not a jump to stay
    /// away from), else the one integer the whole ball maps to; a ball that holds a jump
    /// decides nothing.
    fn step(
        &mut self,
        f: Func,
        arg: &Expr,
        budget: &mut Budget,
    ) -> Result<Ball<A::Mid>, BallError> {
        if let Some(r) = super::expr::exact_value(arg) {
            let n = match f {
                Func::Floor => r.floor(),
                Func::Ceil => r.ceil(),
                Func::Round => r.round(),
                _ => num_traits::Signed::signum(&r),
            };
            let v = self.integer(&n.to_integer());
            return self.exact(v);
        }
        let x = self.ball(arg, budget)?;
        let r = x.rad * UP + x.approx.abs() * 1e-15;
        let at = |v: f64| match f {
            Func::Floor => v.floor(),
            Func::Ceil => v.ceil(),
            Func::Round => v.round(),
            // 0 is its own value: a ball reaching it is a jump.
            _ if v == 0.0 => f64::NAN,
            _ => v.signum(),
        };
        let (lo, hi) = (at(x.approx - r), at(x.approx + r));
        if lo != hi || !lo.is_finite() {
            return Err(BallError::Undecided);
        }
        Ok(self.exactly(lo))
    }

    /// The value at a point exactly on the closed end of a function's domain (`sqrt(0) = 0`,
    /// `asin(±1) = ±π/2`, `acos(1) = 0`, `acos(−1) = π`, `acosh(1) = 0`), which the derivative
    /// bound of [`Evaluator::unary`] cannot give: its slope is unbounded there; and a function's
    /// exact value at exactly 0 ([`super::canon::at_zero`]: `tan 0 = 0`), so that a root of it
    /// (`√tan x` at 0) is taken at its domain's end too. `None` for any other ball (a ball with
    /// a radius is never treated so).
    fn at_domain_end(
        &mut self,
        f: Func,
        x: &Ball<A::Mid>,
    ) -> Result<Option<Ball<A::Mid>>, BallError> {
        if x.rad != 0.0 || !matches!(x.approx, -1.0 | 0.0 | 1.0) {
            return Ok(None);
        }
        let end = x.approx;
        if x.mid != self.arith.exactly(end) {
            return Ok(None);
        }
        let pi_times = |this: &mut Self, k: f64| -> Result<Ball<A::Mid>, BallError> {
            let pi = this.arith.pi();
            let k = this.arith.exactly(k);
            let mid = this.arith.mul(&pi, &k);
            this.exact(mid)
        };
        if end == 0.0
            && let Some(v) = super::canon::at_zero(f)
        {
            return Ok(Some(self.exactly(v as f64)));
        }
        Ok(Some(match (f, end) {
            (Func::Sqrt, 0.0) | (Func::Acos | Func::Acosh, 1.0) => self.exactly(0.0),
            (Func::Asin, 1.0) => pi_times(self, 0.5)?,
            (Func::Asin, -1.0) => pi_times(self, -0.5)?,
            (Func::Acos, -1.0) => pi_times(self, 1.0)?,
            _ => return Ok(None),
        }))
    }

    /// `atan2(y, x)` by quadrant, through `atan` of the quotient that stays bounded; a ball on
    /// the branch cut (x < 0, y reaching 0) or holding the origin decides nothing.
    fn atan2(&mut self, y: &Ball<A::Mid>, x: &Ball<A::Mid>) -> Result<Ball<A::Mid>, BallError> {
        let sign = |b: &Ball<A::Mid>| b.sign();
        let pi = self.arith.pi();
        let pi = self.exact(pi)?;
        let half = self.exactly(0.5);
        let minus_one = self.exactly(-1.0);
        let (quotient, offset) = match (sign(x), sign(y)) {
            (1, _) => (self.div(y, x)?, None),
            (-1, 1) => (self.div(y, x)?, Some(pi)),
            (-1, -1) => (self.div(y, x)?, Some(self.mul(&pi, &minus_one)?)),
            (_, 1) => {
                let q = self.div(x, y)?;
                (self.mul(&q, &minus_one)?, Some(self.mul(&pi, &half)?))
            }
            (_, -1) => {
                let q = self.div(x, y)?;
                let m = self.mul(&pi, &half)?;
                (self.mul(&q, &minus_one)?, Some(self.mul(&m, &minus_one)?))
            }
            _ => return Err(BallError::Undecided),
        };
        let angle = self.unary(Func::Atan, &quotient)?;
        match offset {
            None => Ok(angle),
            Some(o) => {
                let mid = self.arith.add(&angle.mid, &o.mid);
                self.rounded(mid, angle.rad + o.rad, self.arith.eps())
            }
        }
    }

    /// The ball of an integer: held exactly where an f64 holds it (a radius would push
    /// `EllipticE(x, 1)` off its domain, and give `1/2` one), else rounded.
    fn integer_ball(&mut self, n: &num_bigint::BigInt) -> Result<Ball<A::Mid>, BallError> {
        use num_traits::ToPrimitive;
        match n.to_i64().filter(|n| n.unsigned_abs() <= 1 << 53) {
            Some(small) => Ok(self.exactly(small as f64)),
            None => {
                let v = self.integer(n);
                self.exact(v)
            }
        }
    }

    /// An integer as a midpoint: through an f64 when that holds it exactly (the same value as
    /// the decimal text, without printing and parsing it), else from its digits.
    fn integer(&mut self, n: &num_bigint::BigInt) -> A::Mid {
        use num_traits::ToPrimitive;
        match n.to_i64().filter(|n| n.unsigned_abs() <= 1 << 53) {
            Some(small) => self.arith.exactly(small as f64),
            None => self.arith.parse(&n.to_string()),
        }
    }

    fn mul(&mut self, a: &Ball<A::Mid>, b: &Ball<A::Mid>) -> Result<Ball<A::Mid>, BallError> {
        let (am, bm) = (a.approx, b.approx);
        let rad = magnitude_up(am) * b.rad + magnitude_up(bm) * a.rad + a.rad * b.rad;
        let mid = self.arith.mul(&a.mid, &b.mid);
        if rad == 0.0 && self.arith.is_exact_product(&mid, &a.mid, &b.mid) {
            return Ok(self.held_exactly(mid));
        }
        self.rounded(mid, rad, self.arith.eps())
    }

    fn div(&mut self, a: &Ball<A::Mid>, b: &Ball<A::Mid>) -> Result<Ball<A::Mid>, BallError> {
        let (am, bm) = (a.approx, b.approx);
        let b_low = magnitude_down(bm) - b.rad * UP;
        if b_low <= 0.0 {
            return Err(BallError::Undecided);
        }
        let rad =
            (magnitude_up(am) * b.rad + magnitude_up(bm) * a.rad) / (magnitude_down(bm) * b_low);
        let mid = self.arith.div(&a.mid, &b.mid);
        if rad == 0.0 && self.arith.is_exact_quotient(&mid, &a.mid, &b.mid) {
            return Ok(self.held_exactly(mid));
        }
        self.rounded(mid, rad, self.arith.eps())
    }

    /// A result shown exact (`1/2`, `x/4` or `x·y` at exact samples) as a ball without a
    /// radius: a radius there gave each exact argument of an elliptic integral two ends to
    /// evaluate at, eight corners for `EllipticPi(-1/2, x/2 + pi, 1/2)` where φ alone needs
    /// two. (Sums are not looked at: `1/2 + 1/2` keeps its radius.)
    fn held_exactly(&self, mid: A::Mid) -> Ball<A::Mid> {
        let approx = A::approx(&mid);
        Ball {
            mid,
            approx,
            rad: 0.0,
        }
    }

    fn powi(&mut self, base: Ball<A::Mid>, n: i64) -> Result<Ball<A::Mid>, BallError> {
        // (1 held exactly, so that the reciprocal of an exact power of two, `1/2` as the
        // parser writes it, stays exact: see `held_exactly`)
        if n == 0 {
            return Ok(self.exactly(1.0));
        }
        let mut result: Option<Ball<A::Mid>> = None;
        let mut square = base;
        let mut k = n.unsigned_abs();
        while k > 0 {
            if k & 1 == 1 {
                result = Some(match result {
                    None => square.clone(),
                    Some(r) => self.mul(&r, &square)?,
                });
            }
            k >>= 1;
            if k > 0 {
                square = self.mul(&square, &square)?;
            }
        }
        let result = result.expect("n != 0");
        if n < 0 {
            let one = self.exactly(1.0);
            self.div(&one, &result)
        } else {
            Ok(result)
        }
    }

    /// `f(mid)` in the arithmetic, remembered; what computing it costs is owed to the budget
    /// (settled by [`Evaluator::ball`] when the node is done).
    fn call(&mut self, f: Func, mid: &A::Mid) -> A::Mid {
        if let Some((_, _, value)) = self.calls.iter().find(|(g, m, _)| *g == f && m == mid) {
            return value.clone();
        }
        self.owed += elementary_steps(f) * self.arith.elementary_scale();
        let value = self.arith.call(f, mid);
        if self.calls.len() == REMEMBERED_CALLS {
            self.calls.remove(0);
        }
        self.calls.push((f, mid.clone(), value.clone()));
        value
    }

    /// A one-argument function: its value at the midpoint, plus the argument's radius times a
    /// bound on |f'| over the ball.
    fn unary(&mut self, f: Func, x: &Ball<A::Mid>) -> Result<Ball<A::Mid>, BallError> {
        if let Some(end) = self.at_domain_end(f, x)? {
            return Ok(end);
        }
        let m = x.approx;
        // The radius, widened by the error of `m` as an f64, so that every domain test below
        // holds for the whole ball.
        let r = x.rad * UP + m.abs() * 1e-15;
        let (lo, hi) = (m - r, m + r);
        let outside = |ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(BallError::Undecided)
            }
        };
        // The least |x| on the ball, a little less, and capped where the squares below would
        // overflow (a smaller |x| only makes each bound larger: still an upper one).
        let nearest = (m.abs() - r).max(0.0) * (1.0 - 1e-12);
        let slope = match f {
            // |sin'| = |cos| and |cos'| = |sin|, each within r of its value at m (both are
            // 1-Lipschitz): `1 − cos x` over [h, 2h] keeps its sign, where a slope of 1 made it
            // a ball about 0 (its width h against a value of h²)
            Func::Sin => ((m.cos().abs() + r) * UP + 1e-12).min(1.0),
            Func::Cos => ((m.sin().abs() + r) * UP + 1e-12).min(1.0),
            Func::Abs => 1.0,
            // 1/(1 + x²), 1/cosh²(x), 1/√(1 + x²): largest where |x| is least (`atan` of
            // 10^300 has a slope of 10^-600, not 1)
            Func::Atan => UP / (1.0 + nearest.min(1e150).powi(2)),
            Func::Tanh => (UP / nearest.min(300.0).cosh().powi(2)).min(1.0),
            Func::Asinh => UP / (1.0 + nearest.min(1e150).powi(2)).sqrt(),
            Func::Exp => hi.exp() * UP,
            Func::Sinh | Func::Cosh => (m.abs() + r).cosh() * UP,
            Func::Log => {
                outside(lo > 0.0)?;
                UP / lo
            }
            Func::Sqrt => {
                outside(lo > 0.0)?;
                UP * 0.5 / lo.sqrt()
            }
            Func::Tan => {
                let c = m.cos().abs() - r - 1e-12;
                outside(c > 0.0)?;
                UP / (c * c)
            }
            Func::Asin | Func::Acos => {
                let h = m.abs() + r;
                outside(h < 1.0)?;
                UP / (1.0 - h * h).sqrt()
            }
            Func::Acosh => {
                outside(lo > 1.0)?;
                UP / (lo * lo - 1.0).sqrt()
            }
            Func::Atanh => {
                let h = m.abs() + r;
                outside(h < 1.0)?;
                UP / (1.0 - h * h)
            }
            // Every other one-argument function is a special one (the steps are handled
            // before): a validated value, or none.
            other => return self.special(other, x),
        };
        if !slope.is_finite() {
            return Err(BallError::Undecided);
        }
        let value = self.call(f, &x.mid);
        let v = A::approx(&value);
        // The function's own error, then the final rounding like any operation.
        let rad = slope * x.rad + magnitude_up(v) * self.arith.function_eps();
        self.rounded(value, rad, self.arith.eps())
    }
}

impl<A: Arith> Evaluator<'_, A> {
    /// A special function ([`super::validated`]) over the ball `x`: its value at the midpoint
    /// plus a slope bound times the radius, or the hull of its values at the ball's two ends
    /// where it is monotone there. Γ, ψ and ψ₁ at negative arguments go through their
    /// reflection formulas (a ball holding a pole fails at the division).
    fn special(&mut self, f: Func, x: &Ball<A::Mid>) -> Result<Ball<A::Mid>, BallError> {
        let m = x.approx;
        let r = x.rad * UP + m.abs() * 1e-15;
        let (lo, hi) = (m - r, m + r);
        if matches!(f, Func::Gamma | Func::Digamma | Func::Trigamma) && lo <= 0.0 {
            if hi >= 0.0 {
                return Err(BallError::Undecided);
            }
            return self.reflected(f, x);
        }
        let eps = self.arith.eps();
        let shape = super::validated::shape(f, lo, hi).ok_or(BallError::Undecided)?;
        if let super::validated::Shape::Slope(slope) = shape {
            let (v, e) = self.arith.special(f, &x.mid)?;
            return self.rounded(v, slope * x.rad + e, eps);
        }
        if x.rad == 0.0 {
            let (v, e) = self.arith.special(f, &x.mid)?;
            return self.rounded(v, e, eps);
        }
        let [a, b] = self.ends(x);
        let (va, ea) = self.arith.special(f, &a)?;
        let (vb, eb) = self.arith.special(f, &b)?;
        self.hull(&va, &vb, ea.max(eb))
    }

    /// Two exact points a little outside the ball `x`, so that their own rounding cannot pull
    /// them in.
    fn ends(&mut self, x: &Ball<A::Mid>) -> [A::Mid; 2] {
        let eps = self.arith.eps();
        let d = x.rad * UP * (1.0 + 4.0 * eps) + 4.0 * x.approx.abs() * eps + TINY;
        let (below, above) = (self.arith.exactly(-d), self.arith.exactly(d));
        [
            self.arith.add(&x.mid, &below),
            self.arith.add(&x.mid, &above),
        ]
    }

    /// The ball from `a` to `b` (in either order), values known within `error`.
    fn hull(&mut self, a: &A::Mid, b: &A::Mid, error: f64) -> Result<Ball<A::Mid>, BallError> {
        let eps = self.arith.eps();
        let (half, minus) = (self.arith.exactly(0.5), self.arith.exactly(-1.0));
        let sum = self.arith.add(a, b);
        let mid = self.arith.mul(&sum, &half);
        let negated = self.arith.mul(a, &minus);
        let difference = self.arith.add(b, &negated);
        let (fa, fb) = (A::approx(a), A::approx(b));
        let width = magnitude_up(A::approx(&difference)) * 0.5 + (fa.abs() + fb.abs()) * eps;
        self.rounded(mid, width + error, eps)
    }

    /// `F(φ, m)`, `E(φ, m)` or `Π(n, φ, m)` over the box of its argument balls: the hull of its
    /// validated values at the box's corners. Each is monotone in each argument where it has a
    /// real value (the integrand is positive, and the partial derivatives in `m` and `n` keep
    /// the sign of `φ`), so its least and greatest values lie at corners; and the domain holds
    /// on the whole box once it holds at the corners (`sin²φ` peaks at a quarter period, where
    /// a corner on each side needs `m < 1` and `n < 1`). Where a bound on `|∂/∂φ|` holds for
    /// every `φ` ([`phi_slope`]), `φ` is taken at its midpoint alone and that bound times its
    /// radius widens the hull: one value where its two ends took two (`φ` is a ball whenever
    /// it holds `pi`, as in `EllipticPi(n, x + pi, m)`).
    fn incomplete_elliptic(
        &mut self,
        f: Func,
        args: &[Ball<A::Mid>],
    ) -> Result<Ball<A::Mid>, BallError> {
        let phi = usize::from(f == Func::EllipticPi);
        let slope = phi_slope(f, args, phi);
        let mut ends: Vec<Vec<A::Mid>> = Vec::with_capacity(args.len());
        for (i, x) in args.iter().enumerate() {
            ends.push(if x.rad == 0.0 || (i == phi && slope.is_some()) {
                vec![x.mid.clone()]
            } else {
                self.ends(x).to_vec()
            });
        }
        let corners = ends.iter().map(Vec::len).product::<usize>();
        let minus = self.arith.exactly(-1.0);
        let mut hull: Option<(A::Mid, A::Mid, f64)> = None;
        for index in 0..corners {
            let mut rest = index;
            let corner: Vec<A::Mid> = ends
                .iter()
                .map(|e| {
                    let v = e[rest % e.len()].clone();
                    rest /= e.len();
                    v
                })
                .collect();
            let (v, e) = self.arith.special_n(f, &corner)?;
            hull = Some(match hull {
                None => (v.clone(), v, e),
                Some((low, high, error)) => {
                    // Compared by the sign of a rounded difference, which is exact.
                    let mut below_low = self.arith.mul(&low, &minus);
                    below_low = self.arith.add(&v, &below_low);
                    let mut above_high = self.arith.mul(&high, &minus);
                    above_high = self.arith.add(&v, &above_high);
                    let low = if A::approx(&below_low) < 0.0 {
                        v.clone()
                    } else {
                        low
                    };
                    let high = if A::approx(&above_high) > 0.0 {
                        v
                    } else {
                        high
                    };
                    (low, high, error.max(e))
                }
            });
        }
        let (low, high, error) = hull.ok_or(BallError::Undecided)?;
        let along_phi = slope.map_or(0.0, |s| s * args[phi].rad * UP);
        self.hull(&low, &high, error + along_phi)
    }

    /// Γ(x) = π / (sin(πx) Γ(1 − x)), ψ(x) = ψ(1 − x) − π cos(πx) / sin(πx),
    /// ψ₁(x) = π² / sin²(πx) − ψ₁(1 − x), for a ball of negative numbers.
    fn reflected(&mut self, f: Func, x: &Ball<A::Mid>) -> Result<Ball<A::Mid>, BallError> {
        let pi = self.arith.pi();
        let pi = self.exact(pi)?;
        let pi_x = self.mul(&pi, x)?;
        let sine = self.unary(Func::Sin, &pi_x)?;
        let minus = self.exactly(-1.0);
        let one = self.exactly(1.0);
        let negated = self.mul(x, &minus)?;
        let mid = self.arith.add(&one.mid, &negated.mid);
        let y = self.rounded(mid, negated.rad, self.arith.eps())?;
        let at_y = self.special(f, &y)?;
        match f {
            Func::Gamma => {
                let denominator = self.mul(&sine, &at_y)?;
                self.div(&pi, &denominator)
            }
            Func::Digamma => {
                let cosine = self.unary(Func::Cos, &pi_x)?;
                let cot = self.div(&cosine, &sine)?;
                let term = self.mul(&pi, &cot)?;
                let term = self.mul(&term, &minus)?;
                let mid = self.arith.add(&at_y.mid, &term.mid);
                self.rounded(mid, at_y.rad + term.rad, self.arith.eps())
            }
            _ => {
                let ratio = self.div(&pi, &sine)?;
                let square = self.mul(&ratio, &ratio)?;
                let term = self.mul(&at_y, &minus)?;
                let mid = self.arith.add(&square.mid, &term.mid);
                self.rounded(mid, square.rad + term.rad, self.arith.eps())
            }
        }
    }
}

/// The exponent as a small integer, when it is one exactly (`2`, `2 + -1`).
fn integer_exponent(e: &Expr) -> Option<i64> {
    use num_traits::ToPrimitive;
    super::expr::exact_value(e)
        .filter(num_rational::BigRational::is_integer)
        .and_then(|n| n.to_integer().to_i64())
        .filter(|n| n.unsigned_abs() <= 1 << 16)
}

/// A 128-bit ball of `e` with `var` standing for every point between the exact numbers `a`
/// and `b` ([`Evaluator::over_exactly`]), no other symbol bound but `pi` and `e`; `None` when
/// there is none (a pole, a domain boundary or another symbol on the way).
pub fn over_interval(
    var: &str,
    a: &num_rational::BigRational,
    b: &num_rational::BigRational,
    e: &Expr,
    budget: &mut Budget,
) -> Option<Ball<astro_float_num::BigFloat>> {
    let none = Bindings::new();
    let mut evaluator = Evaluator::new(128, &none);
    evaluator.over_exactly(var, a, b, budget).ok()?;
    evaluator.ball(e, budget).ok()
}

/// `u` when `e` is `√u` or `u^r` for an exact `r > 0` that is not an integer.
fn root_base(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Call(Func::Sqrt, xs) => Some(&xs[0]),
        Expr::Pow(p)
            if integer_exponent(&p.1).is_none()
                && super::expr::exact_value(&p.1)
                    .is_some_and(|r| num_traits::Signed::is_positive(&r)) =>
        {
            Some(&p.0)
        }
        _ => None,
    }
}

/// The exact value of a numeric `e` ([`super::expr::exact_value`]), with the square roots of
/// squares of rationals taken (`sqrt(1)`, `sqrt(1/4)`), as the limit of an antiderivative at an
/// end writes them (`asin(sqrt(1))`). `None` for anything else.
fn exact_with_square_roots(e: &Expr) -> Option<num_rational::BigRational> {
    use num_rational::BigRational;
    let root = |n: &num_bigint::BigInt| {
        let r = n.sqrt();
        (&r * &r == *n).then_some(r)
    };
    match e {
        Expr::Call(Func::Sqrt, xs) => {
            let v = exact_with_square_roots(&xs[0])?;
            if num_traits::Signed::is_negative(&v) {
                return None;
            }
            Some(BigRational::new(root(v.numer())?, root(v.denom())?))
        }
        Expr::Add(xs) => xs.iter().map(exact_with_square_roots).sum(),
        Expr::Mul(xs) => xs.iter().map(exact_with_square_roots).product(),
        Expr::Pow(p) if integer_exponent(&p.1).is_some_and(|n| (0..=4).contains(&n)) => {
            let n = integer_exponent(&p.1)? as i32;
            Some(num_traits::Pow::pow(&exact_with_square_roots(&p.0)?, n))
        }
        _ => super::expr::exact_value(e),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    /// The ball of `s` at `x` in `arith`, and the arithmetic afterwards.
    fn at_in<A: Arith>(arith: A, s: &str, x: f64) -> (Result<Ball<A::Mid>, BallError>, A) {
        let e = parse(s, &mut Default::default()).unwrap();
        let b: Bindings = [("x".to_string(), x)].into_iter().collect();
        let mut evaluator = Evaluator::with(arith, &b);
        let ball = evaluator.ball(&e, &mut Budget::standard());
        (ball, evaluator.arith)
    }

    fn at(s: &str, x: f64, bits: usize) -> Result<Ball, BallError> {
        at_in(High::new(bits), s, x).0
    }

    #[test]
    fn exact_products_and_quotients_have_no_radius() {
        // (x = 0.37 as an f64: its square needs 106 bits, which 128 hold)
        for s in [
            "1/2", "-1/2", "x/4", "3/8", "x*x", "x*2", "1/x^0", "(1/2)^3",
        ] {
            let b = at(s, 0.37, 128).unwrap();
            assert_eq!(b.radius(), 0.0, "{s}: {b:?}");
        }
        for s in ["1/3", "x/3", "pi/2", "1/x", "x*x*x*x*x*x*x*x"] {
            let b = at(s, 0.37, 128).unwrap();
            assert!(b.radius() > 0.0, "{s}: {b:?}");
        }
        // and an elliptic integral at exact n and m has one corner, not eight
        let corners = |s: &str| {
            let e = parse(s, &mut Default::default()).unwrap();
            let point: Bindings = [("x".to_string(), 0.37)].into_iter().collect();
            let mut budget = Budget::standard();
            let before = budget.left();
            Evaluator::new(128, &point).ball(&e, &mut budget).unwrap();
            (before - budget.left()) / 9000
        };
        assert_eq!(corners("EllipticPi(-1/2, x/2, 1/2)"), 1);
        assert_eq!(corners("EllipticPi(-1/2, x/2 + pi, 1/2)"), 2);
    }

    #[test]
    fn function_values_take_from_the_budget_what_they_cost() {
        let point: Bindings = [("x".to_string(), 0.37)].into_iter().collect();
        let used = |text: &str, bits: usize| {
            let e = parse(text, &mut Default::default()).unwrap();
            let mut budget = Budget::standard();
            let before = budget.left();
            Evaluator::new(bits, &point).ball(&e, &mut budget).unwrap();
            before - budget.left()
        };
        // (the nodes' own steps besides; 1/2 is exact, a point, π/4 a ball: two corners)
        for (text, charged) in [
            ("x + 1", 0),
            ("exp(x)", 10),
            ("sin(x)", 45),
            // (a value computed once is remembered)
            ("sin(x) + sin(x)", 45),
            ("asinh(x)", 108),
            ("x^(1/3)", 20),
            ("erf(x)", 90),
            ("gamma(x)", 300),
            ("EllipticK(x)", 200),
            ("EllipticPi(0, 1/2, x)", 9000),
            ("EllipticPi(0, pi/4, x)", 18000),
        ] {
            let steps = used(text, 128);
            assert!((charged..charged + 10).contains(&steps), "{text}: {steps}");
        }
        assert!(used("sin(x)", 512) >= 3 * 45, "dearer at 512 bits");
        assert!(
            used("EllipticF(x, 1/2)", 512) >= 16 * 4000,
            "dearer at 512 bits"
        );
        // In f64 balls, a node is a sixteenth of a step (three nodes each time).
        let e = parse("x + 1", &mut Default::default()).unwrap();
        let mut budget = Budget::of_steps(1);
        for _ in 0..5 {
            Evaluator::with(Double, &point)
                .ball(&e, &mut budget)
                .unwrap();
        }
        assert!(
            Evaluator::with(Double, &point)
                .ball(&e, &mut budget)
                .is_err()
        );
        // A ball that is not a point: both ends of each argument.
        let e = parse("EllipticF(x, 1/2)", &mut Default::default()).unwrap();
        let mut evaluator = Evaluator::new(128, &point);
        let (a, b) = (evaluator.exactly(0.3), evaluator.exactly(0.4));
        evaluator.over("x", &a, &b);
        let mut budget = Budget::standard();
        let before = budget.left();
        evaluator.ball(&e, &mut budget).unwrap();
        assert!(before - budget.left() >= 2 * 4000);
    }

    /// A ball of `text` over `[m − r, m + r]` holds the 128-bit ball at each of nine points of
    /// it (no ball at all is never a wrong one).
    fn holds_every_point(
        text: &str,
        m: f64,
        r: f64,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let e = parse(text, &mut Default::default()).unwrap();
        let none = Bindings::new();
        let mut evaluator = Evaluator::new(128, &none);
        let (lo, hi) = (evaluator.exactly(m - r), evaluator.exactly(m + r));
        evaluator.over("x", &lo, &hi);
        let Ok(whole) = evaluator.ball(&e, &mut Budget::standard()) else {
            return Ok(());
        };
        for k in 0..=8 {
            let x = m - r + 2.0 * r * f64::from(k) / 8.0;
            let Ok(point) = at(text, x, 128) else {
                continue;
            };
            proptest::prop_assert!(
                (point.approx() - whole.approx()).abs()
                    <= whole.radius()
                        + point.radius()
                        + 2e-15 * (point.approx().abs() + whole.approx().abs()),
                "{text} at {x}: {point:?} outside {whole:?} over [{}, {}]",
                m - r,
                m + r
            );
        }
        Ok(())
    }

    proptest::proptest! {
        /// The comparison on the midpoint agrees with exact rational arithmetic, down to
        /// tolerances a few units of the last place from the midpoint.
        #[test]
        fn the_comparison_with_a_tolerance_is_exact(
            m in -1e3f64..1e3,
            rad_exponent in -140i32..-20,
            shift in -8i64..8,
            precision in proptest::sample::select(vec![128usize, 256]),
        ) {
            use num_rational::BigRational;
            use num_traits::Signed;
            let rad = 2f64.powi(rad_exponent) * m.abs();
            // the tolerance near |m|: a few ulps either side
            let t = f64::from_bits((m.abs().to_bits() as i64 + shift) as u64);
            let ball = Ball { mid: BigFloat::from_f64(m, precision), approx: m, rad };
            let (m_q, r_q, t_q) = (
                BigRational::from_float(m).unwrap().abs(),
                BigRational::from_float(rad).unwrap(),
                BigRational::from_float(t).unwrap(),
            );
            match ball.compared_with(t) {
                Some(true) => proptest::prop_assert!(&m_q - &r_q > t_q),
                Some(false) => proptest::prop_assert!(&m_q + &r_q <= t_q),
                // undecided only when the ball holds t, or within twice its radius of it
                None => proptest::prop_assert!(
                    (&m_q - &t_q).abs() < BigRational::from_integer(2.into()) * &r_q
                        + BigRational::from_float(1e-300).unwrap()
                ),
            }
        }
    }

    proptest::proptest! {
        /// A ball over an interval holds the function at every point of it, for the functions
        /// whose slope bound depends on where the ball lies, out to arguments of 10^300.
        #[test]
        fn a_ball_over_an_interval_holds_every_point_of_it(
            f in proptest::sample::select(vec!["atan", "tanh", "asinh", "sin", "cos", "exp"]),
            exponent in -3i32..300,
            mantissa in -9.0f64..9.0,
            width in 0.0f64..1.0,
        ) {
            let m = mantissa * 10f64.powi(exponent);
            let r = (m.abs() * width).max(1e-3);
            holds_every_point(&format!("{f}(x)"), m, r)?;
        }
    }

    proptest::proptest! {
        /// So for `sin` and `cos` near their extrema and zeros, where their slope bound is the
        /// other one's value plus the radius: narrow balls about `kπ/2`.
        #[test]
        fn balls_of_sin_and_cos_near_extrema_hold_every_point(
            cosine in proptest::bool::ANY,
            k in -40i32..40,
            offset in -1e-3f64..1e-3,
            width in -12.0f64..-2.0,
        ) {
            let m = f64::from(k) * std::f64::consts::FRAC_PI_2 + offset;
            let r = 10f64.powf(width);
            holds_every_point(if cosine { "cos(x)" } else { "sin(x)" }, m, r)?;
        }
    }

    #[test]
    fn one_minus_cos_keeps_its_sign_beside_zero() {
        // (with a slope of 1, cos over [h, 2h] had a radius of h/2 against 1 − cos x ≈ h²)
        let e = parse("1 - cos(x)", &mut Default::default()).unwrap();
        let none = Bindings::new();
        for h in [1e-1, 1e-3, 1e-6] {
            let mut evaluator = Evaluator::new(128, &none);
            let (lo, hi) = (evaluator.exactly(h), evaluator.exactly(2.0 * h));
            evaluator.over("x", &lo, &hi);
            let ball = evaluator.ball(&e, &mut Budget::standard()).unwrap();
            assert_eq!(ball.sign(), 1, "1 - cos over [{h}, {}]: {ball:?}", 2.0 * h);
        }
    }

    proptest::proptest! {
        /// The same for the special functions (a slope bound, the hull of the two ends where
        /// the function is monotone, the reflection of Γ, ψ, ψ₁) and the step functions; the
        /// points are 128-bit balls at exact points, which take the validated value directly.
        #[test]
        fn special_functions_over_an_interval_hold_every_point(
            which in 0usize..17,
            t in 0.0f64..1.0,
            width in -12.0f64..-1.0,
        ) {
            let (text, lo, hi) = [
                ("erf(x)", -6.0, 6.0), ("gamma(x)", 0.05, 60.0), ("gamma(x)", -6.9, -0.1),
                ("digamma(x)", -6.9, 40.0), ("trigamma(x)", 0.01, 40.0), ("trigamma(x)", -5.9, -0.1),
                ("lambert_w(x)", -0.3, 1e6), ("Ei(x)", -50.0, 50.0), ("li(x)", 0.01, 1e4),
                ("Ci(x)", 0.01, 50.0), ("dilog(x)", -1e3, 1.0), ("EllipticK(x)", -1e3, 0.99),
                ("EllipticE(x)", -1e3, 1.0), ("Si(x)", -40.0, 40.0), ("bessel_j0(x)", -40.0, 40.0),
                ("round(x)", -9.0, 9.0), ("atan2(x, 1 - x)", -5.0, 5.0),
            ][which];
            let m = lo + t * (hi - lo);
            let r = m.abs().max(1.0) * 10f64.powf(width);
            holds_every_point(text, m, r)?;
        }
    }

    #[test]
    fn steps_are_exact_at_exact_arguments_and_undecided_at_a_jump() {
        // round(5/2) is 3 (half away from zero), whatever the ball of 5/2 would straddle.
        let b = at("round(5/2)", 0.0, 128).unwrap();
        assert_eq!(b.approx(), 3.0, "{b:?}");
        assert!(b.radius() < 1e-30, "{b:?}");
        assert_eq!(at("round(-5/2)", 0.0, 128).unwrap().approx(), -3.0);
        assert_eq!(at("floor(-7/2)", 0.0, 128).unwrap().approx(), -4.0);
        assert_eq!(at("ceil(x)", 0.37, 128).unwrap().approx(), 1.0);
        assert_eq!(at("sign(x - 1)", 0.37, 128).unwrap().approx(), -1.0);
        // x + 1e-40 - x is within 1e-40 of 0 but not exactly: its sign is not decided.
        assert_eq!(
            at("sign(x + 1e-40 - x)", 0.37, 128).unwrap_err(),
            BallError::Undecided
        );
        // 3 × (the f64 next below 1/3) is 1 − 5.6e-17: closer to the jump than the margin the
        // f64 view of a ball keeps (1e-15, relative), so no answer rather than a guess.
        assert_eq!(
            at("floor(x*3)", 1.0 / 3.0, 128).unwrap_err(),
            BallError::Undecided
        );
        assert_eq!(at("floor(x*3)", 0.3, 128).map(|b| b.approx()), Ok(0.0));
    }

    #[test]
    fn atan2_by_quadrant() {
        for (y, x) in [
            (1.0, 2.0),
            (1.0, -2.0),
            (-1.0, -2.0),
            (-1.0, 0.0),
            (2.0, 1e-300),
        ] {
            let text = format!("atan2({y}, {x})");
            let b = at(&text, 0.0, 128).unwrap();
            let truth = f64::atan2(y, x);
            assert!(
                (b.approx() - truth).abs() <= b.radius() + 4e-16 * truth.abs(),
                "{text}: {b:?}"
            );
            assert!(b.radius() < 1e-30, "{text}: {b:?}");
        }
        // On the branch cut or at the origin: no value.
        assert_eq!(
            at("atan2(x - x, -1)", 0.5, 128).unwrap_err(),
            BallError::Undecided
        );
        assert_eq!(
            at("atan2(0, x - x)", 0.5, 128).unwrap_err(),
            BallError::Undecided
        );
    }

    #[test]
    fn special_functions_reflect_and_stop_at_poles() {
        let b = at("gamma(-1/2) + 2*sqrt(x)", std::f64::consts::PI, 256).unwrap();
        assert!(b.upper() < 1e-15, "{b:?}"); // x is π as an f64
        let b = at("gamma(x) - 24", 5.0, 256).unwrap();
        assert!(b.upper() < 1e-60, "{b:?}");
        let b = at("digamma(1 - x) - digamma(x) - 3.14159265358979323846*cos(3.14159265358979323846*x)/sin(3.14159265358979323846*x)", -0.3, 128).unwrap();
        assert!(b.upper() < 1e-15, "{b:?}");
        for pole in [
            "gamma(x - 2)",
            "digamma(x - 3)",
            "trigamma(x - 1)",
            "Ci(x - 1)",
            "Ei(x - 1)",
            "li(x)",
        ] {
            assert!(at(pole, 1.0, 128).is_err(), "{pole}");
        }
        // Without validated methods (f64), no special function has a ball but the elliptic
        // integrals (Carlson's brackets in f64).
        assert_eq!(
            at_in(Double, "erf(x)", 0.5).0.unwrap_err(),
            BallError::Unsupported("erf")
        );
    }

    /// The elliptic integrals have f64 balls, so a true identity among them clears at a point
    /// that passed in f64 without the 128-bit brackets (500 times dearer); one that is off by
    /// 10^-6 does not, and neither does a point outside the domain.
    #[test]
    fn elliptic_integrals_have_f64_balls() {
        for (text, at_x) in [
            (
                "EllipticPi(-1/2, x + pi, 1/2) - EllipticPi(-1/2, x, 1/2) - 2*EllipticPi(-1/2, pi/2, 1/2)",
                0.37,
            ),
            (
                "EllipticF(x + pi, 1/3) - EllipticF(x, 1/3) - 2*EllipticK(1/3)",
                1.23,
            ),
            (
                "EllipticE(x + pi, -2) - EllipticE(x, -2) - 2*EllipticE(-2)",
                2.71,
            ),
            (
                "EllipticE(x/2 + pi, x/4) - EllipticE(x/2, x/4) - 2*EllipticE(x/4)",
                0.37,
            ),
        ] {
            let ball = at_in(Double, text, at_x)
                .0
                .unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert!(ball.upper() < 1e-11, "{text}: {ball:?}");
            let off = format!("{text} + 1e-6");
            let ball = at_in(Double, &off, at_x).0.unwrap();
            assert!(
                ball.lower() > 0.99e-6 && ball.upper() < 1.01e-6,
                "{off}: {ball:?}"
            );
        }
        for outside in [
            "EllipticF(x, 3)",
            "EllipticK(x + 1)",
            "EllipticPi(2, x + pi, 1/2)",
        ] {
            assert_eq!(
                at_in(Double, outside, 1.23).0.unwrap_err(),
                BallError::Undecided,
                "{outside}"
            );
        }
    }

    #[test]
    fn cancellation_shrinks_with_precision() {
        // f64 gives about 1e-4 here; the truth is 0.
        let b = at("sin(x)^2*10^12 - (1 - cos(x)^2)*10^12", 0.37, 128).unwrap();
        assert!(b.upper() < 1e-20, "{b:?}");
        let b = at("exp(30)*(x+1) - exp(30)*x - exp(30)", 0.37, 256).unwrap();
        assert!(b.upper() < 1e-50, "{b:?}");
    }

    #[test]
    fn a_real_difference_is_proved() {
        let b = at("x + 1e-6 - x", 1.23, 128).unwrap();
        assert!(b.lower() > 0.99e-6 && b.upper() < 1.01e-6, "{b:?}");
    }

    #[test]
    fn the_double_ball_bounds_what_f64_computes() {
        let ball = at_in(Double, "sin(x)^2*10^12 - (1 - cos(x)^2)*10^12", 0.37)
            .0
            .unwrap();
        // f64 cannot resolve this cancellation, and its ball says so: it contains 0 and the
        // f64 error of about 1e-4.
        assert_eq!(ball.lower(), 0.0);
        assert!(ball.upper() > 1e-5 && ball.upper() < 1e-1, "{ball:?}");
        let ball = at_in(Double, "x + 1e-6 - x", 0.37).0.unwrap();
        assert!(ball.lower() > 0.99e-6 && ball.upper() < 1.01e-6, "{ball:?}");
    }

    /// [`Double`], counting the functions it computes.
    struct Counting(usize);

    impl Arith for Counting {
        type Mid = f64;
        fn node_ticks(&self) -> u64 {
            Double.node_ticks()
        }
        fn eps(&self) -> f64 {
            Double.eps()
        }
        fn function_eps(&self) -> f64 {
            Double.function_eps()
        }
        fn exactly(&mut self, v: f64) -> f64 {
            Double.exactly(v)
        }
        fn parse(&mut self, text: &str) -> f64 {
            Double.parse(text)
        }
        fn add(&mut self, a: &f64, b: &f64) -> f64 {
            Double.add(a, b)
        }
        fn mul(&mut self, a: &f64, b: &f64) -> f64 {
            Double.mul(a, b)
        }
        fn div(&mut self, a: &f64, b: &f64) -> f64 {
            Double.div(a, b)
        }
        fn call(&mut self, f: Func, x: &f64) -> f64 {
            self.0 += 1;
            Double.call(f, x)
        }
        fn approx(x: &f64) -> f64 {
            Double::approx(x)
        }
        fn pi(&mut self) -> f64 {
            Double.pi()
        }
    }

    #[test]
    fn a_function_of_one_argument_is_computed_once() {
        let (ball, counted) = at_in(
            Counting(0),
            "exp(2*x)*(x+1) - exp(2*x) + exp(x*2)/exp(2*x) + exp(x)",
            0.37,
        );
        let ball = ball.unwrap();
        // exp at 0.74 (four times, two spellings of the argument) and at 0.37.
        assert_eq!(counted.0, 2);
        let truth = (0.74f64).exp() * 0.37 + 1.0 + 0.37f64.exp();
        assert!((ball.approx - truth).abs() <= ball.rad, "{ball:?}");
        assert!(ball.rad < 1e-12, "{ball:?}");
    }

    #[test]
    fn poles_and_unknown_functions_decide_nothing() {
        assert_eq!(at("log(x)", 0.0, 128).unwrap_err(), BallError::Undecided);
        assert_eq!(at("1/(x - x)", 1.0, 128).unwrap_err(), BallError::Undecided);
        // Π diverges where n sin²φ reaches 1, F where m sin²φ passes 1.
        assert_eq!(
            at("EllipticPi(2, x, 1/2)", 1.0, 128).unwrap_err(),
            BallError::Undecided
        );
        assert_eq!(
            at("EllipticF(x, 3/2)", 1.23, 128).unwrap_err(),
            BallError::Undecided
        );
    }

    #[test]
    fn incomplete_elliptic_integrals_at_a_point() {
        let b = at(
            "EllipticF(x, 1/2) - EllipticE(x, 1/2) + EllipticPi(1/3, x, 1/2)",
            1.5,
            256,
        )
        .unwrap();
        let want = super::super::special::elliptic_f(1.5, 0.5).unwrap()
            - super::super::special::elliptic_e_incomplete(1.5, 0.5).unwrap()
            + super::super::special::elliptic_pi(1.0 / 3.0, 1.5, 0.5).unwrap();
        assert!((b.approx() - want).abs() < 1e-14, "{b:?} vs {want}");
        assert!(b.radius() < 1e-70, "{b:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(40))]
        /// The incomplete elliptic integrals over an interval of each argument in turn (across
        /// quarter periods, up to the domain's edge in m and n): the corners' hull holds every
        /// point.
        #[test]
        fn incomplete_elliptic_integrals_over_an_interval_hold_every_point(
            which in 0usize..7,
            t in 0.0f64..1.0,
            width in -12.0f64..-1.0,
        ) {
            let (text, lo, hi) = [
                ("EllipticF(x, 1/2)", -8.0, 8.0), ("EllipticF(6/5, x)", -50.0, 1.14),
                ("EllipticE(x, -3)", -8.0, 8.0), ("EllipticE(9/10, x)", -50.0, 1.6),
                ("EllipticPi(x, 11/10, 2/5)", -20.0, 1.2), ("EllipticPi(1/2, x, 7/10)", -8.0, 8.0),
                ("EllipticPi(-2, 4/5, x)", -50.0, 1.9),
            ][which];
            let m = lo + t * (hi - lo);
            let r = m.abs().max(1.0) * 10f64.powf(width);
            holds_every_point(text, m, r)?;
        }
    }

    #[test]
    fn roots_of_bases_monotone_by_form_are_bounded_at_exact_ends() {
        let r = |n: i64, d: i64| num_rational::BigRational::new(n.into(), d.into());
        let over = |text: &str, a, b| {
            let e = parse(text, &mut Default::default()).unwrap();
            over_interval("x", &a, &b, &e, &mut Budget::standard())
        };
        for (text, a, b) in [
            ("sqrt(tan(x))", r(0, 1), r(1, 32)),
            ("sqrt(exp(x) - 1)", r(0, 1), r(1, 2)),
            ("sqrt(1 - x^3)", r(0, 1), r(1, 1)),
            ("(2*atan(x) + sinh(x))^(3/2)", r(0, 1), r(1, 4)),
            ("sqrt(log(x))", r(1, 1), r(2, 1)),
            ("sqrt(-3*(x - 1))", r(0, 1), r(1, 1)),
            // a ratio of first-degree polynomials is monotone between its poles
            ("sqrt((1 - x)/(1 + x))", r(1, 2), r(1, 1)),
            ("sqrt((x + 1)^-1 * (1 + (x * -1)))", r(0, 1), r(1, 1)),
            ("(x/(2*x + 1))^(1/3)", r(0, 1), r(3, 1)),
            // an even power of a base of one sign
            ("sqrt(1 - x^2)", r(1, 2), r(1, 1)),
            ("sqrt(x^4 - 1)", r(-2, 1), r(-1, 1)),
        ] {
            let ball = over(text, a.clone(), b.clone());
            assert!(ball.is_some(), "{text} over [{a}, {b}]");
        }
        // not monotone by form, a pole of tan between the ends, or past the domain
        for (text, a, b) in [
            ("sqrt(x^3 - x)", r(0, 1), r(1, 2)),
            ("sqrt(x - x^2)", r(0, 1), r(1, 1)),
            ("sqrt(tan(x))", r(0, 1), r(4, 1)),
            ("sqrt(exp(x) - 2)", r(0, 1), r(1, 1)),
            ("sqrt((1 - x)/(1 + x))", r(0, 1), r(2, 1)),
            ("sqrt((1 - x)/(1 + x)^2)", r(1, 2), r(1, 1)),
            ("sqrt((1 - x)/(x - 2))", r(0, 1), r(3, 1)),
            // x² is not monotone across 0
            ("sqrt(1 - x^2)", r(-1, 2), r(1, 1)),
        ] {
            assert!(
                over(text, a.clone(), b.clone()).is_none(),
                "{text} over [{a}, {b}]"
            );
        }
    }
}
