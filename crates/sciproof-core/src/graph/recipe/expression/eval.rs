//! Evaluation in f64 with alkahest's conventions: real values only; an operation outside its
//! domain (`log` of a non-positive number, `sqrt` or a fractional power of a negative one,
//! `acosh(0.5)`, a pole of `gamma`, ...) has no value; infinities may occur on the way (so
//! `atan(1/x)` at 0 is π/2) but the final value must be finite.

use super::domain::RealDomain;
use super::expr::{Budget, Expr, Func};
use super::special;
use std::collections::HashMap;

/// Why a point gave no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalError {
    /// An operation left its domain.
    Domain,
    /// The value is NaN or infinite.
    NotFinite,
    /// A symbol without a value.
    Unbound,
    /// This build has no evaluator for the function at this argument.
    NoEvaluator(&'static str),
    /// The expression is too large to evaluate.
    TooLarge,
}

/// Symbol values for one sample point.
pub type Bindings = HashMap<String, f64>;

/// The values alkahest's sampler gives `pi` and `e` (they are symbols to its parser).
pub fn constant(name: &str) -> Option<f64> {
    match name {
        "pi" => Some(std::f64::consts::PI),
        "e" => Some(std::f64::consts::E),
        _ => None,
    }
}

/// A symbol's value at a point: its binding, else the constant it names (a derivative may
/// bring in `pi`, as `erf`'s does, without the recipe mentioning it).
pub fn symbol_value(bindings: &Bindings, name: &str) -> Option<f64> {
    bindings.get(name).copied().or_else(|| constant(name))
}

/// The value of `e` at `bindings`, finite.
pub fn evaluate(e: &Expr, bindings: &Bindings, budget: &mut Budget) -> Result<f64, EvalError> {
    let v = value(e, bindings, budget)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(EvalError::NotFinite)
    }
}

fn value(e: &Expr, bindings: &Bindings, budget: &mut Budget) -> Result<f64, EvalError> {
    budget.ticks(1).map_err(|_| EvalError::TooLarge)?;
    Ok(match e {
        Expr::Int(n) => num_traits::ToPrimitive::to_f64(&**n).unwrap_or(f64::INFINITY),
        Expr::Rat(r) => num_traits::ToPrimitive::to_f64(&**r).unwrap_or(f64::NAN),
        Expr::Float(l) => l.value,
        Expr::Sym(s) => symbol_value(bindings, s).ok_or(EvalError::Unbound)?,
        Expr::Add(xs) => {
            let mut acc = 0.0;
            for x in xs.iter() {
                acc += value(x, bindings, budget)?;
            }
            acc
        }
        Expr::Mul(xs) => {
            let mut acc = 1.0;
            for x in xs.iter() {
                acc *= value(x, bindings, budget)?;
            }
            acc
        }
        Expr::Pow(p) => power(
            value(&p.0, bindings, budget)?,
            value(&p.1, bindings, budget)?,
        )?,
        Expr::Call(f, xs) => {
            let mut args = [0.0; 3];
            for (slot, x) in args.iter_mut().zip(xs.iter()) {
                *slot = value(x, bindings, budget)?;
            }
            // (a special function's series or quadrature costs up to a few microseconds)
            if !f.elementary() {
                budget.ticks(64).map_err(|_| EvalError::TooLarge)?;
            }
            call(*f, &args[..xs.len()])?
        }
    })
    .and_then(|v: f64| {
        if v.is_nan() {
            Err(EvalError::Domain)
        } else {
            Ok(v)
        }
    })
}

/// `base^exponent`: `0^0 = 1`; a negative base needs an integer exponent.
pub fn power(base: f64, exponent: f64) -> Result<f64, EvalError> {
    if base < 0.0 && exponent.is_finite() && exponent != exponent.trunc() {
        return Err(EvalError::Domain);
    }
    Ok(base.powf(exponent))
}

fn check(ok: bool) -> Result<(), EvalError> {
    if ok { Ok(()) } else { Err(EvalError::Domain) }
}

/// A function at real arguments: none outside its domain ([`RealDomain`]).
pub fn call(f: Func, a: &[f64]) -> Result<f64, EvalError> {
    let x = a[0];
    check(RealDomain::of(f).contains(x))?;
    Ok(match f {
        Func::Sin => x.sin(),
        Func::Cos => x.cos(),
        Func::Tan => x.tan(),
        Func::Sinh => x.sinh(),
        Func::Cosh => x.cosh(),
        Func::Tanh => x.tanh(),
        Func::Asin => x.asin(),
        Func::Acos => x.acos(),
        Func::Atan => x.atan(),
        Func::Asinh => x.asinh(),
        Func::Acosh => x.acosh(),
        Func::Atanh => x.atanh(),
        Func::Atan2 => a[0].atan2(a[1]),
        Func::Exp => x.exp(),
        Func::Log => x.ln(),
        Func::Sqrt => x.sqrt(),
        Func::Abs => x.abs(),
        Func::Sign => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
        Func::Floor => x.floor(),
        Func::Ceil => x.ceil(),
        Func::Round => x.round(), // half away from zero, as alkahest rounds
        Func::Erf => libm::erf(x),
        Func::Erfc => libm::erfc(x),
        Func::Gamma => special::gamma(x)?,
        Func::LambertW => special::lambert_w(x)?,
        Func::Digamma => special::digamma(x)?,
        Func::Trigamma => special::trigamma(x)?,
        Func::BesselJ0 => libm::j0(x),
        Func::BesselJ1 => libm::j1(x),
        Func::EllipticK => special::elliptic_k(x)?,
        Func::EllipticE if a.len() == 1 => special::elliptic_e(x)?,
        Func::EllipticE => special::elliptic_e_incomplete(a[0], a[1])?,
        Func::EllipticF => special::elliptic_f(a[0], a[1])?,
        Func::EllipticPi => special::elliptic_pi(a[0], a[1], a[2])?,
        Func::Ei => special::ei(x)?,
        Func::Li => special::li(x)?,
        Func::Si => special::si(x)?,
        Func::Ci => special::ci(x)?,
        Func::Shi => special::shi(x)?,
        Func::Chi => special::chi(x)?,
        Func::FresnelS => special::fresnel(x, true)?,
        Func::FresnelC => special::fresnel(x, false)?,
        Func::Dilog => special::dilog(x)?,
    })
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    fn at(s: &str, x: f64) -> Result<f64, EvalError> {
        let e = parse(s, &mut Default::default()).unwrap();
        let b: Bindings = [("x".to_string(), x)].into_iter().collect();
        evaluate(&e, &b, &mut Budget::standard())
    }

    #[test]
    fn conventions() {
        assert_eq!(at("atan(1/x)", 0.0), Ok(std::f64::consts::FRAC_PI_2));
        assert_eq!(at("exp(-1/x)", 0.0), Ok(0.0));
        assert_eq!(at("log(x)", 0.0), Err(EvalError::Domain));
        assert_eq!(at("x^(1/3)", -8.0), Err(EvalError::Domain));
        assert_eq!(at("cbrt(x)", -8.0), Err(EvalError::Domain));
        assert_eq!(at("x^2", -3.0), Ok(9.0));
        assert_eq!(at("0^0 + x", 0.0), Ok(1.0));
        assert_eq!(at("round(x)", 2.5), Ok(3.0));
        assert_eq!(at("round(x)", -2.5), Ok(-3.0));
        assert_eq!(at("sign(x)", 0.0), Ok(0.0));
        assert_eq!(at("1/x", 0.0), Err(EvalError::NotFinite));
        assert_eq!(at("acosh(x)", 0.5), Err(EvalError::Domain));
        assert_eq!(at("y", 0.5), Err(EvalError::Unbound));
    }
}
