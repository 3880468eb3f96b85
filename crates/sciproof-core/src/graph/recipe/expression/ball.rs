//! High-precision evaluation with a guaranteed error bound (ball arithmetic), used before a
//! claim may be refuted: a sample point whose f64 residual exceeds the tolerance is evaluated
//! again as a ball `mid ± rad` at 128, 256 and then 512 bits, and only a ball that lies wholly
//! beyond the tolerance proves a failure.
//!
//! Midpoints are astro-float numbers (correctly rounded at the working precision); radii are
//! f64 upper bounds, each rounded up with a safety factor. Every operation adds its own
//! rounding error (taken as four units in the last place, twice what correct rounding needs),
//! and every function propagates its argument's radius through a bound on its derivative over
//! the whole ball. A ball that meets a pole or a domain boundary, or a function without such a
//! bound here (the special functions), gives no answer rather than a guess.

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

/// A value known to lie in `[mid − rad, mid + rad]`.
#[derive(Debug, Clone)]
pub struct Ball {
    mid: BigFloat,
    rad: f64,
}

impl Ball {
    /// Upper bound of |value|.
    pub fn upper(&self) -> f64 {
        magnitude_up(&self.mid) + self.rad
    }

    /// Lower bound of |value| (0 when the ball contains 0).
    pub fn lower(&self) -> f64 {
        (magnitude_down(&self.mid) - self.rad * UP).max(0.0)
    }

    /// The midpoint as an f64 (for details).
    pub fn approx(&self) -> f64 {
        approx(&self.mid)
    }
}

fn approx(x: &BigFloat) -> f64 {
    if x.is_zero() {
        return 0.0;
    }
    match x.as_raw_parts() {
        Some((words, _, sign, exponent, _)) => {
            let top = *words.last().expect("a word") as f64;
            let v = top * 2f64.powi(exponent - 64);
            if sign == Sign::Neg { -v } else { v }
        }
        None => f64::NAN,
    }
}

fn magnitude_up(x: &BigFloat) -> f64 {
    let a = approx(x).abs();
    if a.is_nan() {
        f64::INFINITY
    } else {
        a * (1.0 + 1e-9) + TINY
    }
}

fn magnitude_down(x: &BigFloat) -> f64 {
    let a = approx(x).abs();
    if a.is_nan() { 0.0 } else { a * (1.0 - 1e-9) }
}

/// An evaluator at one precision.
pub struct Evaluator<'a> {
    bits: usize,
    /// Relative rounding error of one operation.
    eps: f64,
    consts: Consts,
    bindings: &'a Bindings,
    /// A symbol standing for every point of an interval (see [`Evaluator::over`]).
    interval: Option<(String, Ball)>,
}

impl<'a> Evaluator<'a> {
    /// An evaluator at `bits` of precision for the point `bindings`.
    pub fn new(bits: usize, bindings: &'a Bindings) -> Evaluator<'a> {
        Evaluator {
            bits,
            eps: 2f64.powi(2 - bits as i32),
            consts: Consts::new().expect("astro-float constants"),
            bindings,
            interval: None,
        }
    }

    /// Lets `var` stand for every point between the balls `a` and `b` (in either order): a
    /// ball computed afterwards holds the value at each such point, and computing it at all
    /// shows that no operation meets a pole or a domain boundary anywhere on the interval.
    pub fn over(&mut self, var: &str, a: &Ball, b: &Ball) {
        let ends = [approx(&a.mid), approx(&b.mid)];
        let slack = |m: f64, r: f64| r * UP + m.abs() * 1e-15;
        let lo = (ends[0] - slack(ends[0], a.rad)).min(ends[1] - slack(ends[1], b.rad));
        let hi = (ends[0] + slack(ends[0], a.rad)).max(ends[1] + slack(ends[1], b.rad));
        let mid = 0.5 * (lo + hi);
        let rad = (0.5 * (hi - lo) + mid.abs() * 1e-15) * UP + TINY;
        self.interval = Some((
            var.to_string(),
            Ball {
                mid: BigFloat::from_f64(mid, self.bits),
                rad,
            },
        ));
    }

    fn rounded(&self, mid: BigFloat, rad: f64) -> Result<Ball, BallError> {
        if mid.is_nan() || mid.is_inf() || !rad.is_finite() {
            return Err(BallError::Undecided);
        }
        let rad = (rad * UP + magnitude_up(&mid) * self.eps + TINY) * UP;
        Ok(Ball { mid, rad })
    }

    fn exact(&self, mid: BigFloat) -> Result<Ball, BallError> {
        // A conversion that had to round counts its rounding like an operation.
        self.rounded(mid, 0.0)
    }

    /// The ball of `e`.
    pub fn ball(&mut self, e: &Expr, budget: &mut Budget) -> Result<Ball, BallError> {
        budget.step().map_err(|_| BallError::TooLarge)?;
        let p = self.bits;
        match e {
            Expr::Int(n) => {
                let text = n.to_string();
                let v = BigFloat::parse(&text, Radix::Dec, p, RM, &mut self.consts);
                self.exact(v)
            }
            Expr::Rat(r) => {
                let n =
                    BigFloat::parse(&r.numer().to_string(), Radix::Dec, p, RM, &mut self.consts);
                let d =
                    BigFloat::parse(&r.denom().to_string(), Radix::Dec, p, RM, &mut self.consts);
                let n = self.exact(n)?;
                let d = self.exact(d)?;
                self.div(&n, &d)
            }
            Expr::Float(l) => {
                let v = BigFloat::parse(&l.text, Radix::Dec, p, RM, &mut self.consts);
                self.exact(v)
            }
            Expr::Sym(s) => {
                if let Some((name, ball)) = &self.interval
                    && name == &**s
                {
                    return Ok(ball.clone());
                }
                if let Some(v) = self.bindings.get(&**s) {
                    // A sample value is an f64, taken exactly.
                    return Ok(Ball {
                        mid: BigFloat::from_f64(*v, p),
                        rad: 0.0,
                    });
                }
                // `pi` or `e` where no sample binds it: the true constant, within a radius
                // that covers its f64 rounding.
                let v = constant(s).ok_or(BallError::Undecided)?;
                Ok(Ball {
                    mid: BigFloat::from_f64(v, p),
                    rad: v * f64::EPSILON,
                })
            }
            Expr::Add(xs) => {
                let mut acc = self.ball(&xs[0], budget)?;
                for x in &xs[1..] {
                    let b = self.ball(x, budget)?;
                    acc = self.rounded(acc.mid.add(&b.mid, p, RM), acc.rad + b.rad)?;
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
                let exponent = self.ball(&pw.1, budget)?;
                // a^b = exp(b·log a) for a > 0 (a negative base has no real value here).
                let log = self.unary(Func::Log, &base)?;
                let product = self.mul(&exponent, &log)?;
                self.unary(Func::Exp, &product)
            }
            Expr::Call(f, xs) if xs.len() == 1 => {
                let x = self.ball(&xs[0], budget)?;
                self.unary(*f, &x)
            }
            Expr::Call(f, _) => Err(BallError::Unsupported(f.name())),
        }
    }

    fn mul(&self, a: &Ball, b: &Ball) -> Result<Ball, BallError> {
        let rad = magnitude_up(&a.mid) * b.rad + magnitude_up(&b.mid) * a.rad + a.rad * b.rad;
        self.rounded(a.mid.mul(&b.mid, self.bits, RM), rad)
    }

    fn div(&self, a: &Ball, b: &Ball) -> Result<Ball, BallError> {
        let b_low = magnitude_down(&b.mid) - b.rad * UP;
        if b_low <= 0.0 {
            return Err(BallError::Undecided);
        }
        let rad = (magnitude_up(&a.mid) * b.rad + magnitude_up(&b.mid) * a.rad)
            / (magnitude_down(&b.mid) * b_low);
        self.rounded(a.mid.div(&b.mid, self.bits, RM), rad)
    }

    fn powi(&self, base: Ball, n: i64) -> Result<Ball, BallError> {
        if n == 0 {
            return self.exact(BigFloat::from_f64(1.0, self.bits));
        }
        let mut result: Option<Ball> = None;
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
            let one = self.exact(BigFloat::from_f64(1.0, self.bits))?;
            self.div(&one, &result)
        } else {
            Ok(result)
        }
    }

    /// A one-argument function: its value at the midpoint, plus the argument's radius times a
    /// bound on |f'| over the ball.
    fn unary(&mut self, f: Func, x: &Ball) -> Result<Ball, BallError> {
        let (p, cc) = (self.bits, &mut self.consts);
        let m = approx(&x.mid);
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
        let (value, slope) = match f {
            Func::Sin => (x.mid.sin(p, RM, cc), 1.0),
            Func::Cos => (x.mid.cos(p, RM, cc), 1.0),
            Func::Atan => (x.mid.atan(p, RM, cc), 1.0),
            Func::Tanh => (x.mid.tanh(p, RM, cc), 1.0),
            Func::Asinh => (x.mid.asinh(p, RM, cc), 1.0),
            Func::Abs => (x.mid.abs(), 1.0),
            Func::Exp => (x.mid.exp(p, RM, cc), hi.exp() * UP),
            Func::Sinh | Func::Cosh => {
                let v = if f == Func::Sinh {
                    x.mid.sinh(p, RM, cc)
                } else {
                    x.mid.cosh(p, RM, cc)
                };
                (v, (m.abs() + r).cosh() * UP)
            }
            Func::Log => {
                outside(lo > 0.0)?;
                (x.mid.ln(p, RM, cc), UP / lo)
            }
            Func::Sqrt => {
                outside(lo > 0.0)?;
                (x.mid.sqrt(p, RM), UP * 0.5 / lo.sqrt())
            }
            Func::Tan => {
                let c = m.cos().abs() - r - 1e-12;
                outside(c > 0.0)?;
                (x.mid.tan(p, RM, cc), UP / (c * c))
            }
            Func::Asin | Func::Acos => {
                let h = m.abs() + r;
                outside(h < 1.0)?;
                let v = if f == Func::Asin {
                    x.mid.asin(p, RM, cc)
                } else {
                    x.mid.acos(p, RM, cc)
                };
                (v, UP / (1.0 - h * h).sqrt())
            }
            Func::Acosh => {
                outside(lo > 1.0)?;
                (x.mid.acosh(p, RM, cc), UP / (lo * lo - 1.0).sqrt())
            }
            Func::Atanh => {
                let h = m.abs() + r;
                outside(h < 1.0)?;
                (x.mid.atanh(p, RM, cc), UP / (1.0 - h * h))
            }
            other => return Err(BallError::Unsupported(other.name())),
        };
        if !slope.is_finite() {
            return Err(BallError::Undecided);
        }
        // A transcendental result counts twice the rounding error of an arithmetic one.
        let rad = slope * x.rad + magnitude_up(&value) * self.eps;
        self.rounded(value, rad)
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

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    fn at(s: &str, x: f64, bits: usize) -> Result<Ball, BallError> {
        let e = parse(s, &mut Default::default()).unwrap();
        let b: Bindings = [("x".to_string(), x)].into_iter().collect();
        Evaluator::new(bits, &b).ball(&e, &mut Budget::standard())
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
    fn poles_and_unknown_functions_decide_nothing() {
        assert_eq!(at("log(x)", 0.0, 128).unwrap_err(), BallError::Undecided);
        assert_eq!(at("1/(x - x)", 1.0, 128).unwrap_err(), BallError::Undecided);
        assert_eq!(
            at("gamma(x)", 1.5, 128).unwrap_err(),
            BallError::Unsupported("gamma")
        );
    }
}
