//! Antiderivatives by an inverse substitution, where the table of [`super::integrate`] has
//! nothing for the integrand as written but has for it in a new variable `t`:
//!
//! - `t = √(ax + b)`, so `x = (t² − b)/a` and `dx = (2t/a) dt`: `exp(√x)` becomes `2t·exp(t)`,
//!   `sin(√x)` `2t·sin(t)`, `1/(1 + √x)` the rational `2t/(1 + t)`; likewise
//!   `t = (ax + b)^(1/q)` for the least common index `q` of the roots of one base (up to 12):
//!   `x^(1/3)/(1 + x^(2/3))` becomes `3t^3/(1 + t^2)`;
//! - `t = ((ax + b)/(x + d))^(1/q)`, so `x = (b − d·t^q)/(t^q − a)` and
//!   `dx = q·(ad − b)·t^(q−1)/(t^q − a)² dt`: `√((1 − x)/(1 + x))` becomes the rational
//!   `−4t²/(t² + 1)²`;
//! - `t = √(ax² + c)` for an integrand `x·G(x², √(ax² + c))`, so `x² = (t² − c)/a` and
//!   `x dx = (t/a) dt`: `√(x² − 1)/x` becomes `t²/(t² + 1)`, `1/(x·√(1 + x²))` `1/(t² − 1)`;
//! - `t = x²` for an integrand `x·G(x²)` whose `G` holds a function of an even polynomial
//!   (`x·log(1 + x²)²` becomes `log(1 + t)²/2`);
//! - `t = log(ax)`, so `x = exp(t)/a` and `dx = (exp(t)/a) dt`: `sin(log x)` becomes
//!   `exp(t)·sin(t)`, `x·log(x)²` `t²·exp(2t)` (the exponentials of a product merged into one);
//! - `t = asin(ax + b)`, `acos(ax + b)`, `asinh(ax + b)` or `acosh(ax + b)`, so
//!   `x = (sin(t) − b)/a` and `dx = (cos(t)/a) dt` (likewise with `cos`, `sinh` and `cosh`):
//!   `asin(x)²` becomes `t²·cos(t)`, `acosh(x)²` `t²·sinh(t)`.
//!
//! The antiderivative in `t` is written back in `x` (`t` → `√(ax + b)`; for the logarithm
//! `exp(ct + d)` → `exp(d)·(ax)^c`, `t` → `log(ax)`; for `u = ax + b = sin(t)`, `cos(t)` →
//! `√(1 − u²)`, which it is for `t = asin(u)` in `[−π/2, π/2]`, and so on). Like every
//! candidate of the table, it is kept only when the exact test shows `d/dx F − f = 0` and `F`
//! is continuous on the interval.

use super::expr::{Budget, Expr, Func, TooLarge, exact_value};
use super::integrate::{lin, linear, number, numeric_polynomial, proposals};
use super::partial_fractions as pf;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The highest multiple `k` of `t` whose `sin(kt)` (and the like) is written back in `x`, by
/// the addition theorems (the terms double with each step).
const MULTIPLE: i64 = 4;

/// The most substitutions tried for one integrand (in the order their arguments occur).
const MOST: usize = 2;

/// Antiderivatives of `f` in `var` found through `t = √(ax + b)`, `log(ax)`, `asin(ax + b)`,
/// `acos(ax + b)`, `asinh(ax + b)` or `acosh(ax + b)`, for the first such argument in `f` that
/// gives any (of at most two); empty when none does.
pub fn antiderivatives(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let mut found = Vec::new();
    arguments(f, var, &mut found, budget)?;
    // (t = x² last: the others are more particular)
    found.sort_by_key(|s| *s == Substitution::Square);
    // The new variable: a name no parsed symbol can have, distinct at each depth.
    let t = format!("{var}·t");
    for substitution in found.into_iter().take(MOST) {
        let Some(g) = substitution.integrand(f, var, &t, budget)? else {
            continue;
        };
        let in_t = proposals(&g, &t, budget)?;
        if in_t.is_empty() {
            continue;
        }
        return in_t
            .iter()
            .map(|h| substitution.back(h, var, &t, budget))
            .collect();
    }
    Ok(Vec::new())
}

/// One substitution `t = g(x)`, `g` linear (or a ratio of linear polynomials) inside.
#[derive(Debug, Clone)]
enum Substitution {
    /// `t = (ax + b)^(1/q)` (`q = 2`: `√(ax + b)`).
    Root(BigRational, BigRational, i64),
    /// `t = u^(1/q)` for `u = (ax + b)/(x + d)` with `ad ≠ b`: `(a, b, d)`, `q`, and `u` as
    /// the integrand writes it (which the antiderivative is written back in, so that its
    /// root is the integrand's).
    Fraction(Mobius, i64, Expr),
    /// `t = √(ax² + c)` (`a, c ≠ 0`): `(a, c)` and `ax² + c` as the integrand writes it.
    EvenRoot(BigRational, BigRational, Expr),
    /// `t = x²`.
    Square,
    /// `t = log(ax)`.
    Log(BigRational),
    /// `t = f(ax + b)` for `f` = asin, acos, asinh or acosh.
    Inverse(Func, BigRational, BigRational),
}

/// Two substitutions are the same when they substitute the same function (however the
/// integrand writes a ratio's `u`).
impl PartialEq for Substitution {
    fn eq(&self, other: &Substitution) -> bool {
        use Substitution::*;
        match (self, other) {
            (Root(a, b, q), Root(c, d, r)) => (a, b, q) == (c, d, r),
            (Fraction(m, q, _), Fraction(n, r, _)) => (m, q) == (n, r),
            (EvenRoot(a, c, _), EvenRoot(b, d, _)) => (a, c) == (b, d),
            (Square, Square) => true,
            (Log(a), Log(b)) => a == b,
            (Inverse(f, a, b), Inverse(g, c, d)) => (f, a, b) == (g, c, d),
            _ => false,
        }
    }
}

/// `(a, b, d)` of a ratio `(ax + b)/(x + d)` of first-degree polynomials that is no
/// polynomial and no constant (`ad ≠ b`).
type Mobius = (BigRational, BigRational, BigRational);

/// `u` as `(ax + b)/(x + d)`, when it is such a ratio ([`Mobius`]), whatever its form
/// (`(x + 1)^-1·(1 − x)`, `(2 − 2x)/(2x + 2)`).
fn mobius(u: &Expr, var: &str, budget: &mut Budget) -> Result<Option<Mobius>, TooLarge> {
    let Some((n, d)) = super::integrate::rational_function(u, var, budget)? else {
        return Ok(None);
    };
    let g = pf::gcd(&n, &d);
    let (n, d) = (pf::divide(&n, &g).0, pf::divide(&d, &g).0);
    let (Some(b), [d0, d1]) = (n.first(), d.as_slice()) else {
        return Ok(None);
    };
    let a = match n.as_slice() {
        [_] => BigRational::zero(),
        [_, a] => a.clone(),
        _ => return Ok(None),
    };
    let (a, b, d) = (a / d1, b / d1, d0 / d1);
    Ok((&a * &d != b).then_some((a, b, d)))
}

/// `(a, c)` of `u = ax² + c` with `a, c ≠ 0` (exact coefficients).
fn even_quadratic(
    u: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<(BigRational, BigRational)>, TooLarge> {
    Ok(match numeric_polynomial(u, var, budget)?.as_deref() {
        Some([c, b, a]) if b.is_zero() && !a.is_zero() && !c.is_zero() => {
            Some((a.clone(), c.clone()))
        }
        _ => None,
    })
}

/// The substitutions the arguments in `e` suggest, each once: `√(ax + b)` (or a fractional
/// power of `ax + b`), a root of a ratio `(ax + b)/(x + d)`, `√(ax² + c)`, `log(ax)`, `asin`,
/// `acos`, `asinh` or `acosh` of `ax + b`, and `t = x²` for a function of an even polynomial.
fn arguments(
    e: &Expr,
    var: &str,
    out: &mut Vec<Substitution>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    budget.step()?;
    let root = |u: &Expr, q: i64, budget: &mut Budget| -> Result<_, TooLarge> {
        Ok(match linear(u, var, budget)? {
            Some((a, b)) => Some(Substitution::Root(a, b, q)),
            None => mobius(u, var, budget)?.map(|m| Substitution::Fraction(m, q, u.clone())),
        })
    };
    let found = match e {
        Expr::Call(Func::Sqrt, xs) => match root(&xs[0], 2, budget)? {
            None => even_quadratic(&xs[0], var, budget)?
                .map(|(a, c)| Substitution::EvenRoot(a, c, xs[0].clone())),
            found => found,
        },
        Expr::Pow(p) if let Some(q) = root_index(&p.1) => match root(&p.0, q, budget)? {
            None if q == 2 => even_quadratic(&p.0, var, budget)?
                .map(|(a, c)| Substitution::EvenRoot(a, c, p.0.clone())),
            found => found,
        },
        Expr::Call(Func::Log, xs)
            if let Some((a, _)) = linear(&xs[0], var, budget)?.filter(|(_, b)| b.is_zero()) =>
        {
            Some(Substitution::Log(a))
        }
        Expr::Call(f @ (Func::Asin | Func::Acos | Func::Asinh | Func::Acosh), xs)
            if let Some((a, b)) = linear(&xs[0], var, budget)? =>
        {
            Some(Substitution::Inverse(*f, a, b))
        }
        // (a function of an even polynomial: t = x², after any other this integrand suggests)
        Expr::Call(_, xs)
            if xs.len() == 1
                && numeric_polynomial(&xs[0], var, budget)?
                    .and_then(|p| {
                        in_square(&p).filter(|(q, odd)| !odd && q.len() >= 2 && p.len() % 2 == 1)
                    })
                    .is_some() =>
        {
            if !out.contains(&Substitution::Square) {
                out.push(Substitution::Square);
            }
            None
        }
        _ => None,
    };
    if let Some(s) = found {
        // (roots of one base over the least common index: x^(1/3) and x^(2/3) at t = x^(1/3),
        // √x and x^(1/3) at t = x^(1/6))
        if let Substitution::Root(a, b, q) = &s
            && let Some(Substitution::Root(.., p)) = out
                .iter_mut()
                .find(|o| matches!(o, Substitution::Root(c, d, _) if c == a && d == b))
        {
            *p = num_integer::lcm(*p, *q).min(MAX_ROOT_INDEX + 1);
        } else if let Substitution::Fraction(m, q, _) = &s
            && let Some(Substitution::Fraction(_, p, _)) = out
                .iter_mut()
                .find(|o| matches!(o, Substitution::Fraction(n, ..) if n == m))
        {
            *p = num_integer::lcm(*p, *q).min(MAX_ROOT_INDEX + 1);
        } else if !out.contains(&s) {
            out.push(s);
        }
        return Ok(());
    }
    for x in e.children() {
        arguments(x, var, out, budget)?;
    }
    Ok(())
}

/// The largest root index `q` substituted (`t = (ax + b)^(1/q)`).
const MAX_ROOT_INDEX: i64 = 12;

/// The denominator `q` of an exponent `p/q` that is no integer, up to [`MAX_ROOT_INDEX`].
fn root_index(exponent: &Expr) -> Option<i64> {
    exact_value(exponent)?
        .denom()
        .to_i64()
        .filter(|q| (2..=MAX_ROOT_INDEX).contains(q))
}

/// `k` with `exponent = k/q`, when that is an integer.
fn in_root_index(exponent: &Expr, q: i64) -> Option<BigRational> {
    let k = exact_value(exponent)? * BigRational::from_integer(q.into());
    k.is_integer().then_some(k)
}

impl Substitution {
    /// `f(x(t))·x'(t)` with every `g(x)` written `t`, or `None` when `x` is left in it.
    fn integrand(
        &self,
        f: &Expr,
        var: &str,
        t: &str,
        budget: &mut Budget,
    ) -> Result<Option<Expr>, TooLarge> {
        let tt = Expr::sym(t);
        let (x, dx) = match self {
            Substitution::EvenRoot(a, c, under) => {
                // x² = (t² − c)/a, x dx = (t/a) dt
                let s = [-c / a, BigRational::zero(), a.recip()];
                let dt = Expr::mul(vec![tt, number(&a.recip())]);
                return in_square_of_x(f, var, t, &s, dt, Some(under), budget);
            }
            Substitution::Square => {
                // x² = t, x dx = dt/2
                let s = [BigRational::zero(), BigRational::one()];
                return in_square_of_x(f, var, t, &s, Expr::rat(1, 2), None, budget);
            }
            Substitution::Root(_, _, q) | Substitution::Fraction(_, q, _)
                if *q > MAX_ROOT_INDEX =>
            {
                return Ok(None);
            }
            Substitution::Fraction((a, b, d), q, _) => {
                // (b − d·s)/(s − a) and q·(ad − b)·t^(q−1)/(s − a)² for s = t^q
                let s = Expr::pow(tt.clone(), Expr::int(*q));
                let below = Expr::add(vec![s.clone(), number(&-a)]);
                (
                    Expr::mul(vec![
                        Expr::add(vec![number(b), Expr::mul(vec![number(&-d), s])]),
                        Expr::pow(below.clone(), Expr::int(-1)),
                    ]),
                    Expr::mul(vec![
                        number(&(BigRational::from_integer((*q).into()) * (a * d - b))),
                        Expr::pow(tt, Expr::int(q - 1)),
                        Expr::pow(below, Expr::int(-2)),
                    ]),
                )
            }
            Substitution::Root(a, b, q) => (
                // (t^q − b)/a and q·t^(q−1)/a
                Expr::mul(vec![
                    number(&a.recip()),
                    Expr::add(vec![Expr::pow(tt.clone(), Expr::int(*q)), number(&-b)]),
                ]),
                Expr::mul(vec![
                    number(&(BigRational::from_integer((*q).into()) / a)),
                    if *q == 2 {
                        tt
                    } else {
                        Expr::pow(tt, Expr::int(q - 1))
                    },
                ]),
            ),
            Substitution::Log(a) => {
                // exp(t)/a, twice
                let x = Expr::mul(vec![number(&a.recip()), Expr::call(Func::Exp, tt)]);
                (x.clone(), x)
            }
            Substitution::Inverse(f, a, b) => {
                // (g(t) − b)/a and g'(t)/a for g the inverse of f
                let (g, dg) = match f {
                    Func::Asin => (Func::Sin, Expr::call(Func::Cos, tt.clone())),
                    Func::Acos => (Func::Cos, Expr::negated(Expr::call(Func::Sin, tt.clone()))),
                    Func::Acosh => (Func::Cosh, Expr::call(Func::Sinh, tt.clone())),
                    _ => (Func::Sinh, Expr::call(Func::Cosh, tt.clone())),
                };
                (
                    Expr::mul(vec![
                        number(&a.recip()),
                        Expr::add(vec![Expr::call(g, tt), number(&-b)]),
                    ]),
                    Expr::mul(vec![number(&a.recip()), dg]),
                )
            }
        };
        let g = Expr::mul(vec![self.rewritten(f, var, t, &x, budget)?, dx]);
        if g.contains(var, budget)? {
            return Ok(None);
        }
        Ok(Some(distributed(&g, t, DISTRIBUTED, budget)?))
    }

    /// `e` with `g(x)` written `t` and any other `x` written `x(t)`.
    fn rewritten(
        &self,
        e: &Expr,
        var: &str,
        t: &str,
        x: &Expr,
        budget: &mut Budget,
    ) -> Result<Expr, TooLarge> {
        let same = |u: &Expr, budget: &mut Budget| -> Result<bool, TooLarge> {
            if let Substitution::Fraction(m, ..) = self {
                return Ok(mobius(u, var, budget)?.as_ref() == Some(m));
            }
            Ok(match (self, linear(u, var, budget)?) {
                (Substitution::Root(a, b, _), Some((c, d))) => *a == c && *b == d,
                (Substitution::Log(a), Some((c, d))) => *a == c && d.is_zero(),
                (Substitution::Inverse(_, a, b), Some((c, d))) => *a == c && *b == d,
                _ => false,
            })
        };
        mapped(e, budget, &mut |e, budget| {
            Ok(match (self, e) {
                (
                    Substitution::Root(.., 2) | Substitution::Fraction(_, 2, _),
                    Expr::Call(Func::Sqrt, xs),
                ) if same(&xs[0], budget)? => Some(Expr::sym(t)),
                (
                    Substitution::Root(.., q) | Substitution::Fraction(_, q, _),
                    Expr::Call(Func::Sqrt, xs),
                ) if q % 2 == 0 && same(&xs[0], budget)? => {
                    Some(Expr::pow(Expr::sym(t), Expr::int(q / 2)))
                }
                (Substitution::Root(.., q) | Substitution::Fraction(_, q, _), Expr::Pow(p))
                    if let Some(k) = in_root_index(&p.1, *q)
                        && !(&k / BigRational::from_integer((*q).into())).is_integer()
                        && same(&p.0, budget)? =>
                {
                    Some(Expr::pow(Expr::sym(t), number(&k)))
                }
                (Substitution::Log(_), Expr::Call(Func::Log, xs)) if same(&xs[0], budget)? => {
                    Some(Expr::sym(t))
                }
                (Substitution::Inverse(f, ..), Expr::Call(g, xs))
                    if f == g && same(&xs[0], budget)? =>
                {
                    Some(Expr::sym(t))
                }
                (_, Expr::Sym(s)) if &**s == var => Some(x.clone()),
                _ => None,
            })
        })
    }

    /// An antiderivative `h` in `t` written in `x`.
    fn back(&self, h: &Expr, var: &str, t: &str, budget: &mut Budget) -> Result<Expr, TooLarge> {
        match self {
            Substitution::Root(a, b, 2) => {
                let root = Expr::call(Func::Sqrt, lin(a, b, var));
                h.substitute(t, &root, budget)
            }
            Substitution::Root(a, b, q) => {
                let root = Expr::pow(lin(a, b, var), Expr::rat(1, *q));
                h.substitute(t, &root, budget)
            }
            Substitution::EvenRoot(.., under) => {
                h.substitute(t, &Expr::call(Func::Sqrt, under.clone()), budget)
            }
            Substitution::Square => {
                h.substitute(t, &Expr::pow(Expr::sym(var), Expr::int(2)), budget)
            }
            Substitution::Fraction(_, 2, u) => {
                h.substitute(t, &Expr::call(Func::Sqrt, u.clone()), budget)
            }
            Substitution::Fraction(_, q, u) => {
                h.substitute(t, &Expr::pow(u.clone(), Expr::rat(1, *q)), budget)
            }
            Substitution::Log(a) => {
                let powers = exponentials_as_powers(h, a, var, t, budget)?;
                let log = Expr::call(Func::Log, lin(a, &BigRational::zero(), var));
                powers.substitute(t, &log, budget)
            }
            Substitution::Inverse(f, a, b) => {
                let algebraic = inverse_calls_replaced(h, *f, &lin(a, b, var), t, budget)?;
                algebraic.substitute(t, &Expr::call(*f, lin(a, b, var)), budget)
            }
        }
    }
}

/// `f(x)·dx` for an `f = x·G(x²)`, in a `t` with `x² = s(t)` and `x dx = dt_factor·dt`
/// (`t = √(ax² + c)`: `s = (t² − c)/a`, `x dx = (t/a) dt`; `t = x²`: `s = t`, `x dx = dt/2`):
/// `(f/x)·dt_factor` with `x²` written `s(t)` and, for the first, `√(ax² + c)` (and its
/// powers) written `t`. The factors of `f/x` that are polynomials in `x` are gathered into
/// one reduced ratio `N/D`, which must be even (or odd over odd) in `x`, and an even power
/// `x^2k` elsewhere is written `s^k`; `None` when `x` is left (`f` is not `x·G(x²)`).
fn in_square_of_x(
    f: &Expr,
    var: &str,
    t: &str,
    s: &[BigRational],
    dt_factor: Expr,
    root: Option<&Expr>,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    let square = pf::expression(s, t);
    let over_x = Expr::mul(vec![f.clone(), Expr::recip(Expr::sym(var))]);
    let (mut n, mut d) = (vec![BigRational::one()], vec![BigRational::one()]);
    let mut others = Vec::new();
    for (base, k) in over_x.power_factors(budget)? {
        match numeric_polynomial(&base, var, budget)? {
            Some(p) if p.len() <= MAX_EVEN_DEGREE => {
                for _ in 0..k.unsigned_abs().min(MAX_EVEN_DEGREE as u64) {
                    let side = if k > 0 { &mut n } else { &mut d };
                    *side = pf::mul(side, &p);
                    if side.len() > MAX_EVEN_DEGREE {
                        return Ok(None);
                    }
                }
            }
            Some(_) => return Ok(None),
            None => others.push(Expr::pow(base, Expr::int(k))),
        }
    }
    let common = pf::gcd(&n, &d);
    let (n, d) = (pf::divide(&n, &common).0, pf::divide(&d, &common).0);
    // (an odd N over an even D, or the reverse, leaves f/x odd: f is not x·G(x²))
    let (Some((n, odd)), Some((d, odd_too))) = (in_square(&n), in_square(&d)) else {
        return Ok(None);
    };
    if odd != odd_too {
        return Ok(None);
    }
    let mut factors = vec![pf::expression(&composed(&n, s), t)];
    if d.len() > 1 || d.first().is_some_and(|c| !c.is_one()) {
        factors.push(Expr::recip(pf::expression(&composed(&d, s), t)));
    }
    let two = BigRational::from_integer(2.into());
    let rest = mapped(&Expr::mul(others), budget, &mut |e, budget| {
        Ok(match (e, root) {
            (Expr::Call(Func::Sqrt, xs), Some(under)) if xs[0].identical(under, budget)? => {
                Some(Expr::sym(t))
            }
            (Expr::Pow(p), Some(under))
                if let Some(k) = in_root_index(&p.1, 2)
                    && p.0.identical(under, budget)? =>
            {
                Some(Expr::pow(Expr::sym(t), number(&k)))
            }
            (Expr::Pow(p), _)
                if matches!(&p.0, Expr::Sym(s) if &**s == var)
                    && let Some(k) = exact_value(&p.1)
                        .map(|n| n / &two)
                        .filter(BigRational::is_integer) =>
            {
                Some(if k.is_one() {
                    square.clone()
                } else {
                    Expr::pow(square.clone(), number(&k))
                })
            }
            _ => None,
        })
    })?;
    factors.extend([rest, dt_factor]);
    let g = Expr::mul(factors);
    if g.contains(var, budget)? {
        return Ok(None);
    }
    Ok(Some(distributed(&g, t, DISTRIBUTED, budget)?))
}

/// The largest degree of the ratio [`in_square_of_x`] gathers.
const MAX_EVEN_DEGREE: usize = 24;

/// `(q, false)` with `p(x) = q(x²)` when `p` is even, or `(q, true)` with `p(x) = x·q(x²)`
/// when it is odd (the `x` of an odd ratio cancels: [`in_square_of_x`] takes both sides of it
/// odd or both even); `None` when `p` is neither.
fn in_square(p: &[BigRational]) -> Option<(Vec<BigRational>, bool)> {
    let odd = p
        .iter()
        .enumerate()
        .any(|(i, c)| i % 2 == 1 && !c.is_zero());
    let even = p
        .iter()
        .enumerate()
        .any(|(i, c)| i % 2 == 0 && !c.is_zero());
    if odd && even {
        return None;
    }
    let start = usize::from(odd);
    Some((p.iter().skip(start).step_by(2).cloned().collect(), odd))
}

/// `q(s(t))` for polynomials `q` and `s`, by Horner's rule.
fn composed(q: &[BigRational], s: &[BigRational]) -> Vec<BigRational> {
    let mut out = Vec::new();
    for c in q.iter().rev() {
        out = pf::add(&pf::mul(&out, s), std::slice::from_ref(c));
    }
    out
}

/// `e` with `sin(kt)`, `cos(kt)` (or `sinh(kt)`, `cosh(kt)`), `1 ≤ k ≤` [`MULTIPLE`], written
/// in `u` for `t = f(u)`: from `sin(asin u) = u`, `cos(asin u) = √(1 − u²)`, `cos(acos u) = u`,
/// `sin(acos u) = √(1 − u²)`, `sinh(asinh u) = u`, `cosh(asinh u) = √(1 + u²)`,
/// `cosh(acosh u) = u`, `sinh(acosh u) = √(u² − 1)` by the addition theorems. Other calls of
/// `t` are left as they are (the exact test then decides whether the candidate verifies).
fn inverse_calls_replaced(
    e: &Expr,
    f: Func,
    u: &Expr,
    t: &str,
    budget: &mut Budget,
) -> Result<Expr, TooLarge> {
    let root = |sign: i64| {
        let square = Expr::pow(u.clone(), Expr::int(2));
        Expr::call(
            Func::Sqrt,
            Expr::add(vec![Expr::int(1), Expr::mul(vec![Expr::int(sign), square])]),
        )
    };
    let negated_root = || {
        let square = Expr::pow(u.clone(), Expr::int(2));
        Expr::call(Func::Sqrt, Expr::add(vec![square, Expr::int(-1)]))
    };
    // (sin t, cos t) or (sinh t, cosh t) in u
    let (sine, cosine, hyperbolic) = match f {
        Func::Asin => (u.clone(), root(-1), false),
        Func::Acos => (root(-1), u.clone(), false),
        // (acosh u ≥ 0, so sinh(acosh u) = +sqrt(u² − 1))
        Func::Acosh => (negated_root(), u.clone(), true),
        _ => (u.clone(), root(1), true),
    };
    mapped(e, budget, &mut |e, budget| {
        let Expr::Call(g, xs) = e else {
            return Ok(None);
        };
        let Some((k, d)) = linear(&xs[0], t, budget)? else {
            return Ok(None);
        };
        let Some(k) = Some(k)
            .filter(|k| k.is_integer() && d.is_zero())
            .and_then(|k| k.to_integer().to_i64())
            .filter(|k| (1..=MULTIPLE).contains(k))
        else {
            return Ok(None);
        };
        // sin(kt), cos(kt) by the addition theorems, from (sin t, cos t)
        let (mut s, mut c) = (sine.clone(), cosine.clone());
        for _ in 1..k {
            let sign = if hyperbolic { 1 } else { -1 };
            (s, c) = (
                Expr::add(vec![
                    Expr::mul(vec![s.clone(), cosine.clone()]),
                    Expr::mul(vec![c.clone(), sine.clone()]),
                ]),
                Expr::add(vec![
                    Expr::mul(vec![c.clone(), cosine.clone()]),
                    Expr::mul(vec![Expr::int(sign), s, sine.clone()]),
                ]),
            );
        }
        Ok(match (hyperbolic, g) {
            (false, Func::Sin) | (true, Func::Sinh) => Some(s),
            (false, Func::Cos) | (true, Func::Cosh) => Some(c),
            _ => None,
        })
    })
}

/// `e` with every `exp(ct + d)` (linear in `t`) written `exp(d)·(ax)^c`, which it is at
/// `t = log(ax)`.
fn exponentials_as_powers(
    e: &Expr,
    a: &BigRational,
    var: &str,
    t: &str,
    budget: &mut Budget,
) -> Result<Expr, TooLarge> {
    mapped(e, budget, &mut |e, budget| {
        Ok(match e {
            Expr::Call(Func::Exp, xs) if let Some((c, d)) = linear(&xs[0], t, budget)? => {
                let power = Expr::pow(lin(a, &BigRational::zero(), var), number(&c));
                Some(if d.is_zero() {
                    power
                } else {
                    Expr::mul(vec![Expr::call(Func::Exp, number(&d)), power])
                })
            }
            _ => None,
        })
    })
}

/// What [`mapped`] puts in place of a subtree, or `None` to keep walking into it.
pub(super) type Replacement<'a> =
    dyn FnMut(&Expr, &mut Budget) -> Result<Option<Expr>, TooLarge> + 'a;

/// `e` with each subtree for which `replace` gives an expression replaced by it (the subtrees
/// of a replaced one are not visited), and the rest rebuilt around the replacements.
pub(super) fn mapped(
    e: &Expr,
    budget: &mut Budget,
    replace: &mut Replacement<'_>,
) -> Result<Expr, TooLarge> {
    budget.step()?;
    if let Some(r) = replace(e, budget)? {
        return Ok(r);
    }
    let mut all = |xs: &[Expr], budget: &mut Budget| -> Result<Vec<Expr>, TooLarge> {
        xs.iter().map(|y| mapped(y, budget, replace)).collect()
    };
    Ok(match e {
        Expr::Add(xs) => Expr::add(all(xs, budget)?),
        Expr::Mul(xs) => Expr::mul(all(xs, budget)?),
        Expr::Call(f, xs) => Expr::Call(*f, all(xs, budget)?.into()),
        Expr::Pow(p) => {
            let base = mapped(&p.0, budget, replace)?;
            Expr::pow(base, mapped(&p.1, budget, replace)?)
        }
        Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) | Expr::Sym(_) => e.clone(),
    })
}

/// How many sums of a product [`distributed`] multiplies out.
const DISTRIBUTED: usize = 3;

/// The product `e` [`merged`], with its first `depth` sums that are not polynomials in `t`
/// multiplied out (`(sin(t) + 1)/2 · t² · cos(t)`, from `x = (sin(t) + 1)/2`, as the sum of
/// `t²·sin(t)·cos(t)/2` and `t²·cos(t)/2`, each a product the table knows), at most eight
/// terms each.
fn distributed(e: &Expr, t: &str, depth: usize, budget: &mut Budget) -> Result<Expr, TooLarge> {
    let product = merged(e, t, budget)?;
    let factors: Vec<Expr> = match &product {
        Expr::Mul(xs) => xs.to_vec(),
        _ => return Ok(product),
    };
    if depth == 0 {
        return Ok(product);
    }
    let mut sum = None;
    for (i, f) in factors.iter().enumerate() {
        if let Expr::Add(terms) = f
            && terms.len() <= 8
            && numeric_polynomial(f, t, budget)?.is_none()
        {
            sum = Some((i, terms.clone()));
            break;
        }
    }
    let Some((i, terms)) = sum else {
        return Ok(product);
    };
    let mut out = Vec::with_capacity(terms.len());
    for term in terms.iter() {
        let mut each = factors.clone();
        each[i] = term.clone();
        out.push(distributed(&Expr::mul(each), t, depth - 1, budget)?);
    }
    Ok(Expr::add(out))
}

/// A product with its exponentials merged into one, `exp(ct + d)` with `c` and `d` exact
/// (dropped when it is `exp(0)`): nested products flattened, and integer powers of products
/// and of `exp` taken apart (`(exp(t)/a)^2 = exp(2t)·a^−2`).
fn merged(e: &Expr, t: &str, budget: &mut Budget) -> Result<Expr, TooLarge> {
    let mut exponent = Vec::new();
    let mut rest = Vec::new();
    for (f, n) in e.power_factors(budget)? {
        // (a root of exponentials, as `t = log x` leaves `√x`: `√(exp t) = exp(t/2)`)
        let root = match &f {
            Expr::Call(Func::Sqrt, xs) => Some((&xs[0], BigRational::new(n.into(), 2.into()))),
            Expr::Pow(p) => exact_value(&p.1)
                .filter(|r| !r.is_integer())
                .map(|r| (&p.0, r * BigRational::from_integer(n.into()))),
            _ => None,
        };
        if let Some((base, r)) = root
            && let Some((exponents, constants)) = root_of_exponentials(base, &r, budget)?
        {
            exponent.extend(exponents);
            rest.extend(constants);
            continue;
        }
        match f {
            Expr::Call(Func::Exp, xs) => {
                exponent.push(Expr::mul(vec![Expr::int(n), xs[0].clone()]))
            }
            f if n == 1 => rest.push(f),
            f => rest.push(Expr::pow(f, Expr::int(n))),
        }
    }
    if !exponent.is_empty() {
        let mut coefficients = numeric_polynomial(&Expr::add(exponent.clone()), t, budget)?;
        if let Some(c) = &mut coefficients {
            while c.last().is_some_and(Zero::is_zero) {
                c.pop();
            }
        }
        match coefficients.as_deref() {
            Some([]) => {}
            Some([d]) if d.is_zero() => {}
            Some([d]) => rest.push(Expr::call(Func::Exp, number(d))),
            Some([d, c]) => rest.push(Expr::call(Func::Exp, lin(c, d, t))),
            _ => rest.push(Expr::call(Func::Exp, Expr::add(exponent))),
        }
    }
    Ok(Expr::mul(rest))
}

/// What [`root_of_exponentials`] writes a root as: exponents and constant factors.
type ExponentsAndConstants = (Vec<Expr>, Vec<Expr>);

/// `base^r` for a product `base` of exponentials and positive numbers, as the exponents
/// `r·k·u` of its factors `exp(u)^k` and the constants `c^(r·k)` of its numbers `c^k`
/// (`(c·exp u)^r = c^r·exp(r·u)` for `c > 0`); `None` for any other base.
fn root_of_exponentials(
    base: &Expr,
    r: &BigRational,
    budget: &mut Budget,
) -> Result<Option<ExponentsAndConstants>, TooLarge> {
    let (mut exponents, mut constants) = (Vec::new(), Vec::new());
    for (g, k) in base.power_factors(budget)? {
        let rk = r * BigRational::from_integer(k.into());
        match &g {
            Expr::Call(Func::Exp, xs) => {
                exponents.push(Expr::mul(vec![number(&rk), xs[0].clone()]))
            }
            g if exact_value(g).is_some_and(|c| c.is_positive()) => {
                if !exact_value(g).is_some_and(|c| c.is_one()) {
                    constants.push(Expr::pow(g.clone(), number(&rk)));
                }
            }
            _ => return Ok(None),
        }
    }
    Ok((!exponents.is_empty()).then_some((exponents, constants)))
}
