//! The expression recipes of alkahest (`identity`, `zero`, `derivative`, `antiderivative`,
//! `definite_integral`), re-checked without alkahest: its grammar ([`parse`]), a differentiator
//! ([`diff`]), an exact zero test ([`canon`]), alkahest's numeric rule in f64 ([`eval`]), a
//! high-precision ball evaluation before anything is refuted ([`ball`]), and antiderivatives
//! shown continuous on the interval ([`integrate`]) or quadrature ([`quad`]) and validated
//! enclosures ([`enclosure`]) for definite integrals.
//!
//! Deciding a residual (spec §5.3, with deliberate differences, all towards the truth):
//! 1. `ok` when the exact test shows the residual is identically zero (alkahest needs its own
//!    `simplify` to print `0`, which misses `(x+1)^2 − x^2 − 2x − 1`).
//! 2. Otherwise every symbol of the recipe is bound, per sample `s`, to `s + rank × 0.11` (`pi`
//!    and `e` to their values, keeping their rank slot); a point whose value is not finite or
//!    that leaves a domain is skipped; the worst |residual| against the tolerance decides.
//! 3. Before `failed`, each failing point is evaluated again in ball arithmetic at 128, 256
//!    and 512 bits (and, where the last is still too wide, once at the width it asks for, up
//!    to 960): `failed` only when a ball lies wholly above the tolerance, `numeric_ok`
//!    when every ball falls within it, `inconclusive` otherwise. Rounding never refutes. A
//!    point that passes in f64 gets an f64 ball (cheap), and when that cannot clear it, a
//!    128-bit one, which fails it when it proves a residual that f64 cancellation hid. The
//!    special functions have validated values ([`validated`]); where the f64 methods stop,
//!    the 128-bit ball gives the point its value.
//! 4. When no point decides and the exact test leaves a constant `c`, the residual is `c`
//!    wherever it is defined: once a ball shows it defined somewhere, `|c|` against the
//!    tolerance decides (`Undecided::constant`); any other form the exact test leaves may
//!    still refute it at a point (`Undecided::reduced_refutes`). So may it where the pass
//!    rests on f64 alone, or left out a point where f64 overflowed but a ball shows the
//!    residual defined. At such a point a value past every ball may still be shown beyond
//!    the tolerance by bounds on its logarithm ([`magnitude`], `Undecided::too_large_for_f64`).
//! 5. A definite integral is `F(upper) − F(lower) − value` only for an antiderivative that
//!    differentiates exactly to the integrand and is shown continuous, with the integrand, on
//!    the closed interval (the integrand but at the roots of a polynomial denominator, so
//!    `sin(x)/x` across 0), or on it but for one end where `F` has a one-sided limit
//!    ([`limit`]: an improper integral). Otherwise a proved non-integrable pole in the
//!    interval, of the integrand or of an exact antiderivative ([`integrate::divergence`]),
//!    is `failed` (the integral does not exist; with other free symbols, at their
//!    values for a sample point, which refutes as a failing point does), and anything else goes to
//!    quadrature, at most `numeric_ok`; a quadrature estimate never refutes alone, `failed`
//!    needs a validated enclosure of the integral ([`enclosure`]), which also decides failures
//!    an antiderivative's balls cannot.

pub mod ball;
pub mod canon;
pub mod carlson;
pub mod diff;
pub mod domain;
pub mod elementary;
pub mod enclosure;
pub mod eval;
pub mod exponential_times_rational;
pub mod expr;
pub mod forward_substitution;
pub mod integrate;
pub mod inverse_substitution;
pub mod limit;
pub mod magnitude;
pub mod parametric;
pub mod parse;
pub mod partial_fractions;
pub mod polynomial_identity;
pub mod quad;
pub mod rational;
pub mod special;
pub mod validated;

use super::{Context, Outcome, Recheck, Recipe};
use crate::json::{Object, Value};
use eval::{Bindings, EvalError};
use expr::{Budget, Expr};
use sciproof_json::pyfmt::{format_g, format_g6};
use std::collections::BTreeSet;

/// One expression recipe kind.
pub struct Expression {
    kind: &'static str,
}

/// `identity`: `lhs − rhs` is zero.
pub static IDENTITY: Expression = Expression { kind: "identity" };
/// `zero`: `expr` is zero.
pub static ZERO: Expression = Expression { kind: "zero" };
/// `derivative`: d`expr`/d`var` is `value`.
pub static DERIVATIVE: Expression = Expression { kind: "derivative" };
/// `antiderivative`: d`antiderivative`/d`var` is `integrand`.
pub static ANTIDERIVATIVE: Expression = Expression {
    kind: "antiderivative",
};
/// `definite_integral`: the integral of `integrand` in `var` from `lower` to `upper` is `value`.
pub static DEFINITE_INTEGRAL: Expression = Expression {
    kind: "definite_integral",
};

/// The sample points alkahest uses by default.
pub const DEFAULT_SAMPLES: [f64; 3] = [0.37, 1.23, 2.71];
/// The offset between the values of consecutive symbols (by rank).
const SYMBOL_SPACING: f64 = 0.11;
/// The precisions tried, in bits, before a failure is accepted.
const PRECISIONS: [usize; 3] = [128, 256, 512];
/// The most bits [`confirm`] takes when 512 leave a ball too wide (the balls' radii are f64
/// numbers: a rounding error of `2^(2−bits)` relative must stay a normal one), which resolves
/// a tolerance of 10^-8 beside magnitudes up to about 10^260.
const MOST_BITS: usize = 960;
const _: () = assert!(MOST_BITS <= ball::MOST_BITS);
/// The detail of a recipe whose re-check ran out of its budget.
const TOO_LARGE: &str = "ValueError: the expression is too large to re-check";

impl Recipe for Expression {
    fn kind(&self) -> &'static str {
        self.kind
    }

    fn recheck(&self, check: &Object, context: &mut Context) -> Recheck {
        let options = context.options;
        let (outcome, detail) = match recheck(self.kind, check, options.tolerance, &options.samples)
        {
            Ok(decided) => decided,
            Err(message) => (Outcome::Inconclusive, message),
        };
        Recheck::new(outcome, self.kind, detail)
    }
}

/// The fields of one recipe, parsed into one symbol table.
struct Fields<'c> {
    check: &'c Object,
    symbols: BTreeSet<String>,
}

impl Fields<'_> {
    /// `check[key]` parsed, with alkahest's errors (`KeyError: 'rhs'`, `ParseError: ...`).
    fn get(&mut self, key: &str) -> Result<Expr, String> {
        let value = self
            .check
            .get(key)
            .ok_or_else(|| format!("KeyError: {}", sciproof_json::pyfmt::str_repr(key)))?;
        // alkahest hands the value to its tokenizer: an empty container is an empty
        // expression, any other container is refused by the regex, a scalar by `len()`.
        let text = match value {
            Value::String(s) => s.as_str(),
            Value::Array(a) if a.is_empty() => "",
            Value::Object(o) if o.is_empty() => "",
            Value::Array(_) | Value::Object(_) => {
                return Err(format!(
                    "TypeError: expected string or bytes-like object, got '{}'",
                    value.py_type_name()
                ));
            }
            other => {
                return Err(format!(
                    "TypeError: object of type '{}' has no len()",
                    other.py_type_name()
                ));
            }
        };
        parse::parse(text, &mut self.symbols).map_err(|e| format!("{}: {}", e.kind, e.message))
    }

    /// `var`, which must be a symbol.
    fn var(&mut self) -> Result<String, String> {
        match self.get("var")? {
            Expr::Sym(s) => Ok(s.to_string()),
            other => Err(format!(
                "ValueError: the variable must be a symbol, got {}",
                sciproof_json::pyfmt::str_repr(&other.to_string())
            )),
        }
    }
}

/// Re-checks one recipe; `Err` is an `inconclusive` detail.
pub fn recheck(
    kind: &str,
    check: &Object,
    tolerance: f64,
    samples: &[f64],
) -> Result<(Outcome, String), String> {
    let mut fields = Fields {
        check,
        symbols: BTreeSet::new(),
    };
    // One budget for all the recipe's work, so that no recipe takes long, whatever it holds.
    let budget = &mut Budget::standard();
    let too_large = |_| TOO_LARGE.to_string();
    let derivative = |e: &Expr, var: &str, budget: &mut Budget| {
        diff::derivative(e, var, budget).map_err(|e| match e {
            diff::DiffError::NoRule(f) => format!("DiffError: no derivative rule for {f}"),
            diff::DiffError::TooLarge => TOO_LARGE.into(),
        })
    };
    // (the function differentiated and what its derivative is claimed to be, if any)
    let mut differentiated = None;
    // (the residual, and the variable it was differentiated in, if any)
    let (residual, var) = match kind {
        "antiderivative" => {
            let integrand = fields.get("integrand")?;
            let antiderivative = fields.get("antiderivative")?;
            let var = fields.var()?;
            let derivative = derivative(&antiderivative, &var, budget)?;
            let residual = Expr::minus(derivative, integrand.clone());
            differentiated = Some((antiderivative, integrand));
            (residual, Some(var))
        }
        "definite_integral" => {
            let integrand = fields.get("integrand")?;
            let var = fields.var()?;
            let lower = fields.get("lower")?;
            let upper = fields.get("upper")?;
            let value = fields.get("value")?;
            let tolerance = recipe_tolerance(check, tolerance)?;
            let definite = integrate::DefiniteIntegral::new(&integrand, &var, &lower, &upper);
            let integral = Integral {
                definite,
                value: &value,
            };
            // The search for an antiderivative may take at most half of what is left: one
            // that runs out has found none, and quadrature still has the rest.
            let half = budget.left() / 2;
            let ends = budget
                .share(half, |budget| integral.definite.ends(&value, budget))
                .unwrap_or(None);
            let residual = |(at_upper, at_lower): (Expr, Expr)| {
                Expr::add(vec![
                    at_upper,
                    Expr::negated(at_lower),
                    Expr::negated(value.clone()),
                ])
            };
            let decide_residual = |residual: &Expr, budget: &mut Budget| {
                decide(
                    residual,
                    Some(&var),
                    &fields.symbols,
                    tolerance,
                    samples,
                    budget,
                )
            };
            let mut decided = ends.map(|ends| decide_residual(&residual(ends), budget));
            // Neither ok nor failed, the value's own antiderivative (a function of a bound that
            // is a symbol): its residual is 0 to the exact test when the value vanishes where
            // the bounds meet, whatever identity relates it to the table's antiderivative.
            if decided
                .as_ref()
                .is_none_or(|d| !matches!(d.0, Outcome::Ok | Outcome::Failed))
            {
                let half = budget.left() / 2;
                let by_value = budget
                    .share(half, |budget| {
                        integral.definite.ends_by_the_value(&value, budget)
                    })
                    .unwrap_or(None);
                if let Some(ends) = by_value {
                    let by_value = decide_residual(&residual(ends), budget);
                    if by_value.0 == Outcome::Ok || decided.is_none() {
                        decided = Some(by_value);
                    }
                }
            }
            let Some(decided) = decided else {
                if let Some(why) =
                    integrate::divergence(&integral.definite, budget).map_err(too_large)?
                {
                    return Ok((
                        Outcome::Failed,
                        format!(
                            "the integral does not exist: {}",
                            divergence_text(&why, &var)
                        ),
                    ));
                }
                if let Some((values, why)) =
                    integral.divergent_at_a_point(&fields.symbols, samples, budget)?
                {
                    return Ok((
                        Outcome::Failed,
                        format!(
                            "the integral does not exist at {values}: {}",
                            divergence_text(&why, &var)
                        ),
                    ));
                }
                let decided = integral.decide(&fields.symbols, tolerance, samples, budget);
                // (why it is undecided, where that is shown within the budget left)
                if decided.0 == Outcome::Inconclusive
                    && let Some(stretch) = budget
                        .share(budget.left(), |budget| {
                            integrate::no_real_value(&integral.definite, budget)
                        })
                        .unwrap_or(None)
                {
                    return Ok((Outcome::Inconclusive, no_real_value_text(&stretch, &var)));
                }
                return Ok(decided);
            };
            if decided.0 == Outcome::Inconclusive {
                // An antiderivative that no ball can evaluate (`erf` has no error bound here)
                // cannot confirm a failure; an enclosure of the integral itself can.
                let enclosed = integral.decide(&fields.symbols, tolerance, samples, budget);
                if enclosed.0 == Outcome::Failed {
                    return Ok(enclosed);
                }
            }
            return Ok(decided);
        }
        "derivative" => {
            let expr = fields.get("expr")?;
            let value = fields.get("value")?;
            let var = fields.var()?;
            let residual = Expr::minus(derivative(&expr, &var, budget)?, value.clone());
            differentiated = Some((expr, value));
            (residual, Some(var))
        }
        "identity" => {
            let lhs = fields.get("lhs")?;
            let rhs = fields.get("rhs")?;
            (Expr::minus(lhs, rhs), None)
        }
        "zero" => (fields.get("expr")?, None),
        other => return Err(format!("unknown check kind '{other}'")),
    };
    let tolerance = recipe_tolerance(check, tolerance)?;
    let decided = decide(
        &residual,
        var.as_deref(),
        &fields.symbols,
        tolerance,
        samples,
        budget,
    );
    // A function that is 0 wherever it has a value has the derivative 0 there, though the
    // chain rule may leave none anywhere: d/dx sqrt(P) = P'/(2 sqrt P) for a P that is
    // identically 0 (`sqrt((x − 2)^2 + 2(x − 2)(2 − x) + (2 − x)^2)`, which alkahest
    // simplifies first), or one the exact test cannot bring to 0 though it shows the function
    // 0 (`d/dx (atan u − asin(u/sqrt(1 + u^2)))`). So a residual left undecided or passed by
    // numbers alone is `ok` when the exact test shows both the function and what its
    // derivative is claimed to be 0 (a `failed` stands: a claimed value that is not 0 where
    // the function is 0 around a point is wrong there).
    if matches!(decided.0, Outcome::Inconclusive | Outcome::NumericOk)
        && let Some((function, claimed)) = differentiated
        && canon::is_zero_in(&claimed, var.as_deref(), budget) == Ok(true)
        && canon::is_zero_in(&function, var.as_deref(), budget) == Ok(true)
    {
        return Ok((Outcome::Ok, EXACT_ZERO.into()));
    }
    Ok(decided)
}

/// The detail of an `ok`, as alkahest words it.
const EXACT_ZERO: &str = "symbolic residual simplified to 0";

/// `p/q`, or `p` for an integer.
fn rational_text(r: &num_rational::BigRational) -> String {
    if r.is_integer() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

/// The recipe's own `tolerance` when it has one (a deliberate extension: alkahest ignores it
/// for expression recipes), else the pass's.
fn recipe_tolerance(check: &Object, tolerance: f64) -> Result<f64, String> {
    match check.get("tolerance") {
        None => Ok(tolerance),
        Some(v) => super::numeric_relation::py_float(v),
    }
}

/// The bindings of every point: symbol `name` at `sample + rank × 0.11`, `pi` and `e` at their
/// values (keeping their rank slots).
fn points(symbols: &BTreeSet<String>, samples: &[f64]) -> Vec<Bindings> {
    samples
        .iter()
        .map(|&s| {
            symbols
                .iter()
                .enumerate()
                .map(|(rank, name)| {
                    let v = eval::constant(name).unwrap_or(s + rank as f64 * SYMBOL_SPACING);
                    (name.clone(), v)
                })
                .collect()
        })
        .collect()
}

/// What higher precision said about a point.
enum Confirmed {
    /// |residual| ≥ the value > tolerance, shown at this many bits.
    Failed(f64, usize),
    /// |residual| ≤ the value ≤ tolerance, shown at this many bits.
    Cleared(f64, usize),
    /// Not decided, and why.
    Undecided(String),
}

/// The residual at `point` as a ball at each of `precisions` in turn, until one decides; and
/// where the last one was still too wide (a tolerance beside huge magnitudes: `exp(600)·x`
/// hiding `x`), once more at the precision its width asks for, up to [`MOST_BITS`].
fn confirm(
    residual: &Expr,
    point: &Bindings,
    tolerance: f64,
    precisions: &[usize],
    budget: &mut Budget,
) -> Confirmed {
    let mut why = String::from("the error bound stayed wider than the margin to the tolerance");
    // What a ball at `bits` decided; or the width it left.
    let mut at = |bits: usize, budget: &mut Budget| -> Result<Confirmed, Option<f64>> {
        match ball::Evaluator::new(bits, point).ball(residual, budget) {
            Ok(b) if b.lower() > tolerance => Ok(Confirmed::Failed(b.approx().abs(), bits)),
            Ok(b) if b.upper() <= tolerance => Ok(Confirmed::Cleared(b.upper(), bits)),
            // (within the f64 bounds' margin of the tolerance: decided on the midpoint)
            Ok(b) => match b.compared_with(tolerance) {
                Some(true) => Ok(Confirmed::Failed(b.approx().abs(), bits)),
                Some(false) => Ok(Confirmed::Cleared(tolerance, bits)),
                None => Err(Some(b.radius())),
            },
            Err(ball::BallError::Unsupported(f)) => Ok(Confirmed::Undecided(format!(
                "no error bound for {f} in this build"
            ))),
            Err(ball::BallError::TooLarge) => {
                Ok(Confirmed::Undecided("the expression is too large".into()))
            }
            Err(ball::BallError::Undecided) => {
                why = "a pole or a domain boundary lies within the error bound".into();
                Err(None)
            }
        }
    };
    let mut too_wide = None;
    for &bits in precisions {
        match at(bits, budget) {
            Ok(decided) => return decided,
            Err(width) => too_wide = width.map(|radius| (bits, radius)),
        }
    }
    if let Some(bits) = too_wide.and_then(|(bits, radius)| wider(bits, radius, tolerance)) {
        // (on half of what is left, so that the other points keep theirs; and only a decision
        // replaces the reason the last precision gave)
        let decided = budget.share(budget.left() / 2, |budget| at(bits, budget));
        if let Ok(decided @ (Confirmed::Failed(..) | Confirmed::Cleared(..))) = decided {
            return decided;
        }
    }
    Confirmed::Undecided(why)
}

/// The precision at which a ball `radius` wide at `bits` should shrink to `2^−16` of the
/// tolerance (the radius shrinks as `2^−bits`), in whole words; `None` past [`MOST_BITS`].
fn wider(bits: usize, radius: f64, tolerance: f64) -> Option<usize> {
    let more = (radius / tolerance).log2() + 16.0;
    if !(more.is_finite() && more > 0.0) {
        return None;
    }
    let wanted = (bits as f64 + more).ceil() as usize;
    let wanted = wanted.div_ceil(64) * 64;
    (wanted <= MOST_BITS).then_some(wanted)
}

/// Whether an f64 ball (cheap) already shows |residual| ≤ tolerance at `point`: then a point
/// that passed in f64 needs no high-precision look.
fn cleared_in_f64(residual: &Expr, point: &Bindings, tolerance: f64, budget: &mut Budget) -> bool {
    ball::Evaluator::with(ball::Double, point)
        .ball(residual, budget)
        .is_ok_and(|b| b.upper() <= tolerance)
}

/// §5.3 with the exact test and the precision escalation; where that leaves the residual
/// undecided, [`Undecided`]. `var` is the variable the recipe differentiates or
/// integrates in: the exact test reads it as a variable even if it is `pi` or `e`
/// ([`canon::is_zero_in`]).
fn decide(
    residual: &Expr,
    var: Option<&str>,
    symbols: &BTreeSet<String>,
    tolerance: f64,
    samples: &[f64],
    budget: &mut Budget,
) -> (Outcome, String) {
    // (the exact test may not take the numeric rule's part of the budget)
    let exact = budget.share(budget.left() / 2, |budget| {
        canon::is_zero_in(residual, var, budget)
    });
    if exact == Ok(true) {
        return (Outcome::Ok, EXACT_ZERO.into());
    }
    let (decided, doubts) = numeric_rule(residual, symbols, tolerance, samples, budget);
    let undecided = Undecided {
        residual,
        var,
        symbols,
        tolerance,
        samples,
    };
    match decided.0 {
        Outcome::Inconclusive => undecided
            .constant(budget)
            .or_else(|| undecided.residual_too_large(&doubts.overflowed, budget))
            .or_else(|| undecided.reduced_refutes(&doubts.overflowed, budget))
            .unwrap_or(decided),
        // A pass that rests on f64's word alone gives way to a constant the exact test shows
        // beyond the tolerance (`exp(700)·(x+1) − exp(700)·x − exp(700) − 1` is 0 in f64 and
        // undecided at every precision; it is −1), or to its reduced form refuted at a point
        // (`10^300·cos x − (10^300·cos x + x/1000)` is 0 in f64; it is −x/1000). So does a
        // pass on fewer points than the residual has values at, where f64 overflowed; and
        // there the size of the residual may refute it (`x^(10^12)` at x = 1.23).
        Outcome::NumericOk if doubts.f64_alone || !doubts.overflowed.is_empty() => {
            match undecided.constant(budget) {
                Some(refuted @ (Outcome::Failed, _)) => refuted,
                _ => undecided
                    .residual_too_large(&doubts.overflowed, budget)
                    .or_else(|| undecided.reduced_refutes(&doubts.overflowed, budget))
                    .unwrap_or(decided),
            }
        }
        _ => decided,
    }
}

/// A residual the numeric rule left undecided, or passed on f64's word alone, and what it
/// was read with.
struct Undecided<'a> {
    residual: &'a Expr,
    var: Option<&'a str>,
    symbols: &'a BTreeSet<String>,
    tolerance: f64,
    samples: &'a [f64],
}

impl Undecided<'_> {
    /// What the exact test `read`s of the residual, on at most half the budget left (so that
    /// the ball that follows keeps its share).
    fn exact_test<T>(
        &self,
        read: impl FnOnce(&Expr, Option<&str>, &mut Budget) -> Result<Option<T>, canon::NotExact>,
        budget: &mut Budget,
    ) -> Option<T> {
        budget
            .share(budget.left() / 2, |budget| {
                read(self.residual, self.var, budget)
            })
            .ok()?
    }

    /// The points where a residual the numeric rule left undecided may be shown defined: the
    /// sample points, then each with every sample negated (`pi` and `e` keep their values), so
    /// that a residual defined only where its symbols are negative (`sqrt(−x)`, `log((x + y)·cos
    /// 2)`) has a point too; each with whether it is negated.
    fn probes(&self) -> Vec<(Bindings, bool)> {
        let negated = points(self.symbols, self.samples).into_iter().map(|mut p| {
            for (name, v) in p.iter_mut() {
                if eval::constant(name).is_none() {
                    *v = -*v;
                }
            }
            (p, true)
        });
        points(self.symbols, self.samples)
            .into_iter()
            .map(|p| (p, false))
            .chain(negated)
            .collect()
    }

    /// A residual the numeric rule cannot decide (`Γ(10^6) − Γ(10^6) − 1` overflows every sample,
    /// `A − A − 10^-20` with `A` near 10^300 defeats every ball) may still reduce, by the exact
    /// test, to a constant `c`: it is `c` wherever it is defined. That decides it once a point
    /// where it is defined is shown (a sample point, or one with every sample negated, so that
    /// `sqrt(−x) − sqrt(−x) − 1` is refuted at `x = −0.37`): `failed` when `|c|` exceeds the
    /// tolerance, `numeric_ok` otherwise. (alkahest's simplifier cancels such terms first, then
    /// evaluates the constant.) A residual defined at none of those points stays undecided.
    fn constant(&self, budget: &mut Budget) -> Option<(Outcome, String)> {
        use num_traits::{Signed, ToPrimitive};
        let c = self.exact_test(canon::constant_value_in, budget)?;
        let shown = self
            .probes()
            .iter()
            .any(|(point, _)| defined_at(self.residual, point, budget));
        if !shown {
            return None;
        }
        let size = c.abs().to_f64().unwrap_or(f64::INFINITY);
        let tolerance = self.tolerance;
        let above = num_rational::BigRational::from_float(tolerance).is_none_or(|t| c.abs() > t);
        let exact = format!(
            "the exact test leaves the constant {} wherever the residual is defined",
            rational_text(&c)
        );
        Some(if above {
            (
                Outcome::Failed,
                format!(
                    "|residual| = {} exceeds tolerance {} ({exact}; a ball shows it defined at a sample point or its negative)",
                    format_g(size, 6),
                    format_g6(tolerance)
                ),
            )
        } else {
            (
                Outcome::NumericOk,
                format!(
                    "|residual| = {} within tolerance {} ({exact})",
                    format_g(size, 3),
                    format_g6(tolerance)
                ),
            )
        })
    }

    /// At a point the numeric rule left out because f64 overflowed (the residual has a value
    /// there, [`Doubts::overflowed`]), bounds on the logarithm of the size of `e` (the residual,
    /// or its reduced form: [`Undecided::reduced_refutes`]) ([`magnitude`]): a lower bound above
    /// the tolerance's refutes the claim (`x^(10^12)` is 10^(9·10^10) at x = 1.23, where
    /// alkahest's rule sees no value and passes it on 0.37^(10^12)). The bound, if one does.
    fn too_large_for_f64(
        &self,
        e: &Expr,
        overflowed: &[Bindings],
        budget: &mut Budget,
    ) -> Option<String> {
        let floor = magnitude::ln_at_most(self.tolerance);
        overflowed
            .iter()
            .find_map(|point| match magnitude::size(e, point, budget)? {
                magnitude::Size::Known { lo, .. } if lo > floor => {
                    Some(magnitude::power_of_ten_below(lo))
                }
                _ => None,
            })
    }

    /// [`Undecided::too_large_for_f64`] of the residual itself.
    fn residual_too_large(
        &self,
        overflowed: &[Bindings],
        budget: &mut Budget,
    ) -> Option<(Outcome, String)> {
        let bound = self.too_large_for_f64(self.residual, overflowed, budget)?;
        Some((
            Outcome::Failed,
            format!(
                "|residual| >= {bound} exceeds tolerance {} (at a sample point where f64 \
                 overflows: a lower bound on its logarithm from 128-bit ball arithmetic)",
                format_g6(self.tolerance)
            ),
        ))
    }

    /// Where the numeric rule could not decide, or its pass is unsure ([`numeric_rule`]): the
    /// exact test's reduced form ([`canon::reduced_expression_in`]), which equals the residual
    /// wherever the residual is defined and has lost the terms that cancel, at each sample
    /// point where a ball shows the residual defined, or where it is defined at none, at each
    /// such point with every sample negated ([`Undecided::probes`]:
    /// `tanh(log((x + y)·cos 2)) − (tanh(log((x + y)·cos 2)) + 3·10⁻⁷·y)` has values only
    /// where `x + y < 0`). A ball of it beyond the tolerance refutes the claim; nothing else is
    /// concluded from it.
    ///
    /// At a point f64 overflowed, a reduced form too large for a ball may still be shown beyond
    /// the tolerance by its size ([`Undecided::too_large_for_f64`]): terms of like size that
    /// cancel in the residual leave no bound there, but the reduced form has lost them
    /// (`(x^1000 + 1)^999 − (x^1000 + 1)^999 + x^4000` is `x^4000`).
    fn reduced_refutes(
        &self,
        overflowed: &[Bindings],
        budget: &mut Budget,
    ) -> Option<(Outcome, String)> {
        let tolerance = self.tolerance;
        let reduced = self.exact_test(canon::reduced_expression_in, budget)?;
        // (the points with every sample negated only where no sample point has a value: a
        // claim the samples can check is held to alkahest's points, whatever it says of
        // negative values)
        let mut any_defined = false;
        for (point, negated) in self.probes() {
            if negated && any_defined {
                break;
            }
            if !defined_at(self.residual, &point, budget) {
                continue;
            }
            any_defined = true;
            if let Confirmed::Failed(x, bits) =
                confirm(&reduced, &point, tolerance, &PRECISIONS, budget)
            {
                let place = if negated {
                    "a sample point negated"
                } else {
                    "a sample point"
                };
                return Some((
                    Outcome::Failed,
                    format!(
                        "|residual| = {} exceeds tolerance {} (the exact test's reduced form, which \
                     equals the residual wherever it is defined, confirmed with {bits}-bit ball \
                     arithmetic at {place} where a ball shows the residual defined)",
                        format_g(x, 6),
                        format_g6(tolerance)
                    ),
                ));
            }
        }
        let bound = self.too_large_for_f64(&reduced, overflowed, budget)?;
        Some((
            Outcome::Failed,
            format!(
                "|residual| >= {bound} exceeds tolerance {} (at a sample point where f64 \
                 overflows: a lower bound on the logarithm of the exact test's reduced form, \
                 which equals the residual wherever it is defined, from 128-bit ball arithmetic)",
                format_g6(tolerance)
            ),
        ))
    }
}

/// Why a pass of the numeric rule is not the whole story.
#[derive(Default)]
struct Doubts {
    /// A point passed on f64's word alone (its f64 ball too wide and no precision deciding it).
    f64_alone: bool,
    /// The points left out because f64 overflowed, where a ball shows the residual defined (it
    /// has a value there, only too large for f64 somewhere on the way).
    overflowed: Vec<Bindings>,
}

/// Whether a ball shows `residual` defined at `point` (every operation's argument in its
/// domain, whatever the size of the values: [`ball::Evaluator::defined`]).
fn defined_at(residual: &Expr, point: &Bindings, budget: &mut Budget) -> bool {
    ball::Evaluator::new(PRECISIONS[0], point).defined(residual, budget)
}

/// alkahest's numeric rule, with the precision escalation before a failure; and why its pass
/// may not be the whole story ([`Doubts`]).
fn numeric_rule(
    residual: &Expr,
    symbols: &BTreeSet<String>,
    tolerance: f64,
    samples: &[f64],
    budget: &mut Budget,
) -> ((Outcome, String), Doubts) {
    let mut values = Vec::new();
    let mut missing = None;
    // Points skipped because f64 overflowed where a ball shows the residual defined: a pass
    // on the other points is not the whole story there (`exp(625x⁴) − (exp(625x⁴) + 10⁻⁸x²)`
    // passes at x = 0.37 alone).
    let mut doubts = Doubts::default();
    for point in points(symbols, samples) {
        match eval::evaluate(residual, &point, budget) {
            Ok(v) => values.push((v.abs(), point)),
            // Where the f64 methods stop (Si past 16, say), the 128-bit ball gives the value
            // (and it is checked at high precision below like any other).
            Err(EvalError::NoEvaluator(f)) => {
                match ball::Evaluator::new(PRECISIONS[0], &point).ball(residual, budget) {
                    Ok(b) if b.radius() <= b.approx().abs() * 1e-12 + 1e-300 => {
                        values.push((b.approx().abs(), point))
                    }
                    Err(ball::BallError::TooLarge) => {
                        return ((Outcome::Inconclusive, TOO_LARGE.into()), Doubts::default());
                    }
                    _ => missing = Some(f),
                }
            }
            // (a point is never skipped for want of budget: that would decide on fewer)
            Err(EvalError::TooLarge) => {
                return ((Outcome::Inconclusive, TOO_LARGE.into()), Doubts::default());
            }
            // (an overflow shows as an infinity, or as the NaN of ∞ − ∞ on the way)
            Err(EvalError::NotFinite | EvalError::Domain) => {
                if defined_at(residual, &point, budget) {
                    doubts.overflowed.push(point);
                }
            }
            Err(_) => {}
        }
    }
    if values.is_empty() {
        let why = missing
            .map(|f| format!("; this build cannot evaluate {f} there"))
            .unwrap_or_default();
        return (
            (
                Outcome::Inconclusive,
                format!("residual did not simplify to 0 (got {residual}); no numeric sample{why}"),
            ),
            doubts,
        );
    }
    let n = values.len();
    let place = format!("{n} of {} sample point(s)", samples.len());
    let mut worst = 0.0f64;
    let mut failed: Option<(f64, usize)> = None;
    let mut cleared_at = None;
    let mut undecided = None;
    // The worst failing point first: one confirmed failure refutes the claim, and the points
    // after it could change nothing but the worst value named (a 128-bit look at every point
    // of a false recipe was most of the time of re-checking one).
    let mut order: Vec<&(f64, Bindings)> = values.iter().collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (v, point) in order {
        if failed.is_some() {
            break;
        }
        // A point that fails in f64 is escalated through every precision before it may refute;
        // one that passes is checked too, because f64 cancellation can also hide a real
        // residual (`A − (A + 1e-6)` with A ≈ 1e17 is 0 in f64): by an f64 ball first, and
        // through every high precision when that ball is too wide to clear it (the 1 that
        // `(x+2)^256 − (x+2)^255·(x+2) − 1` hides next to 10^96 needs 512 bits). A pass no
        // precision decides stays a pass, as in alkahest's rule.
        let passes = *v <= tolerance;
        if passes && cleared_in_f64(residual, point, tolerance, budget) {
            worst = worst.max(*v);
            continue;
        }
        match confirm(residual, point, tolerance, &PRECISIONS, budget) {
            Confirmed::Failed(x, bits) => failed = Some((x, bits)),
            Confirmed::Undecided(_) if passes => {
                worst = worst.max(*v);
                doubts.f64_alone = true;
            }
            _ if passes => worst = worst.max(*v),
            Confirmed::Cleared(x, bits) => {
                worst = worst.max(x);
                cleared_at = Some(cleared_at.unwrap_or(bits).max(bits));
            }
            // The detail names the worst such point, as alkahest's names the worst residual.
            Confirmed::Undecided(why) => {
                if undecided.as_ref().is_none_or(|(w, _)| v > w) {
                    undecided = Some((*v, why));
                }
            }
        }
    }
    if let Some((w, bits)) = failed {
        return (
            (
                Outcome::Failed,
                format!(
                    "|residual| = {} at {place} exceeds tolerance {} (confirmed with {bits}-bit ball arithmetic)",
                    format_g(w, 6),
                    format_g6(tolerance)
                ),
            ),
            Doubts::default(),
        );
    }
    if let Some((v, why)) = undecided {
        return (
            (
                Outcome::Inconclusive,
                format!(
                    "|residual| = {} in f64 at {place} exceeds tolerance {}, but higher precision could not confirm it ({why}): not refuted",
                    format_g(v, 6),
                    format_g6(tolerance)
                ),
            ),
            doubts,
        );
    }
    let cleared = cleared_at
        .map(|bits| format!("; f64 rounding error cleared at {bits}-bit precision"))
        .unwrap_or_default();
    (
        (
            Outcome::NumericOk,
            format!(
                "|residual| <= {} at {place}, free symbols at distinct values (numeric evidence, not a proof){cleared}",
                format_g(worst, 3)
            ),
        ),
        doubts,
    )
}

/// Why the integral does not exist, in words.
fn divergence_text(why: &integrate::Divergence, var: &str) -> String {
    match why {
        integrate::Divergence::Integrand(pole) => pole_text(pole, var),
        integrate::Divergence::Antiderivative(pole) => {
            let at = pole_place(pole, var);
            format!(
                "an exact antiderivative has a pole at {at} in the interval (unbounded there, \
                 so the integrand is not integrable)"
            )
        }
    }
}

/// Why an integral over a stretch where the integrand has no real value stays undecided
/// ([`integrate::no_real_value`]).
fn no_real_value_text(stretch: &integrate::NoRealValue, var: &str) -> String {
    format!(
        "the integrand has no real value for {var} from {} to {} ({} throughout): the \
         integral is no real number, and this build does not integrate complex values",
        rational_text(&stretch.from),
        rational_text(&stretch.to),
        stretch.why
    )
}

/// How a proved pole of the integrand is named in a detail.
fn pole_text(pole: &integrate::Pole, var: &str) -> String {
    let order = match pole.order_known {
        true => pole.order.to_string(),
        false => format!("at least {}", pole.order),
    };
    let at = pole_place(pole, var);
    format!("the integrand has a non-integrable pole of order {order} at {at} in the interval")
}

/// `x = c`, or `x ≈ c` where the pole is isolated in an interval.
fn pole_place(pole: &integrate::Pole, var: &str) -> String {
    use num_traits::ToPrimitive;
    let at = if pole.exact {
        // (a root at a sample point's value is that binary number, written as Python would)
        let float = pole.at.to_f64().filter(|f| {
            pole.at.denom().bits() > 20
                && num_rational::BigRational::from_float(*f).as_ref() == Some(&pole.at)
        });
        match float {
            Some(f) => format!("= {}", sciproof_json::pyfmt::float_repr(f)),
            None => format!("= {}", rational_text(&pole.at)),
        }
    } else {
        format!("≈ {}", format_g(pole.at.to_f64().unwrap_or(f64::NAN), 6))
    };
    format!("{var} {at}")
}

/// A definite integral decided by quadrature.
struct Integral<'e> {
    definite: integrate::DefiniteIntegral<'e>,
    value: &'e Expr,
}

impl Integral<'_> {
    /// A non-integrable pole ([`integrate::divergent_pole`]) of the integral with its free
    /// symbols other than the variable (and `pi`, `e`) bound to their values at a sample point,
    /// the first point in sample order where one is shown, with those values as text: its
    /// bounds must be numbers there and the claimed value finite. The integral does not exist
    /// at that point, which refutes the claim as a confirmed failing point of the numeric rule
    /// does. (The pole's proof needs balls of the integrand's other factors and terms, which a
    /// symbol without a value has none of.)
    fn divergent_at_a_point(
        &self,
        symbols: &BTreeSet<String>,
        samples: &[f64],
        budget: &mut Budget,
    ) -> Result<Option<(String, integrate::Divergence)>, String> {
        let too_large = |_| TOO_LARGE.to_string();
        let var = self.definite.var;
        let free = self.free_symbols(symbols);
        if free.is_empty() {
            return Ok(None);
        }
        for point in points(symbols, samples) {
            match eval::evaluate(self.value, &point, budget) {
                Ok(v) if v.is_finite() => {}
                Err(EvalError::TooLarge) => return Err(TOO_LARGE.into()),
                _ => continue,
            }
            let [integrand, lower, upper, _] =
                &self.at_values(&free, &point, budget).map_err(too_large)?;
            let definite = integrate::DefiniteIntegral::new(integrand, var, lower, upper);
            if let Some(pole) = integrate::divergence(&definite, budget).map_err(too_large)? {
                let values: Vec<String> = free
                    .iter()
                    .map(|name| {
                        let v = point.get(*name).copied().unwrap_or(f64::NAN);
                        format!("{name} = {}", sciproof_json::pyfmt::float_repr(v))
                    })
                    .collect();
                return Ok(Some((values.join(", "), pole)));
            }
        }
        Ok(None)
    }

    /// The symbols of the recipe other than the variable, `pi` and `e`: its parameters.
    fn free_symbols<'s>(&self, symbols: &'s BTreeSet<String>) -> Vec<&'s String> {
        symbols
            .iter()
            .filter(|s| integrate::is_parameter(s, self.definite.var))
            .collect()
    }

    /// The integrand, the bounds and the value with each of the parameters `free` replaced by
    /// its value at `point`, as the exact rational that f64 number is (a parameter the point
    /// gives no finite value is left as it is).
    fn at_values(
        &self,
        free: &[&String],
        point: &Bindings,
        budget: &mut Budget,
    ) -> Result<[Expr; 4], expr::TooLarge> {
        let mut bound = [
            self.definite.integrand.clone(),
            self.definite.lower.clone(),
            self.definite.upper.clone(),
            self.value.clone(),
        ];
        for name in free {
            let Some(value) = point
                .get(*name)
                .copied()
                .and_then(num_rational::BigRational::from_float)
            else {
                continue;
            };
            let value = integrate::number(&value);
            for e in &mut bound {
                *e = e.substitute(name, &value, budget)?;
            }
        }
        Ok(bound)
    }

    /// A lower bound on `|integral − value|` at `point`, and the precision of the ball that
    /// showed it, when an antiderivative of the integral with its parameters at their values
    /// there ([`Integral::at_values`]: an integral free of parameters, whose antiderivative must
    /// be continuous over the interval, or have one-sided limits at its ends:
    /// [`integrate::DefiniteIntegral::ends`]) puts it beyond the tolerance. This decides a point
    /// that neither quadrature settles (`sin(x)/x` has no value at 0, where it looks) nor the
    /// validated enclosure (it needs bounded derivatives: `log x` at 0), of an integral whose
    /// antiderivative holds for some values of the parameters only, so that none was taken for
    /// all of them (`∫_0^1 (log x + sqrt(y)) dx = sqrt(y) − 1` needs `y ≥ 0`; alkahest:
    /// `failed`).
    fn exceeds_by_an_antiderivative_at(
        &self,
        symbols: &BTreeSet<String>,
        point: &Bindings,
        tolerance: f64,
        budget: &mut Budget,
    ) -> Option<(f64, usize)> {
        let free = self.free_symbols(symbols);
        if free.is_empty() {
            // (the recipe's own search had these very expressions)
            return None;
        }
        let [integrand, lower, upper, value] = self.at_values(&free, point, budget).ok()?;
        let definite =
            integrate::DefiniteIntegral::new(&integrand, self.definite.var, &lower, &upper);
        let half = budget.left() / 2;
        let (at_upper, at_lower) = budget
            .share(half, |budget| definite.ends(&value, budget))
            .ok()??;
        let residual = Expr::add(vec![
            at_upper,
            Expr::negated(at_lower),
            Expr::negated(value),
        ]);
        match confirm(&residual, point, tolerance, &PRECISIONS, budget) {
            Confirmed::Failed(x, bits) => Some((x, bits)),
            _ => None,
        }
    }

    fn decide(
        &self,
        symbols: &BTreeSet<String>,
        tolerance: f64,
        samples: &[f64],
        budget: &mut Budget,
    ) -> (Outcome, String) {
        let (mut n, mut worst, mut worst_error) = (0, 0.0f64, 0.0f64);
        let mut failed: Option<(f64, String)> = None;
        // Why the last point (in sample order) that decided nothing did not.
        let mut undecided: Option<(usize, String)> = None;
        let mut note = |i: usize, why: String| {
            if undecided.as_ref().is_none_or(|(j, _)| i >= *j) {
                undecided = Some((i, why));
            }
        };
        // The points quadrature puts above the tolerance: |integral − value| and the point.
        let mut above = Vec::new();
        // The points where quadrature settled nothing (in sample order).
        let mut unsettled = Vec::new();
        for (i, point) in points(symbols, samples).into_iter().enumerate() {
            let (a, b, v) = (
                eval::evaluate(self.definite.lower, &point, budget),
                eval::evaluate(self.definite.upper, &point, budget),
                eval::evaluate(self.value, &point, budget),
            );
            if [a, b, v].contains(&Err(EvalError::TooLarge)) {
                return (Outcome::Inconclusive, TOO_LARGE.into());
            }
            let (Ok(a), Ok(b), Ok(v)) = (a, b, v) else {
                continue;
            };
            let accuracy = (tolerance * 1e-3).max(1e-300);
            match quad::integrate(
                self.definite.integrand,
                self.definite.var,
                a,
                b,
                &point,
                accuracy,
                budget,
            ) {
                Ok(q) => {
                    n += 1;
                    let r = (q.value - v).abs();
                    if r + q.error <= tolerance {
                        worst = worst.max(r);
                        worst_error = worst_error.max(q.error);
                    } else if r - q.error > tolerance && q.error <= 1e-3 * r {
                        above.push((r, i, point));
                    } else {
                        note(
                            i,
                            format!(
                                "the quadrature error estimate {} is too wide to decide",
                                format_g(q.error, 3)
                            ),
                        );
                        unsettled.push(point);
                    }
                }
                Err(error) => {
                    note(
                        i,
                        match error {
                            quad::QuadError::Singular(t) => format!(
                                "the integrand has no finite value at {} = {} inside the interval",
                                self.definite.var,
                                format_g(t, 6)
                            ),
                            quad::QuadError::NoConvergence => "the quadrature did not converge (a pole inside the interval, or a divergent integral)".into(),
                            quad::QuadError::Evaluation(EvalError::TooLarge) => {
                                "the integrand is too large to integrate numerically".into()
                            }
                            quad::QuadError::Evaluation(_) => {
                                "the integrand could not be evaluated inside the interval".into()
                            }
                        },
                    );
                    unsettled.push(point);
                }
            }
        }
        // The worst point first: one enclosure that confirms refutes the claim, and names the
        // largest value any confirmed point would (enclosing every point was most of the work,
        // and the budget is the recipe's).
        above.sort_by(|x, y| y.0.total_cmp(&x.0));
        for (r, i, point) in above {
            if enclosure::exceeds(&self.definite, self.value, &point, tolerance, budget) {
                failed = Some((
                    r,
                    "confirmed by a validated 128-bit enclosure of the integral".into(),
                ));
                break;
            }
            if let Some((_, bits)) =
                self.exceeds_by_an_antiderivative_at(symbols, &point, tolerance, budget)
            {
                failed = Some((
                    r,
                    format!(
                        "confirmed with {bits}-bit ball arithmetic by an antiderivative of the \
                         integral with the other symbols at their values there"
                    ),
                ));
                break;
            }
            note(
                i,
                format!(
                    "quadrature puts |integral - value| at {}, above the tolerance, which a validated 128-bit enclosure of the integral could not confirm",
                    format_g(r, 6)
                ),
            );
        }
        // Where quadrature settled nothing, an antiderivative at a point's values may still
        // refute (`∫_{−1}^{1} log(y)·sin(x)/x dx`, whose integrand has no value at 0).
        if failed.is_none() {
            for point in unsettled {
                if let Some((x, bits)) =
                    self.exceeds_by_an_antiderivative_at(symbols, &point, tolerance, budget)
                {
                    return (
                        Outcome::Failed,
                        format!(
                            "|integral - value| >= {} at a sample point where quadrature could not \
                             settle, exceeds tolerance {} (confirmed with {bits}-bit ball \
                             arithmetic by an antiderivative of the integral with the other \
                             symbols at their values there)",
                            format_g(x, 6),
                            format_g6(tolerance)
                        ),
                    );
                }
            }
        }
        let undecided = undecided.map(|(_, why)| why);
        let place = format!("{n} of {} sample point(s)", samples.len());
        if let Some((r, how)) = failed {
            return (
                Outcome::Failed,
                format!(
                    "|integral - value| = {} at {place} exceeds tolerance {} (numerical quadrature, {how})",
                    format_g(r, 6),
                    format_g6(tolerance)
                ),
            );
        }
        if let Some(why) = undecided {
            return (
                Outcome::Inconclusive,
                format!("no continuous antiderivative found, and {why}"),
            );
        }
        if n == 0 {
            return (
                Outcome::Inconclusive,
                "no continuous antiderivative found; no numeric sample".into(),
            );
        }
        (
            Outcome::NumericOk,
            format!(
                "|integral - value| <= {} at {place} by numerical quadrature (error estimate {}), free symbols at distinct values (numeric evidence, not a proof)",
                format_g(worst, 3),
                format_g(worst_error, 3)
            ),
        )
    }
}

#[cfg(test)]
mod tests;
