//! Antiderivatives by a substitution `t = g(x)`, where the table of [`super::integrate`] has
//! nothing for the integrand as written but has for it in `t`:
//!
//! - `t = h(v)` for a function `h` of an argument `v` in the integrand, when `f/t'` is a
//!   function of `t` alone (the chain rule read backwards through any function of `t`, not
//!   only a power: `cos(x)/(1 + sin(x)^2)` is `1/(1 + t^2)` at `t = sin x`, and so is
//!   `cos(x)^3/(1 + sin(x)^2)` once `cos² = 1 − t²`). That `f/t'` no longer depends on `x`
//!   is shown by the exact test (`∂/∂x = 0` with `t` held), so it may be read at any `x`.
//! - `t = tan(v/2)` (Weierstrass) for a rational function of `sin v`, `cos v` and `tan v` of
//!   one linear `v = ax + b`: `sin v = 2t/(1 + t²)`, `cos v = (1 − t²)/(1 + t²)`,
//!   `dx = 2/(a(1 + t²)) dt`, and the rational function of `t` goes to partial fractions
//!   (`1/(1 + sin x)` is `2/(1 + t)^2`, `1/(2 + sin x)` is `1/(t^2 + t + 1)`), as alkahest
//!   integrates them.
//!
//! The antiderivative in `t` is written back in `x`. Like every candidate of the table, it is
//! kept only when the exact test shows `d/dx F − f = 0` and `F` is continuous on the interval
//! (`tan(v/2)` has a pole wherever `v` is an odd multiple of π, so an interval across one
//! leaves the integral to quadrature), so a substitution can propose but never decide.

use super::diff::derivative;
use super::expr::{Budget, Expr, Func, TooLarge, exact_value};
use super::integrate::{already, each_call, lin, linear, number, proposals};
use super::inverse_substitution::mapped;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// The most functions `h(v)` tried as `t` for one integrand (in the order they occur).
const MOST: usize = 3;

/// How deep substitutions nest (a substitution's integrand in `t` may be given to the table,
/// which may substitute again).
const DEPTH: usize = 2;

/// The name of the new variable: one no parsed symbol can have, distinct at each depth.
fn new_variable(var: &str) -> Option<String> {
    (var.matches('·').count() < DEPTH).then(|| format!("{var}·s"))
}

/// Antiderivatives of `f` in `var` through `t = h(v)` or `t = tan(v/2)`; empty when neither
/// gives any.
pub fn antiderivatives(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let Some(t) = new_variable(var) else {
        return Ok(Vec::new());
    };
    let found = through_a_function(f, var, &t, budget)?;
    if !found.is_empty() {
        return Ok(found);
    }
    half_angle(f, var, &t, budget)
}

/// Where `f/t'` is read once it is shown not to depend on `x` (a point where `sin`, `cos`,
/// `log` and the like have no special value, so what cancels there cancels as written).
fn anywhere() -> Expr {
    Expr::rat(1, 2)
}

/// Through `t = h(v)` for the first of the calls in `f` (at most [`MOST`]) that gives any.
fn through_a_function(
    f: &Expr,
    var: &str,
    t: &str,
    budget: &mut Budget,
) -> Result<Vec<Expr>, TooLarge> {
    let mut calls = Vec::new();
    calls_of(f, var, &mut calls, budget)?;
    for call in calls.into_iter().take(MOST) {
        let Ok(dt) = derivative(&call, var, budget) else {
            continue;
        };
        let quotient = Expr::mul(vec![f.clone(), Expr::recip(dt)]);
        let in_t = cancelled(&written_in(&quotient, &call, var, t, budget)?, budget)?;
        if in_t.contains(var, budget)? {
            let Ok(slope) = derivative(&in_t, var, budget) else {
                continue;
            };
            if super::canon::is_zero_in(&slope, Some(var), budget) != Ok(true) {
                continue;
            }
        }
        let in_t = in_t.substitute(var, &anywhere(), budget)?;
        let mut found = Vec::new();
        for g in proposals(&in_t, t, budget)? {
            found.push(g.substitute(t, &call, budget)?);
        }
        if !found.is_empty() {
            return Ok(found);
        }
    }
    Ok(Vec::new())
}

/// The calls `h(v)` of `f` with `v` depending on `var`, each once, outermost first; not
/// `sqrt` or a power (the table's chain rule takes powers of any factor). A linear `exp`
/// comes after the others (a rational function of `exp(ax)` has its own substitution; this
/// one serves the rest, `exp(2x)/√(1 + exp x)` at `t = exp x`).
fn calls_of(e: &Expr, var: &str, out: &mut Vec<Expr>, budget: &mut Budget) -> Result<(), TooLarge> {
    let mut exponentials = Vec::new();
    each_call(e, budget, &mut |call, budget| {
        if let Expr::Call(h, xs) = call
            && xs.len() == 1
            && *h != Func::Sqrt
            && xs[0].contains(var, budget)?
        {
            let linear_exp = *h == Func::Exp && linear(&xs[0], var, budget)?.is_some();
            let list = if linear_exp {
                &mut exponentials
            } else {
                &mut *out
            };
            if !already(list, call, budget)? {
                list.push(call.clone());
            }
        }
        Ok(())
    })?;
    out.append(&mut exponentials);
    Ok(())
}

/// `e` with `call` written `t`, and an integer power of its partner in `cos² + sin² = 1` or
/// `cosh² − sinh² = 1` written in `t` but for one factor of an odd power
/// (`cos(v)^(2k+1) = cos(v)·(1 − t²)^k` at `t = sin v`, `cos(v)^−3 = cos(v)^−1·(1 − t²)^−1`),
/// and for `t = exp(v)` an `exp(k·v)` written `t^k`.
fn written_in(
    e: &Expr,
    call: &Expr,
    var: &str,
    t: &str,
    budget: &mut Budget,
) -> Result<Expr, TooLarge> {
    let Expr::Call(h, xs) = call else {
        return Ok(e.clone());
    };
    let tt = || Expr::pow(Expr::sym(t), Expr::int(2));
    // (the partner, and its square in t)
    let partner = match h {
        Func::Sin | Func::Cos => Some((
            if *h == Func::Sin {
                Func::Cos
            } else {
                Func::Sin
            },
            Expr::add(vec![Expr::int(1), Expr::negated(tt())]),
        )),
        Func::Sinh => Some((Func::Cosh, Expr::add(vec![Expr::int(1), tt()]))),
        Func::Cosh => Some((Func::Sinh, Expr::add(vec![tt(), Expr::int(-1)]))),
        _ => None,
    };
    mapped(e, budget, &mut |e, budget| {
        if e.identical(call, budget)? {
            return Ok(Some(Expr::sym(t)));
        }
        // exp(k·v) = t^k for t = exp(v) and a rational k (v and k·v linear: exp(2x) = t² at
        // t = exp(x))
        if *h == Func::Exp
            && let Expr::Call(Func::Exp, ys) = e
            && let (Some((a, b)), Some((c, d))) =
                (linear(&xs[0], var, budget)?, linear(&ys[0], var, budget)?)
            && !a.is_zero()
            && &c / &a * &b == d
        {
            return Ok(Some(Expr::pow(Expr::sym(t), number(&(c / a)))));
        }
        let Some((other, square)) = &partner else {
            return Ok(None);
        };
        if let Expr::Pow(p) = e
            && let Expr::Call(g, ys) = &p.0
            && g == other
            && let Some(n) = integer(&p.1)
            && ys[0].identical(&xs[0], budget)?
        {
            // partner^(2k + r) = partner^r · square^k, r the sign of an odd n (so that
            // cos^3 and cos^-1 keep the factors that cancel: cos·(1 − t²) and cos^-1)
            let r = if n % 2 == 0 { 0 } else { n.signum() };
            let k = (n - r) / 2;
            if k == 0 {
                return Ok(None);
            }
            let even = Expr::pow(square.clone(), Expr::int(k));
            return Ok(Some(if r == 0 {
                even
            } else {
                Expr::mul(vec![Expr::pow(p.0.clone(), Expr::int(r)), even])
            }));
        }
        Ok(None)
    })
}

/// A product with its factors of the same base (integer powers of products taken apart)
/// gathered into one power, and those whose powers cancel dropped: `cos(x)·(1 − t²)·(cos(x)·1)^−1`
/// is `(1 − t²)`. Anything but a product is returned as it is.
pub(super) fn cancelled(e: &Expr, budget: &mut Budget) -> Result<Expr, TooLarge> {
    if !matches!(e, Expr::Mul(_)) {
        return Ok(e.clone());
    }
    let factors = e.power_factors(budget)?;
    let mut merged: Vec<(Expr, i64)> = Vec::with_capacity(factors.len());
    for (base, n) in factors {
        let mut at = None;
        for (i, (b, _)) in merged.iter().enumerate() {
            if b.identical(&base, budget)? {
                at = Some(i);
                break;
            }
        }
        match at {
            Some(i) => merged[i].1 += n,
            None => merged.push((base, n)),
        }
    }
    Ok(Expr::mul(
        merged
            .into_iter()
            .filter(|(_, n)| *n != 0)
            .map(|(b, n)| {
                if n == 1 {
                    b
                } else {
                    Expr::pow(b, Expr::int(n))
                }
            })
            .collect(),
    ))
}

/// An integer exponent.
fn integer(exponent: &Expr) -> Option<i64> {
    let n = exact_value(exponent)?;
    n.is_integer().then(|| n.to_integer().to_i64())?
}

/// Through `t = tan(v/2)`, when every occurrence of `var` in `f` is in `sin`, `cos` or `tan`
/// of one linear `v`.
fn half_angle(f: &Expr, var: &str, t: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let Some((a, b)) = one_angle(f, var, budget)? else {
        return Ok(Vec::new());
    };
    let tt = Expr::sym(t);
    let one_plus = Expr::add(vec![Expr::int(1), Expr::pow(tt.clone(), Expr::int(2))]);
    let one_minus = Expr::add(vec![
        Expr::int(1),
        Expr::negated(Expr::pow(tt.clone(), Expr::int(2))),
    ]);
    let twice = Expr::mul(vec![Expr::int(2), tt.clone()]);
    let rewritten = mapped(f, budget, &mut |e, budget| {
        let Expr::Call(h, xs) = e else {
            return Ok(None);
        };
        if linear(&xs[0], var, budget)?.as_ref() != Some(&(a.clone(), b.clone())) {
            return Ok(None);
        }
        Ok(match h {
            Func::Sin => Some(Expr::mul(vec![
                twice.clone(),
                Expr::recip(one_plus.clone()),
            ])),
            Func::Cos => Some(Expr::mul(vec![
                one_minus.clone(),
                Expr::recip(one_plus.clone()),
            ])),
            Func::Tan => Some(Expr::mul(vec![
                twice.clone(),
                Expr::recip(one_minus.clone()),
            ])),
            _ => None,
        })
    })?;
    // dx = 2/(a(1 + t²)) dt
    let in_t = Expr::mul(vec![
        rewritten,
        number(&(BigRational::from_integer(2.into()) / &a)),
        Expr::recip(one_plus),
    ]);
    if in_t.contains(var, budget)? {
        return Ok(Vec::new());
    }
    let two = BigRational::from_integer(2.into());
    let half = Expr::call(Func::Tan, lin(&(&a / &two), &(&b / &two), var));
    let mut found = Vec::new();
    for g in proposals(&in_t, t, budget)? {
        found.push(g.substitute(t, &half, budget)?);
    }
    Ok(found)
}

/// `(a, b)` when every `sin`, `cos` and `tan` of `f` that depends on `var` has the argument
/// `ax + b`, and there is at least one.
fn one_angle(
    f: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<(BigRational, BigRational)>, TooLarge> {
    let mut calls = Vec::new();
    calls_of(f, var, &mut calls, budget)?;
    let mut angle = None;
    for call in &calls {
        let Expr::Call(Func::Sin | Func::Cos | Func::Tan, xs) = call else {
            return Ok(None);
        };
        let Some(v) = linear(&xs[0], var, budget)? else {
            return Ok(None);
        };
        if v.0.is_zero() || angle.as_ref().is_some_and(|w| *w != v) {
            return Ok(None);
        }
        angle = Some(v);
    }
    Ok(angle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Expr {
        super::super::parse::parse(text, &mut Default::default()).expect("parses")
    }

    /// Whether a proposal differentiates exactly to `f`.
    fn proposes(f: &str) -> bool {
        let e = parse(f);
        let budget = &mut Budget::standard();
        antiderivatives(&e, "x", budget).unwrap().iter().any(|g| {
            let d = derivative(g, "x", budget).unwrap();
            super::super::canon::is_zero(&Expr::minus(d, e.clone()), budget) == Ok(true)
        })
    }

    #[test]
    fn a_function_of_one_function_is_integrated_in_it() {
        for f in [
            "cos(x)/(1+sin(x)^2)",
            "cos(x)^3/(1+sin(x)^2)",
            "sin(x)/(1+cos(x)^2)",
            "1/(x*(1+log(x)^2))",
            "cosh(x)/(1+sinh(x)^2)",
            "sinh(x)^3/(2+cosh(x))",
        ] {
            assert!(proposes(f), "{f}");
        }
        // x is left besides t = sin x: nothing (the product rule is not undone)
        assert!(!proposes("x*cos(x)/(1+sin(x)^2)"));
    }

    #[test]
    fn rational_functions_of_sin_and_cos_go_through_the_half_angle() {
        for f in [
            "1/(1+sin(x))",
            "1/(2+sin(x))",
            "1/(3+cos(2*x))",
            "1/(5+4*cos(x))",
            "sin(x)/(1+sin(x)+cos(x))",
        ] {
            assert!(proposes(f), "{f}");
        }
        // two angles: no single t
        assert!(!proposes("1/(2+sin(x)+cos(2*x))"));
    }

    #[test]
    fn products_cancel_only_identical_factors() {
        let budget = &mut Budget::standard();
        let e = cancelled(&parse("cos(x)*(1-t^2)*(cos(x)*1)^-1"), budget).unwrap();
        assert!(!e.contains("x", budget).unwrap(), "{e}");
        let e = cancelled(&parse("cos(x)*(cos(2*x))^-1"), budget).unwrap();
        assert!(e.contains("x", budget).unwrap(), "{e}");
    }
}
