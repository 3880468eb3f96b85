//! Definite integrals with parameters: an antiderivative continuous in the variable for every
//! value of the other symbols (in the integrand, or as bounds: `∫_1^t dx/x = log t`) at which
//! the claimed value is defined.
//!
//! `∫_0^(1/2) x/(x² + a) dx = log(a + 1/4)/2 − log(a)/2` holds for every `a` at which its
//! value is defined (`a > 0`), where `log(x² + a)/2` is continuous on the interval. The same
//! antiderivative over `[−1, 1]` gives `0` for every `a`, but for `−1 < a < 0` the integrand
//! has poles inside and the integral does not exist. A parameter's sample value proves nothing
//! about the claim, so no ball can tell these apart; this module reads the difference off the
//! expressions. Each node of the antiderivative `F` and of the integrand that depends on both
//! the variable and a parameter must stay in its domain over the interval, for every value of
//! the parameters that the value allows:
//!
//! - a node free of the variable is continuous in it wherever it is defined (as
//!   [`super::integrate::continuous_everywhere`] counts it: `1/a` in `sin(a·x)/a`);
//! - a node free of the parameters is shown defined over the interval by balls (when the bounds
//!   are numbers; otherwise it is taken apart as the others are);
//! - `log u`, `u^r` for a negative or symbolic `r` need `u > 0` on the interval (an integer `r`
//!   takes `−u > 0` as well), `√u` and `u^r` for a positive `r` that is not an integer need
//!   `u ≥ 0`, `asin u` and `acos u` need `1 − u² ≥ 0`, `acosh u` needs `u − 1 ≥ 0`, `dilog u`
//!   needs `1 − u ≥ 0`; entire
//!   functions, sums, products and natural powers need what their arguments need; anything
//!   else decides nothing. (In the
//!   integrand `u ≥ 0` is enough throughout, and a negative integer power of a polynomial with
//!   exact coefficients needs nothing: it may lack a value at finitely many points where the
//!   antiderivative is continuous.)
//!
//! That `u` keeps its sign comes from its form (a positive number plus squares, `exp`, `cosh`
//! and roots: `1 + (a·x)²`), or from its ends and its shape: a line in the variable (any
//! slope, `a·x + 1`) lies between its values at the ends, and a quadratic with a negative
//! leading coefficient is at least the lesser of them (it is concave); a polynomial whose
//! parameters are all in its constant term (`x² + a`) is at least its value at an end `c`
//! where `u − u(c) = (x − c)^k·q` with `q` of the right sign over the interval (by balls, on
//! exact coefficients); a sum of a part free of the variable and a part free of the
//! parameters whose derivative's ball has a sign (`a + exp(x)`) is least at one end. The
//! value at an end is a number of known sign, or the argument of a node of the *claimed
//! value* that needs the same sign (or that argument plus a number at least 0, or a positive
//! multiple of it): `log(a + 1/4)` in the value is defined only where
//! `a + 1/4 > 0`, and the value is defined only where each of its nodes is (`log u` has the
//! sign of `u − 1`, so `log(log t)` puts `t − 1 > 0`; a quotient of lines `k·(t − p)/(t − q)`
//! at least 0 with `k < 0` puts `t` between `q` and `p`). Where a bound is a
//! symbol, no ball holds the interval, and forms decide: a part free of the parameters
//! continuous on the whole line ([`continuous_everywhere`]), a polynomial positive everywhere, a
//! product of factors with a sign, a sum of terms at least 0 with a positive one, a root above
//! the rest of its sum (`x + √(1 + x²)`), an even power
//! of a polynomial never constant (at least 0), a negative power of these (positive where it
//! is defined: `1 + x^−2`), `v² − q²` with the sign of `v − q` or `−v − q` (`(x + 2)² − 1`
//! where `x + 2 ≥ 1`), a
//! monotone sum whose derivative has a sign by its form (or, for a polynomial plus a root,
//! through a root above the rest), and a polynomial least at a numeric end
//! `c` through an even power of `x − c`. A line in a bound, `t + 1`, is positive where a
//! witness continuous and monotone on the whole line vanishes at its root
//! (`log(2 + 2√(1 + t²) + 2t − √8)` puts `t > −1`).
//! (A claim says nothing where its value is undefined: there the check makes no claim either.)

use super::ball::{Evaluator, over_interval};
use super::canon;
use super::diff::{derivative, square};
use super::eval::Bindings;
use super::expr::{Budget, Expr, Func, TooLarge, exact_value};
use super::integrate::{
    DefiniteIntegral, continuous_everywhere, has_parameters, integer_power, is_parameter, linear,
    natural, number, numeric_polynomial, polynomial, positive_everywhere,
};
use super::limit::plain;
use super::partial_fractions as pf;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::rc::Rc;

/// How many times [`Domains::sign_or_defined_over`] may halve the interval (down to a
/// 32nd of it).
const SIGN_DEPTH: u32 = 5;

/// The sign an argument must keep over the interval.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Sign {
    /// `u ≥ 0`, and not identically 0 in the variable.
    NonNegative,
    /// `u > 0`.
    Positive,
}

/// Whether `f`, an antiderivative of the integral's integrand, and the integrand are
/// continuous on the closed interval for every value of the parameters at which `value` is
/// defined (see the module's documentation); the bounds may be parameters too (`[0, t]`).
/// `false` when something is not shown.
pub fn continuous_where_the_value_is_defined(
    integral: &DefiniteIntegral<'_>,
    f: &Expr,
    value: &Expr,
    budget: &mut Budget,
) -> Result<bool, TooLarge> {
    let (lower, upper) = (integral.lower, integral.upper);
    if lower.contains(integral.var, budget)? || upper.contains(integral.var, budget)? {
        return Ok(false);
    }
    let exact = match (exact_value(lower), exact_value(upper)) {
        (Some(a), Some(b)) if a <= b => Some((a, b)),
        (Some(a), Some(b)) => Some((b, a)),
        _ => None,
    };
    let mut witnesses = Vec::new();
    gather_witnesses(value, &mut witnesses, budget)?;
    let domains = Domains {
        var: integral.var,
        ends: [lower.clone(), upper.clone()],
        exact,
        witnesses,
    };
    Ok(domains.continuous(f, Sign::Positive, budget)?
        && domains.continuous(integral.integrand, Sign::NonNegative, budget)?)
}

/// A fresh symbol for the inner end `s` of [`BesideAnEnd`]'s intervals: no parser makes it.
const INNER_END: &str = "#s";

/// A fresh symbol for the far end `r` of [`BesideAnEnd::half_line`]'s intervals.
const FAR_END: &str = "#r";

/// An improper integral from an exact end `c`, where the antiderivative may have no value
/// (`x·log x − x` at 0), to a bound `b` that is not a number (`∫_0^t log x dx`), for every
/// value of the parameters at which the claimed value is defined: `b` lies on one side of `c`
/// (strictly: `log(t)` in the value puts `t > 0`; or each side is taken in turn, see
/// [`BesideAnEnd::sides`]), and an antiderivative continuous with the
/// integrand on every `[s, b]` with `s` strictly between `c` and `b` (the intervals are read as
/// [`continuous_where_the_value_is_defined`] reads `[s, t]`, with the symbol `s` known to lie
/// beyond `c`) is continuous on the half-open interval from `c` (excluded) to `b`. With the
/// one-sided limit `L` of `F` at `c` ([`super::limit`], which needs only `F` near `c`), the
/// integral exists and is `F(b) − L`.
pub struct BesideAnEnd<'v> {
    /// `1` when the other bound is above `c`, `−1` when below.
    pub side: i8,
    domains: Domains<'v>,
}

impl<'v> BesideAnEnd<'v> {
    /// The sides of `c` on which `other` lies for the values of the parameters at which `value`
    /// is defined, each with the intervals `[s, other]` to check: the one side shown strictly
    /// (`log(t)` puts `t > 0`); or, when `other` is a symbol at which the value is 0 at `c` (the
    /// integral over `[c, c]`, with the exact test's `0·log 0 = 0`) or has no value (a node
    /// `t^−1` at `t = 0`: the claim says nothing there), both, each read where `other` lies on
    /// it (`∫_0^t log(x²) dx = t·log(t²) − 2t`, `∫_0^t atan(1/x) dx = t·atan(1/t) +
    /// log(1 + t²)/2` for `t` of either sign). Empty when neither applies.
    pub fn sides(
        var: &'v str,
        c: &BigRational,
        other: &Expr,
        value: &Expr,
        budget: &mut Budget,
    ) -> Result<Vec<Self>, TooLarge> {
        if other.contains(var, budget)? {
            return Ok(Vec::new());
        }
        let mut witnesses = Vec::new();
        gather_witnesses(value, &mut witnesses, budget)?;
        let domains = Domains {
            var,
            ends: [Expr::sym(INNER_END), other.clone()],
            exact: None,
            witnesses,
        };
        let on = |side: i8, also_other: bool| {
            let mut domains = domains.clone();
            domains
                .witnesses
                .push((beyond(&Expr::sym(INNER_END), c, side), Sign::Positive));
            if also_other {
                domains
                    .witnesses
                    .push((beyond(other, c, side), Sign::Positive));
            }
            BesideAnEnd { side, domains }
        };
        for side in [1, -1] {
            if domains.sign_of(&beyond(other, c, side), budget)? == Some(Sign::Positive) {
                return Ok(vec![on(side, false)]);
            }
        }
        if let Expr::Sym(name) = other {
            let at_end = value.substitute(name, &number(c), budget)?;
            if canon::is_zero_in(&at_end, Some(var), budget) == Ok(true)
                || has_no_value(&at_end, var, budget)?
            {
                return Ok(vec![on(1, true), on(-1, true)]);
            }
        }
        Ok(Vec::new())
    }

    /// The half-line beside `c` on the side `side` (`1` above, `−1` below): the intervals
    /// `[s, r]` with `s` and `r` both strictly beyond `c` (two fresh symbols).
    pub fn half_line(var: &'v str, c: &BigRational, side: i8) -> Self {
        let [s, r] = [Expr::sym(INNER_END), Expr::sym(FAR_END)];
        let witnesses = vec![
            (beyond(&s, c, side), Sign::Positive),
            (beyond(&r, c, side), Sign::Positive),
        ];
        BesideAnEnd {
            side,
            domains: Domains {
                var,
                ends: [s, r],
                exact: None,
                witnesses,
            },
        }
    }

    /// Whether `f` and `integrand` stay in their domains on every `[s, other]`: `f` is then
    /// continuous from `c` (excluded) to `other`, and the integrand is but at finitely many
    /// points.
    pub fn continuous(
        &self,
        f: &Expr,
        integrand: &Expr,
        budget: &mut Budget,
    ) -> Result<bool, TooLarge> {
        Ok(self.domains.continuous(f, Sign::Positive, budget)?
            && self
                .domains
                .continuous(integrand, Sign::NonNegative, budget)?)
    }
}

/// `e − c` for the side `1` (above `c`), `c − e` for `−1`: positive where `e` lies on that side.
fn beyond(e: &Expr, c: &BigRational, side: i8) -> Expr {
    let d = Expr::minus(e.clone(), number(c));
    if side == 1 { d } else { Expr::negated(d) }
}

/// Whether `e` has a node with no value: a negative power of something exactly 0 (`0^−1`,
/// `(0^2)^−1`), or its logarithm. A claimed value with the other bound at the end `c` read so
/// (`t·atan(t^−1)` at `t = 0`) claims nothing there, as a value is defined only where each of
/// its nodes is.
pub(super) fn has_no_value(e: &Expr, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
    budget.step()?;
    let at_zero = match e {
        Expr::Pow(p) if exact_value(&p.1).is_some_and(|r| r.is_negative()) => Some(&p.0),
        Expr::Call(Func::Log, xs) if xs.len() == 1 => Some(&xs[0]),
        _ => None,
    };
    if let Some(u) = at_zero
        && canon::is_zero_in(u, Some(var), budget) == Ok(true)
    {
        return Ok(true);
    }
    for x in e.children() {
        if has_no_value(x, var, budget)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether `k`, free of the variable, is defined wherever the claimed `value` is: each of its
/// nodes that is not defined everywhere (a function that is not entire, a power that is not
/// natural: `a^−1`, `sqrt(a)`) is a node of the value too (`∫_0^1 log(x)/a dx = −1/a`), or is
/// free of parameters with a ball (`sqrt(2)`). (`a/a` times `log x` is refused with the value
/// `−1`, which is defined at `a = 0`, where the integrand is not.)
pub fn defined_where_the_value_is(
    k: &Expr,
    value: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<bool, TooLarge> {
    budget.step()?;
    let partial = match k {
        Expr::Call(f, _) => !f.entire(),
        Expr::Pow(p) => !natural(&p.1),
        _ => false,
    };
    if partial {
        let shown = if has_parameters(k, var, budget)? {
            occurs_in(k, value, budget)?
        } else {
            Evaluator::new(128, &Bindings::new())
                .ball(k, budget)
                .is_ok()
        };
        if !shown {
            return Ok(false);
        }
    }
    for x in k.children() {
        if !defined_where_the_value_is(x, value, var, budget)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `e` is `within` or one of its subtrees, node for node.
fn occurs_in(e: &Expr, within: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
    if e.identical(within, budget)? {
        return Ok(true);
    }
    for x in within.children() {
        if occurs_in(e, x, budget)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The arguments of the nodes of a claimed value that are defined only where their argument
/// has a sign: `log w` (`w > 0`), `√w` (`w ≥ 0`), `asin w` and `acos w` (`1 − w² ≥ 0`),
/// `acosh w` (`w − 1 ≥ 0`), and
/// `w^r` for `r` exact, not an integer, with an even denominator (`w > 0` for `r < 0`, `w ≥ 0`
/// for `r > 0`; an odd root of a negative number is read by some as real, so it witnesses
/// nothing). An argument that is itself a logarithm, `log v`, has the sign of `v − 1` too
/// (`log(log t)` puts `t > 1`).
fn gather_witnesses(
    e: &Expr,
    out: &mut Vec<(Expr, Sign)>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    budget.step()?;
    let witness = match e {
        Expr::Call(Func::Log, xs) if xs.len() == 1 => Some((xs[0].clone(), Sign::Positive)),
        Expr::Call(Func::Sqrt, xs) if xs.len() == 1 => Some((xs[0].clone(), Sign::NonNegative)),
        Expr::Call(Func::Asin | Func::Acos, xs) if xs.len() == 1 => {
            Some((one_minus_square(&xs[0]), Sign::NonNegative))
        }
        Expr::Call(Func::Acosh, xs) if xs.len() == 1 => {
            Some((minus_one(&xs[0]), Sign::NonNegative))
        }
        Expr::Pow(p) => exact_value(&p.1)
            .filter(|r| !r.is_integer() && (r.denom() % 2u32).is_zero())
            .map(|r| {
                let sign = if r.is_negative() {
                    Sign::Positive
                } else {
                    Sign::NonNegative
                };
                (p.0.clone(), sign)
            }),
        _ => None,
    };
    if let Some((w, sign)) = witness {
        if let Expr::Call(Func::Log, vs) = &w
            && vs.len() == 1
        {
            out.push((minus_one(&vs[0]), sign));
        }
        out.extend(between_the_roots(&w, sign, budget)?);
        out.push((w, sign));
    }
    for x in e.children() {
        gather_witnesses(x, out, budget)?;
    }
    Ok(())
}

/// For a witness `w` that is a quotient of lines in one parameter `t` with a negative
/// coefficient, `k·(t − p)/(t − q)` with `k < 0` (`(1 − t)/(1 + t) ≥ 0` under the root of
/// `∫ √((1 − x)/(1 + x))`): `t` lies between the roots, `q` excluded, so `t − q` has the sign
/// of `p − q` strictly and `t − p` the other one (strictly where `w > 0`): `t + 1 > 0` and
/// `1 − t ≥ 0`. Empty for any other `w`.
fn between_the_roots(
    w: &Expr,
    sign: Sign,
    budget: &mut Budget,
) -> Result<Vec<(Expr, Sign)>, TooLarge> {
    let none = Ok(Vec::new());
    let Some(t) = first_parameter(w, "") else {
        return none;
    };
    if has_parameters(w, &t, budget)? {
        return none;
    }
    let mut factors = Vec::new();
    w.flat_factors(&mut factors);
    let mut k = BigRational::from_integer(1.into());
    let (mut above, mut below) = (None, None);
    for f in &factors {
        if let Some(r) = exact_value(f) {
            k *= r;
            continue;
        }
        let (line, is_below) = match integer_power(f) {
            Some((base, -1)) => (base, true),
            _ => (f.clone(), false),
        };
        let Some((a, b)) = linear(&line, &t, budget)? else {
            return none;
        };
        let slot = if is_below { &mut below } else { &mut above };
        if slot.is_some() {
            return none;
        }
        *slot = Some(-&b / &a);
        if is_below {
            k /= a;
        } else {
            k *= a;
        }
    }
    let (Some(p), Some(q)) = (above, below) else {
        return none;
    };
    if !k.is_negative() || p == q {
        return none;
    }
    let from = |r: &BigRational, up: bool| {
        let d = Expr::minus(Expr::sym(&t), number(r));
        if up { d } else { Expr::negated(d) }
    };
    Ok(vec![
        (from(&q, p > q), Sign::Positive),
        (from(&p, p < q), sign),
    ])
}

/// The interval and what the claimed value's definedness shows.
#[derive(Clone)]
struct Domains<'v> {
    var: &'v str,
    /// The bounds, in either order.
    ends: [Expr; 2],
    /// The bounds as exact numbers, `low ≤ high`, when they are numbers: balls over the
    /// interval need them.
    exact: Option<(BigRational, BigRational)>,
    witnesses: Vec<(Expr, Sign)>,
}

impl Domains<'_> {
    /// Whether every node of `e` stays in its domain over the interval (module docs), where a
    /// node that needs a positive argument may have one that is `strict` (`Sign::Positive` for
    /// the antiderivative; the integrand may lack a value at the finitely many zeros of a
    /// non-negative one, as the antiderivative is continuous there).
    fn continuous(&self, e: &Expr, strict: Sign, budget: &mut Budget) -> Result<bool, TooLarge> {
        budget.step()?;
        if !e.contains(self.var, budget)? {
            return Ok(true);
        }
        if !self.has_parameters(e, budget)? {
            // (continuous on the whole line by its form, whatever the bounds: `1/(1 + x²)`)
            if continuous_everywhere(e, self.var, budget)? {
                return Ok(true);
            }
            if self.exact.is_some() {
                return self.sign_or_defined_over(e, None, SIGN_DEPTH, budget);
            }
        }
        let argument = |x: &Expr, needed: Sign, budget: &mut Budget| -> Result<bool, TooLarge> {
            Ok(self.continuous(x, strict, budget)? && self.sign(x, budget)? >= Some(needed))
        };
        Ok(match e {
            Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) | Expr::Sym(_) => true,
            Expr::Add(xs) | Expr::Mul(xs) => {
                for x in xs.iter() {
                    if !self.continuous(x, strict, budget)? {
                        return Ok(false);
                    }
                }
                true
            }
            Expr::Pow(p) => {
                let (base, exponent) = (&p.0, &p.1);
                if exponent.contains(self.var, budget)? {
                    return Ok(false);
                }
                if natural(exponent) {
                    return self.continuous(base, strict, budget);
                }
                // (in the integrand, a negative integer power of a polynomial with exact
                // coefficients, not identically 0, lacks a value only at its roots)
                if strict == Sign::NonNegative
                    && exact_value(exponent).is_some_and(|r| r.is_integer() && r.is_negative())
                    && numeric_polynomial(base, self.var, budget)?
                        .is_some_and(|p| p.iter().any(|c| !c.is_zero()))
                {
                    return Ok(true);
                }
                let r = exact_value(exponent);
                let needed = match &r {
                    Some(r) if r.is_positive() && !r.is_integer() => Sign::NonNegative,
                    _ => strict,
                };
                // (an integer power needs only a base that is not 0: of one sign or the other)
                self.continuous(base, strict, budget)?
                    && (self.sign(base, budget)? >= Some(needed)
                        || (r.is_some_and(|r| r.is_integer())
                            && self.sign(&Expr::negated(base.clone()), budget)? >= Some(needed)))
            }
            Expr::Call(Func::Sqrt, xs) if xs.len() == 1 => {
                argument(&xs[0], Sign::NonNegative, budget)?
            }
            Expr::Call(Func::Log, xs) if xs.len() == 1 => argument(&xs[0], strict, budget)?,
            // (continuous where 1 − u² ≥ 0)
            Expr::Call(Func::Asin | Func::Acos, xs) if xs.len() == 1 => {
                self.continuous(&xs[0], strict, budget)?
                    && self.sign(&one_minus_square(&xs[0]), budget)? >= Some(Sign::NonNegative)
            }
            // (continuous where u ≥ 1)
            Expr::Call(Func::Acosh, xs) if xs.len() == 1 => {
                self.continuous(&xs[0], strict, budget)?
                    && self.sign(&minus_one(&xs[0]), budget)? >= Some(Sign::NonNegative)
            }
            // (dilog is continuous where u ≤ 1)
            Expr::Call(Func::Dilog, xs) if xs.len() == 1 => {
                self.continuous(&xs[0], strict, budget)?
                    && self.sign(&Expr::minus(Expr::int(1), xs[0].clone()), budget)?
                        >= Some(Sign::NonNegative)
            }
            Expr::Call(h, xs) if h.entire() && xs.len() == 1 => {
                self.continuous(&xs[0], strict, budget)?
            }
            Expr::Call(..) => false,
        })
    }

    /// Whether `e` has a symbol besides the variable, `pi` and `e`.
    fn has_parameters(&self, e: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        has_parameters(e, self.var, budget)
    }

    /// The sign `u` keeps over the interval for every value of the parameters the claimed
    /// value allows; `None` when none is shown. `u`'s nodes are in their domains there (each
    /// caller has shown it), so `(√v)²` is `v` ([`super::limit::plain`]: `1 − (√x)²` for
    /// `asin(√x)`).
    fn sign(&self, u: &Expr, budget: &mut Budget) -> Result<Option<Sign>, TooLarge> {
        let u = plain(u, budget)?;
        self.plain_sign(&u, budget)
    }

    /// [`Domains::sign`] of a `u` already read through [`plain`] (as its parts are).
    fn plain_sign(&self, u: &Expr, budget: &mut Budget) -> Result<Option<Sign>, TooLarge> {
        budget.step()?;
        // (free of the variable, a factor or a `u` in which it cancelled: positive, a number, a
        // constant with a ball or a witnessed argument; 0 would be identically 0)
        if !u.contains(self.var, budget)? {
            return Ok(self.sign_of(u, budget)?.filter(|s| *s == Sign::Positive));
        }
        match u {
            // (a root or a positive power keeps its base's sign; exp is positive)
            Expr::Call(Func::Sqrt, xs) if xs.len() == 1 => return self.plain_sign(&xs[0], budget),
            Expr::Pow(p)
                if exact_value(&p.1).is_some_and(|r| r.is_positive() && !r.is_integer()) =>
            {
                return self.plain_sign(&p.0, budget);
            }
            Expr::Call(Func::Exp, _) => return Ok(Some(Sign::Positive)),
            // (log is increasing and 0 at 1: log u has the sign of u − 1)
            Expr::Call(Func::Log, xs) if xs.len() == 1 => {
                if let Some(sign) = self.plain_sign(&minus_one(&xs[0]), budget)? {
                    return Ok(Some(sign));
                }
            }
            // (a product of factors with a sign: `exp(x)/(1 + exp(x))`)
            Expr::Mul(xs) => {
                let mut all = Some(Sign::Positive);
                for x in xs.iter() {
                    all = all.min(self.plain_sign(x, budget)?);
                    if all.is_none() {
                        break;
                    }
                }
                if all.is_some() {
                    return Ok(all);
                }
            }
            _ => {}
        }
        // (an even power of a base of one sign or the other, an odd one of a positive base; a
        // negative power, defined where the base is not 0, is positive where these are at
        // least 0: `1/x²`)
        if let Some((base, n)) = integer_power(u)
            && n != 0
        {
            let mut sign = self.plain_sign(&base, budget)?;
            if n % 2 == 0 {
                sign = sign.max(self.plain_sign(&Expr::negated(base.clone()), budget)?);
                // (an even power of a polynomial that is not constant for any value of the
                // parameters is at least 0 and 0 at finitely many points: `x²` about 0)
                if sign.is_none() && self.never_constant(&base, budget)? {
                    sign = Some(Sign::NonNegative);
                }
            }
            return Ok(if n < 0 {
                sign.map(|_| Sign::Positive)
            } else {
                sign
            });
        }
        if self.exact.is_some() && !self.has_parameters(u, budget)? {
            let positive = self.sign_or_defined_over(u, Some(1), SIGN_DEPTH, budget)?;
            return Ok(positive.then_some(Sign::Positive));
        }
        if sign_by_form(u) == Some(1)
            || (!self.has_parameters(u, budget)? && positive_everywhere(u, self.var, budget)?)
        {
            return Ok(Some(Sign::Positive));
        }
        // (v² − q² = (v − q)(v + q) keeps the sign of v − q where that is at least 0, and of
        // −v − q where that is: `(x + 2)² − 1` where `x + 2 ≥ 1`)
        if let Some((v, q)) = square_minus_a_square(u) {
            let q = number(&q);
            let sign = self
                .plain_sign(&Expr::minus(v.clone(), q.clone()), budget)?
                .max(self.plain_sign(&Expr::minus(Expr::negated(v), q), budget)?);
            if sign.is_some() {
                return Ok(sign);
            }
        }
        let Some(coefficients) = polynomial(u, self.var, budget)? else {
            // (a root above the rest: `x + √(1 + x²)`)
            if root_above_the_rest(u, self.var, budget)? {
                return Ok(Some(Sign::Positive));
            }
            // (a sum of terms at least 0, one of them positive: `√x + √(x + 1)`)
            if let Expr::Add(xs) = u {
                let (mut all, mut positive) = (true, false);
                for x in xs.iter() {
                    match self.plain_sign(x, budget)? {
                        Some(Sign::Positive) => positive = true,
                        Some(Sign::NonNegative) => {}
                        None => {
                            all = false;
                            break;
                        }
                    }
                }
                if all && positive {
                    return Ok(Some(Sign::Positive));
                }
            }
            return self.sign_of_a_monotone_sum(u, budget);
        };
        let [_, rest @ ..] = coefficients.as_slice() else {
            return Ok(None);
        };
        // A line lies between its values at the ends, whichever is lower (it is not
        // identically 0 where one of them is positive or its slope is a number); a quadratic
        // with a negative leading coefficient is concave: least at an end.
        let concave =
            matches!(rest, [_, leading] if exact_value(leading).is_some_and(|r| r.is_negative()));
        if rest.len() == 1 || concave {
            let [a, b] = &self.ends;
            let slope_a_number = exact_value(&rest[0]).is_some_and(|r| !r.is_zero());
            if let (Some(s), Some(t)) = (self.sign_at(u, a, budget)?, self.sign_at(u, b, budget)?)
                && (concave || s.max(t) == Sign::Positive || slope_a_number)
            {
                return Ok(Some(s.min(t)));
            }
        }
        // The parameters only in the constant term: u − u(c) is a polynomial P − P(c) with
        // exact coefficients, and u ≥ u(c) where P ≥ P(c), for an end c that is a number.
        let mut p = vec![BigRational::zero()];
        for c in rest {
            match canon::constant_value_in(c, Some(self.var), budget) {
                Ok(Some(c)) => p.push(c),
                _ => return Ok(None),
            }
        }
        let numeric_ends: Vec<BigRational> = match &self.exact {
            Some((low, high)) => vec![low.clone(), high.clone()],
            None => self.ends.iter().filter_map(exact_value).collect(),
        };
        let mut best = None;
        for end in &numeric_ends {
            if self.at_least_its_value_at(&p, end, budget)? {
                best = best.max(self.sign_at(u, &number(end), budget)?);
            }
        }
        Ok(best)
    }

    /// The sign of `u = h + P`, `h` free of the variable and `P` of the parameters, where `P` is
    /// monotone on the interval (its derivative's ball has a sign there: `a + exp(x)`), from
    /// `u`'s value at the end where it is least.
    fn sign_of_a_monotone_sum(
        &self,
        u: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<Sign>, TooLarge> {
        let Expr::Add(terms) = u else {
            return Ok(None);
        };
        let mut varying = Vec::new();
        for t in terms.iter() {
            if t.contains(self.var, budget)? {
                if self.has_parameters(t, budget)? {
                    return Ok(None);
                }
                varying.push(t.clone());
            }
        }
        let Some((low, high)) = &self.exact else {
            // (monotone by its derivative's form, whatever the bounds: between its values at
            // the ends, whichever is lower)
            if direction(&varying, self.var, budget)?.is_some() {
                let [a, b] = &self.ends;
                if let (Some(s), Some(t)) =
                    (self.sign_at(u, a, budget)?, self.sign_at(u, b, budget)?)
                {
                    return Ok(Some(s.min(t)));
                }
            }
            return Ok(None);
        };
        let Ok(slope) = derivative(&Expr::add(varying), self.var, budget) else {
            return Ok(None);
        };
        for (sign, least) in [(1, low), (-1, high)] {
            if self.sign_or_defined_over(&slope, Some(sign), SIGN_DEPTH, budget)? {
                return self.sign_at(u, &number(least), budget);
            }
        }
        Ok(None)
    }

    /// Whether the polynomial `p` (exact coefficients, not constant) is at least `p(c)` over
    /// the interval, `c` one of its ends: `p − p(c) = (x − c)^k·q` with `q(c) ≠ 0`, and `q` of
    /// the sign that makes the product non-negative on the interval (`(x − c)^k` is positive
    /// inside it from the low end, of sign `(−1)^k` from the high one).
    fn at_least_its_value_at(
        &self,
        p: &[BigRational],
        c: &BigRational,
        budget: &mut Budget,
    ) -> Result<bool, TooLarge> {
        let mut g = pf::trimmed(pf::sub(p, &[pf::value_at(p, c)]));
        if g.is_empty() {
            return Ok(false);
        }
        let line = [-c.clone(), BigRational::from_integer(1.into())];
        let mut k = 0u32;
        loop {
            budget.step()?;
            let (q, r) = pf::divide(&g, &line);
            if !pf::trimmed(r).is_empty() {
                break;
            }
            g = q;
            k += 1;
        }
        let q = pf::expression(&g, self.var);
        let Some((_, high)) = &self.exact else {
            // (the other end is no number, so the side of c is unknown: (x − c)^k ≥ 0 on either
            // side for an even k, and q must be at least 0 wherever the interval reaches:
            // `x² + a` from 0)
            return Ok(k.is_multiple_of(2) && self.sign(&q, budget)?.is_some());
        };
        let needed = if c == high && k % 2 == 1 { -1 } else { 1 };
        self.sign_or_defined_over(&q, Some(needed), SIGN_DEPTH, budget)
    }

    /// The sign `u` is shown to have at the end `c` for every value of the parameters that the
    /// claimed value allows: a number's own, or what a node of the value needs of an argument
    /// that the exact test shows is `u(c)`.
    fn sign_at(&self, u: &Expr, c: &Expr, budget: &mut Budget) -> Result<Option<Sign>, TooLarge> {
        let at = u.substitute(self.var, c, budget)?;
        self.sign_of(&at, budget)
    }

    /// The sign `at`, free of the variable, is shown to have for every value of the parameters
    /// that the claimed value allows ([`Domains::sign_at`]): a number's, a ball's, or that of a
    /// witness `w` (an argument of the value) of which `at` is `w` plus a number at least 0 or
    /// a positive multiple.
    fn sign_of(&self, at: &Expr, budget: &mut Budget) -> Result<Option<Sign>, TooLarge> {
        let at = at.clone();
        // (a number, perhaps written with a parameter that cancels: `a·0 + 1`)
        if let Ok(Some(v)) = canon::constant_value_in(&at, Some(self.var), budget) {
            return Ok(if v.is_positive() {
                Some(Sign::Positive)
            } else if v.is_zero() {
                Some(Sign::NonNegative)
            } else {
                None
            });
        }
        if sign_by_form(&at) == Some(1) {
            return Ok(Some(Sign::Positive));
        }
        if !self.has_parameters(&at, budget)? {
            let none = Bindings::new();
            let positive = Evaluator::new(128, &none)
                .ball(&at, budget)
                .is_ok_and(|b| b.sign() == 1);
            return Ok(positive.then_some(Sign::Positive));
        }
        let mut best = None;
        for (w, sign) in &self.witnesses {
            if best == Some(Sign::Positive) {
                break;
            }
            // `at = w + d` for a number d ≥ 0: of w's sign, positive for d > 0 (`s + 1`, s > 0)
            let difference = Expr::minus(at.clone(), w.clone());
            if let Ok(Some(d)) = canon::constant_value_in(&difference, Some(self.var), budget) {
                if d.is_positive() {
                    best = Some(Sign::Positive);
                } else if d.is_zero() {
                    best = best.max(Some(*sign));
                }
                continue;
            }
            // `at = k·w` for a number k > 0 (`2·t`, t > 0), checked by the exact test
            let ratio = Expr::mul(vec![at.clone(), Expr::recip(w.clone())]);
            if let Ok(Some(k)) = canon::constant_value_in(&ratio, Some(self.var), budget)
                && k.is_positive()
            {
                let multiple = Expr::mul(vec![number(&k), w.clone()]);
                if canon::is_zero_in(&Expr::minus(at.clone(), multiple), Some(self.var), budget)
                    == Ok(true)
                {
                    best = best.max(Some(*sign));
                }
            }
        }
        if best != Some(Sign::Positive) && self.beyond_a_monotone_witness(&at, budget)? {
            best = Some(Sign::Positive);
        }
        Ok(best)
    }

    /// Whether `at`, a line `a·t + b` in one parameter `t`, is positive because a witness
    /// `w(t) > 0`, continuous on the whole line, is monotone in `t` ([`direction`]) and 0 at the
    /// line's root `p = −b/a`: then `t` lies beyond `p` on the side where `w` grows, which is
    /// where the line is positive (alkahest's `∫ dx/((x + 1)·√(1 + x²))` has the value's
    /// `log(2 + 2√(1 + t²) + 2t − √8)`, increasing in `t` and 0 at `t = −1`: so `t + 1 > 0`).
    fn beyond_a_monotone_witness(&self, at: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        let Some((t, a, b)) = a_line_in_one_parameter(at, self.var, budget)? else {
            return Ok(false);
        };
        let root = number(&(-b / &a));
        for (w, sign) in &self.witnesses {
            // (continuous on the whole line, so monotone across it: `t − 1/t` grows on each
            // side of 0 but is positive at t = −1/2, left of its root 1)
            if *sign != Sign::Positive
                || !w.contains(&t, budget)?
                || has_parameters(w, &t, budget)?
                || !continuous_everywhere(w, &t, budget)?
            {
                continue;
            }
            let at_root = w.substitute(&t, &root, budget)?;
            if canon::is_zero_in(&at_root, None, budget) != Ok(true) {
                continue;
            }
            let Expr::Add(terms) = w else {
                continue;
            };
            let mut varying = Vec::new();
            for x in terms.iter() {
                if x.contains(&t, budget)? {
                    varying.push(x.clone());
                }
            }
            if let Some(d) = direction(&varying, &t, budget)?
                && (d > 0) == a.is_positive()
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether `u` is a polynomial in the variable with a coefficient of a positive power that
    /// is a number other than 0: not constant, so 0 at finitely many points, for any value of
    /// the parameters.
    fn never_constant(&self, u: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        Ok(polynomial(u, self.var, budget)?.is_some_and(|c| {
            c.iter()
                .skip(1)
                .any(|c| exact_value(c).is_some_and(|r| !r.is_zero()))
        }))
    }

    /// Whether `e` (free of parameters) has a ball over the interval, of the sign `sign` when
    /// one is asked for: over the whole, or each half, down to a `2^−depth` of it. `false` for
    /// bounds that are not numbers.
    fn sign_or_defined_over(
        &self,
        e: &Expr,
        sign: Option<i8>,
        depth: u32,
        budget: &mut Budget,
    ) -> Result<bool, TooLarge> {
        match &self.exact {
            Some((low, high)) => self.over(e, sign, low, high, depth, budget),
            None => Ok(false),
        }
    }

    fn over(
        &self,
        e: &Expr,
        sign: Option<i8>,
        a: &BigRational,
        b: &BigRational,
        depth: u32,
        budget: &mut Budget,
    ) -> Result<bool, TooLarge> {
        budget.step()?;
        if over_interval(self.var, a, b, e, budget)
            .is_some_and(|ball| sign.is_none_or(|s| ball.sign() == s))
        {
            return Ok(true);
        }
        if depth == 0 || a == b {
            return Ok(false);
        }
        let m = (a + b) / BigRational::from_integer(2.into());
        Ok(self.over(e, sign, a, &m, depth - 1, budget)?
            && self.over(e, sign, &m, b, depth - 1, budget)?)
    }
}

/// The sign of `u` wherever it is defined, by its form: a number other than 0, `exp` and
/// `cosh` of anything, a sum of terms never negative with a positive one (`1 + (a·x)²`,
/// `exp(2x) + 0`), and products of these (`−2·exp(2x)` is negative).
fn sign_by_form(u: &Expr) -> Option<i8> {
    match u {
        Expr::Call(Func::Exp | Func::Cosh, _) => Some(1),
        Expr::Add(xs) => (xs.iter().any(|x| sign_by_form(x) == Some(1))
            && xs
                .iter()
                .all(|x| sign_by_form(x) == Some(1) || never_negative(x)))
        .then_some(1),
        Expr::Mul(xs) => xs
            .iter()
            .try_fold(1, |sign, x| sign_by_form(x).map(|s| sign * s)),
        _ => exact_value(u).and_then(|r| {
            if r.is_positive() {
                Some(1)
            } else if r.is_negative() {
                Some(-1)
            } else {
                None
            }
        }),
    }
}

/// Whether `t` is at least 0 wherever it is defined, by its form.
fn never_negative(t: &Expr) -> bool {
    match t {
        Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) => {
            exact_value(t).is_some_and(|r| !r.is_negative())
        }
        Expr::Pow(p) => exact_value(&p.1).is_some_and(|r| {
            (r.is_integer() && (r.to_integer() % 2u32).is_zero()) || !r.is_integer()
        }),
        Expr::Call(Func::Exp | Func::Cosh | Func::Sqrt, _) => true,
        Expr::Mul(xs) => xs.iter().all(never_negative),
        _ => false,
    }
}

/// Whether `u` is a sum `V + b·√w` with one root term, `b` a positive number, and `b²·w − V²` a
/// positive number: then `b·√w > |V|`, so `u > 0` wherever it is defined (`x + √(1 + x²)`, the
/// argument of alkahest's `asinh` written as a logarithm).
fn root_above_the_rest(u: &Expr, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
    let Expr::Add(xs) = u else {
        return Ok(false);
    };
    let Some((b, w, rest)) = a_root_and_the_rest(xs, BigRational::is_positive) else {
        return Ok(false);
    };
    let rest = Expr::add(rest);
    let gap = Expr::minus(Expr::mul(vec![number(&(&b * &b)), w]), square(&rest));
    Ok(canon::constant_value_in(&gap, Some(var), budget)
        .is_ok_and(|g| g.is_some_and(|g| g.is_positive())))
}

/// `1` when the sum `varying` (terms in `var`, free of parameters) is increasing on the whole
/// line where it is defined, `−1` when decreasing, by the form of its derivative: one with a
/// sign by its form, or, for `P = L + c·√w` (`L` a polynomial, `c` a number), `P′ = L′ +
/// c·w′/(2√w)`, which has the sign of `2L′·√w + c·w′` wherever the root is positive, shown by
/// [`root_above_the_rest`] for it or its negation (`2x + 2√(1 + x²)`, alkahest's form of
/// `∫ dx/((x + 1)·√(1 + x²))`: `4√(1 + x²) + 4x`, as `16(1 + x²) − (4x)²` is 16).
fn direction(varying: &[Expr], var: &str, budget: &mut Budget) -> Result<Option<i8>, TooLarge> {
    let Ok(slope) = derivative(&Expr::add(varying.to_vec()), var, budget) else {
        return Ok(None);
    };
    if let Some(sign) = sign_by_form(&slope) {
        return Ok(Some(sign));
    }
    let Some((c, w, line)) = a_root_and_the_rest(varying, |_| true) else {
        return Ok(None);
    };
    let line = Expr::add(line);
    if polynomial(&line, var, budget)?.is_none() {
        return Ok(None);
    }
    let (Ok(dl), Ok(dw)) = (derivative(&line, var, budget), derivative(&w, var, budget)) else {
        return Ok(None);
    };
    for sign in [1i8, -1] {
        let k = BigRational::from_integer(sign.into());
        let e = Expr::add(vec![
            Expr::mul(vec![
                number(&(&k + &k)),
                dl.clone(),
                Expr::call(Func::Sqrt, w.clone()),
            ]),
            Expr::mul(vec![number(&(&k * &c)), dw.clone()]),
        ]);
        if root_above_the_rest(&e, var, budget)? {
            return Ok(Some(sign));
        }
    }
    Ok(None)
}

/// `e = a·t + b`, a line in its one parameter `t` (no other symbol but `pi` and `e`; not
/// `var`): `(t, a, b)`.
pub(super) fn a_line_in_one_parameter(
    e: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<(Rc<str>, BigRational, BigRational)>, TooLarge> {
    let Some(t) = first_parameter(e, var) else {
        return Ok(None);
    };
    if has_parameters(e, &t, budget)? {
        return Ok(None);
    }
    Ok(linear(e, &t, budget)?.map(|(a, b)| (t, a, b)))
}

/// The first symbol of `e` that is a parameter (not `var`, `pi` or `e`).
fn first_parameter(e: &Expr, var: &str) -> Option<Rc<str>> {
    if let Expr::Sym(s) = e {
        return is_parameter(s, var).then(|| s.clone());
    }
    e.children().find_map(|x| first_parameter(x, var))
}

/// A sum's first term `c·√w` (`c` a number that `accept`s) and its other terms; `None`
/// without one.
fn a_root_and_the_rest(
    xs: &[Expr],
    accept: impl Fn(&BigRational) -> bool,
) -> Option<(BigRational, Expr, Vec<Expr>)> {
    let (mut root, mut rest) = (None, Vec::new());
    for x in xs {
        let mut factors = Vec::new();
        x.flat_factors(&mut factors);
        let (numbers, others): (Vec<_>, Vec<_>) =
            factors.into_iter().partition(|f| exact_value(f).is_some());
        let coefficient = numbers
            .iter()
            .filter_map(exact_value)
            .fold(BigRational::from_integer(1.into()), |a, b| a * b);
        match others.as_slice() {
            [Expr::Call(Func::Sqrt, w)] if root.is_none() && accept(&coefficient) => {
                root = Some((coefficient, w[0].clone()));
            }
            _ => rest.push(x.clone()),
        }
    }
    let (c, w) = root?;
    Some((c, w, rest))
}

/// `u − 1`, which `acosh u` needs to be at least 0.
fn minus_one(u: &Expr) -> Expr {
    Expr::minus(u.clone(), Expr::int(1))
}

/// `u = v² − q²` for a number `q > 0` (`(x + 2)² − 1`, under the root of `acosh`'s
/// antiderivative): `v` and `q`.
fn square_minus_a_square(u: &Expr) -> Option<(Expr, BigRational)> {
    let Expr::Add(xs) = u else {
        return None;
    };
    let mut square = None;
    let mut rest = BigRational::zero();
    for x in xs.iter() {
        if let Some(r) = exact_value(x) {
            rest += r;
        } else if let Some((v, 2)) = integer_power(x)
            && square.is_none()
        {
            square = Some(v);
        } else {
            return None;
        }
    }
    let q = pf::exact_square_root(&-rest).filter(|q| q.is_positive())?;
    Some((square?, q))
}

/// `1 − u²`, which `asin u` and `acos u` need to be at least 0.
fn one_minus_square(u: &Expr) -> Expr {
    Expr::minus(Expr::int(1), square(u))
}
