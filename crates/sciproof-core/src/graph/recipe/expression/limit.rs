//! One-sided limits at an end of an interval, for improper integrals: `∫_0^1 log x dx` is
//! `F(1) − lim_(x→0+) F(x)` with `F = x log x − x`, whose value at 0 does not exist but whose
//! limit does (alkahest gets `ok` here by reading `0·log 0` as 0).
//!
//! The end `c` is an exact number and the interval runs from it toward `d`. The only singularities
//! allowed at `c` are *vanishing arguments*: `log`, `sqrt`, a fractional power applied to a linear
//! `k(x − c)` that is positive toward `d`, or to a polynomial `(x − c)·Q(x)` whose `Q` keeps that
//! sign over the interval (by a ball), or to `log v` of a `v` whose `v − 1` vanishes so
//! (`log(log x)` at 1); and `asin`, `acos` of a `u` whose `1 − u²` vanishes so
//! (`asin(x)` at 1, `asin(√x)` too: `(√v)²` is read as `v` where the root is continuous), `acosh`
//! of a `u` whose `u − 1` does (`acosh(x)` at 1), `li` of a vanishing argument that stays below
//! 1 (`li(x)` at 0), `Ei`, `Ci` and `Chi` of a vanishing argument, and `log` of a rational
//! function with a pole at `c` that is positive beside it (`log(1 + 1/x²)` at 0). Everything
//! else must have a ball over the closed interval (where a root of a
//! linear argument is bounded by its values at the two exact ends,
//! [`super::ball::Evaluator::over_exactly`]). Then, with `t = |x − c| → 0`, each subexpression is
//! classed by how it behaves (`Near`): continuous at `c` with a known value, vanishing like `t^α
//! |log t|^k` (α > 0), or bounded by `|log t|^k` (a bounded function such as `sin` of anything
//! continuous there is, with k = 0). A sum has a limit only when no term is of the last class, or
//! when its logarithms cancel (`R·log t` with an `R` that is 0 at `c` and rational or Lipschitz
//! about `c` by its form; the multiple of Euler's γ that `Ei`, `Ci`, `Chi` leave, with a limit,
//! gives γ as `−digamma(1)`: `End::logarithms_cancelled`); nothing else is guessed.

use super::ball::Ball;
use super::expr::{Budget, Expr, Func, TooLarge, exact_value};
use super::integrate::number;
use astro_float_num::BigFloat;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// How a subexpression behaves as `x → c` from inside the interval.
#[derive(Debug, Clone)]
enum Near {
    /// Continuous at `c`, with this value there.
    Finite(Expr),
    /// At most `C t^α |log t|^k` for some α > 0: its limit is 0.
    Vanishing,
    /// At most `C |log t|^k`: bounded by a power of the logarithm, possibly unbounded.
    Logarithmic,
}

/// The sign of a subexpression on the half-open interval (`NonNegative` < `Positive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Sign {
    /// At least 0.
    NonNegative,
    /// Above 0.
    Positive,
}

/// The end `c` of an interval toward `d`, for the variable `var`.
pub struct End<'a> {
    /// The variable.
    pub var: &'a str,
    /// The end where the limit is taken.
    pub c: &'a BigRational,
    /// The other end.
    pub d: &'a BigRational,
}

impl End<'_> {
    /// The limit of `e` as `var → c` from the side of `d`, as an exact expression, when `e` is
    /// continuous on the half-open interval from `c` (excluded) to `d` (included) by the rules
    /// above and the limit exists by them; `None` otherwise.
    pub fn limit(&self, e: &Expr, budget: &mut Budget) -> Result<Option<Expr>, TooLarge> {
        if !self.continuous(e, budget)? {
            return Ok(None);
        }
        Ok(match self.near(e, budget)? {
            Some(Near::Finite(v)) => Some(v),
            Some(Near::Vanishing) => Some(Expr::int(0)),
            _ => None,
        })
    }

    /// Whether `e` is continuous on the half-open interval by its form: vanishing arguments of
    /// `log`, `sqrt` and fractional powers at `c`, balls over the closed interval elsewhere.
    pub fn continuous(&self, e: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        budget.step()?;
        if !e.contains(self.var, budget)? {
            return Ok(self.ball_exists(e, budget));
        }
        Ok(match e {
            Expr::Sym(_) => true,
            Expr::Add(xs) | Expr::Mul(xs) => {
                for x in xs.iter() {
                    if !self.continuous(x, budget)? {
                        return Ok(false);
                    }
                }
                true
            }
            Expr::Pow(p) => {
                let n = exact_value(&p.1);
                if !self.continuous(&p.0, budget)? || p.1.contains(self.var, budget)? {
                    return Ok(false);
                }
                match n {
                    Some(n) if n.is_integer() && !n.is_negative() => true,
                    Some(n) if n.is_integer() => {
                        self.nonzero_beside(&p.0, budget)? || self.ball_exists(e, budget)
                    }
                    Some(_) => self.positive_beside(&p.0, budget)? || self.ball_exists(e, budget),
                    None => false,
                }
            }
            // (Ei, Ci and Chi are continuous on (0, ∞) too)
            Expr::Call(Func::Log | Func::Sqrt | Func::Ei | Func::Ci | Func::Chi, xs) => {
                (self.continuous(&xs[0], budget)? && self.positive_beside(&xs[0], budget)?)
                    || self.ball_exists(e, budget)
            }
            // asin and acos are continuous on [−1, 1]: so where 1 − u² vanishes at c and is
            // positive beside it (`asin(x)` at 1), for a continuous u.
            Expr::Call(Func::Asin | Func::Acos, xs) => {
                // (1 − u², which `vanishing` reads as 1 − v for u = √v: `asin(√x)` at 1)
                let inside = Expr::minus(Expr::int(1), Expr::pow(xs[0].clone(), Expr::int(2)));
                (self.continuous(&xs[0], budget)? && self.vanishing(&inside, budget)?)
                    || self.ball_exists(e, budget)
            }
            // acosh is continuous on [1, ∞): so where u − 1 vanishes at c and is positive beside
            // it (`acosh(x)` at 1), for a continuous u.
            Expr::Call(Func::Acosh, xs) => {
                let inside = Expr::minus(xs[0].clone(), Expr::int(1));
                (self.continuous(&xs[0], budget)? && self.vanishing(&inside, budget)?)
                    || self.ball_exists(e, budget)
            }
            // li is continuous on (0, 1): so where u vanishes at c, is positive beside it
            // and stays below 1 over the closed interval (`li(x)` at 0).
            Expr::Call(Func::Li, xs) => {
                (self.continuous(&xs[0], budget)?
                    && self.vanishing(&xs[0], budget)?
                    && self
                        .ball_of(&xs[0], budget)
                        .is_some_and(|b| b.upper() < 1.0))
                    || self.ball_exists(e, budget)
            }
            Expr::Call(f, xs) if f.entire() => self.continuous(&xs[0], budget)?,
            _ => self.ball_exists(e, budget),
        })
    }

    /// Whether `u`, continuous on the half-open interval, is positive there by its form
    /// ([`Sign`]).
    fn positive_beside(&self, u: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        Ok(self.sign_beside(u, budget)? == Some(Sign::Positive))
    }

    /// Whether `u`, continuous on the half-open interval, is not 0 there by its form: positive
    /// or negative ([`End::sign_beside`]), or the logarithm of a vanishing argument below 1
    /// over the closed interval, so negative (`1/log(x)` from 0).
    fn nonzero_beside(&self, u: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        // (or negative: `1/x` left of 0)
        if self.positive_beside(u, budget)?
            || self.positive_beside(&Expr::negated(u.clone()), budget)?
        {
            return Ok(true);
        }
        Ok(match u {
            Expr::Call(Func::Log, xs) => {
                self.vanishing(&xs[0], budget)?
                    && self
                        .ball_of(&xs[0], budget)
                        .is_some_and(|b| b.upper() < 1.0)
            }
            _ => false,
        })
    }

    /// The sign of a continuous `u` on the half-open interval, when its form shows one: a
    /// vanishing argument, `exp` and `cosh` of anything, and what is positive on the closed
    /// interval by a ball are positive; square roots and positive powers keep the sign;
    /// products of signed factors and sums of non-negative terms with a positive one are signed
    /// (`1 + √x` is positive on `(0, 1]`; a ball over `[0, 1]` cannot say so, `√` has no
    /// derivative bound at 0).
    fn sign_beside(&self, u: &Expr, budget: &mut Budget) -> Result<Option<Sign>, TooLarge> {
        budget.step()?;
        if let Some(r) = exact_value(u) {
            return Ok(match r.signum() {
                s if s.is_positive() => Some(Sign::Positive),
                s if s.is_zero() => Some(Sign::NonNegative),
                _ => None,
            });
        }
        if self.vanishing(u, budget)? {
            return Ok(Some(Sign::Positive));
        }
        let sign = match u {
            Expr::Call(Func::Exp | Func::Cosh, _) => Some(Sign::Positive),
            Expr::Call(Func::Sqrt, xs) => self.sign_beside(&xs[0], budget)?,
            Expr::Pow(p) if exact_value(&p.1).is_some_and(|n| n.is_positive()) => {
                self.sign_beside(&p.0, budget)?
            }
            Expr::Pow(p) if exact_value(&p.1).is_some() => match self.sign_beside(&p.0, budget)? {
                Some(Sign::Positive) => Some(Sign::Positive),
                _ => None,
            },
            Expr::Mul(xs) => {
                let mut all = Some(Sign::Positive);
                for x in xs.iter() {
                    all = match (all, self.sign_beside(x, budget)?) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        _ => None,
                    };
                }
                all
            }
            Expr::Add(xs) => {
                let (mut positive, mut signed) = (false, true);
                for x in xs.iter() {
                    match self.sign_beside(x, budget)? {
                        Some(Sign::Positive) => positive = true,
                        Some(Sign::NonNegative) => {}
                        None => signed = false,
                    }
                }
                match (signed, positive) {
                    (true, true) => Some(Sign::Positive),
                    (true, false) => Some(Sign::NonNegative),
                    _ => None,
                }
            }
            _ => None,
        };
        if sign.is_some() {
            return Ok(sign);
        }
        Ok(self
            .ball_of(u, budget)
            .filter(|b| b.approx() > b.radius())
            .map(|_| Sign::Positive))
    }

    /// Whether `u` is zero at `c` and positive on the half-open interval: `k(x − c)` with
    /// `k(d − c) > 0`, or a polynomial with exact coefficients `(x − c)^k·Q(x)` whose `Q` a
    /// ball over the closed interval shows of the sign of `(d − c)^k` throughout (`1 − x²` at
    /// `c = 1` toward 0, `x²` at 0 from either side), or `f(v)` of such a `v` for an `f` with
    /// [`Func::increasing_through_0`] that stays positive over `v`'s ball (`sin(x)` at 0 toward
    /// 1), or `log v` of a `v` with a ball over the closed interval whose `v − 1` vanishes so
    /// (`log x` at 1); each at least `m·t^k` and at most `M·t^k` beside `c` for some `k ≥ 1`.
    fn vanishing(&self, u: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        let u = &plain(u, budget)?;
        // f(v) for an f that is 0 at 0 and positive right of it, up to where the ball of v
        // over the closed interval ends (`sin(x)` at 0 toward 1: `log(sin x)` has its end
        // there)
        if let Expr::Call(f, xs) = u
            && xs.len() == 1
            && f.increasing_through_0()
        {
            let reach = match f {
                Func::Sin => std::f64::consts::PI,
                Func::Tan => std::f64::consts::FRAC_PI_2,
                _ => f64::INFINITY,
            };
            return Ok(self.vanishing(&xs[0], budget)?
                && self
                    .ball_of(&xs[0], budget)
                    .is_some_and(|b| b.upper() < reach * (1.0 - 1e-9)));
        }
        // log(v) where v − 1 vanishes, for a v with a ball over the closed interval (so at
        // most some V there): (v − 1)/V ≤ log v ≤ v − 1, so log v vanishes as v − 1 does
        // (`log(log x)` has its end at 1)
        if let Expr::Call(Func::Log, xs) = u {
            let above_1 = Expr::minus(xs[0].clone(), Expr::int(1));
            return Ok(self.vanishing(&above_1, budget)? && self.ball_exists(&xs[0], budget));
        }
        if let Some((slope, intercept)) = super::integrate::linear(u, self.var, budget)? {
            let at_c = &slope * self.c + &intercept;
            return Ok(at_c.is_zero() && (&slope * (self.d - self.c)).is_positive());
        }
        let Some(p) = super::integrate::numeric_polynomial(u, self.var, budget)? else {
            return Ok(false);
        };
        let Some((k, q)) = self.root_at_c(&p) else {
            return Ok(false);
        };
        let q = super::partial_fractions::expression(&q, self.var);
        let Some(ball) = self.ball_of(&q, budget) else {
            return Ok(false);
        };
        // (x − c)^k has the sign of (d − c)^k beside c
        let toward = if (self.d - self.c).is_positive() || k % 2 == 0 {
            1.0
        } else {
            -1.0
        };
        Ok(ball.approx() * toward > ball.radius())
    }

    /// `(k, Q)` with `p = (x − c)^k·Q`, `k ≥ 1` and `Q(c) ≠ 0`, when `p` is 0 at `c` (and not
    /// identically).
    fn root_at_c(&self, p: &[BigRational]) -> Option<(u32, Vec<BigRational>)> {
        let factor = [-self.c.clone(), BigRational::one()];
        let (mut k, mut q) = (0, super::partial_fractions::trimmed(p.to_vec()));
        loop {
            let (quotient, remainder) = super::partial_fractions::divide(&q, &factor);
            if !remainder.is_empty() || quotient.is_empty() {
                return (k > 0 && !q.is_empty()).then_some((k, q));
            }
            (k, q) = (k + 1, quotient);
        }
    }

    /// Whether a ball of `e` over the closed interval exists (so it is continuous there).
    fn ball_exists(&self, e: &Expr, budget: &mut Budget) -> bool {
        self.ball_of(e, budget).is_some()
    }

    /// A ball of `e` over the closed interval.
    fn ball_of(&self, e: &Expr, budget: &mut Budget) -> Option<Ball<BigFloat>> {
        super::ball::over_interval(self.var, self.c, self.d, e, budget)
    }

    fn near(&self, e: &Expr, budget: &mut Budget) -> Result<Option<Near>, TooLarge> {
        budget.step()?;
        let at_c = |e: &Expr, budget: &mut Budget| -> Result<Expr, TooLarge> {
            e.substitute(self.var, &number(self.c), budget)
        };
        if !e.contains(self.var, budget)? {
            return Ok(Some(Near::Finite(e.clone())));
        }
        // A polynomial that is 0 at c vanishes like a power of t.
        if let Some(p) = super::integrate::polynomial_value_at(e, self.var, self.c, budget)? {
            return Ok(Some(if p.is_zero() {
                Near::Vanishing
            } else {
                Near::Finite(at_c(e, budget)?)
            }));
        }
        Ok(match e {
            Expr::Add(xs) => {
                let mut finite = Vec::new();
                let mut logarithmic = false;
                for x in xs.iter() {
                    // (a term 0 leaves the rest as it is: `log(x) + 0` at 1 vanishes)
                    if exact_value(x).is_some_and(|v| v.is_zero()) {
                        continue;
                    }
                    match self.near(x, budget)? {
                        Some(Near::Finite(v)) => finite.push(v),
                        Some(Near::Vanishing) => {}
                        Some(Near::Logarithmic) => logarithmic = true,
                        None => return Ok(None),
                    }
                }
                // A sum of terms bounded by powers of |log t| is bounded by one (no limit
                // claimed: a product with a vanishing factor still vanishes), unless its
                // logarithms cancel to a vanishing multiple of log t.
                if logarithmic {
                    return Ok(Some(
                        self.logarithms_cancelled(e, budget)?
                            .unwrap_or(Near::Logarithmic),
                    ));
                }
                Some(if finite.is_empty() {
                    Near::Vanishing
                } else {
                    Near::Finite(Expr::add(finite))
                })
            }
            Expr::Mul(xs) => {
                let mut finite = Vec::new();
                let (mut vanishing, mut logarithmic) = (false, false);
                for x in xs.iter() {
                    match self.near(x, budget)? {
                        Some(Near::Finite(v)) => finite.push(v),
                        Some(Near::Vanishing) => vanishing = true,
                        Some(Near::Logarithmic) => logarithmic = true,
                        None => return Ok(None),
                    }
                }
                Some(if vanishing {
                    Near::Vanishing
                } else if logarithmic {
                    Near::Logarithmic
                } else {
                    Near::Finite(Expr::mul(finite))
                })
            }
            Expr::Pow(p) => {
                let Some(n) = exact_value(&p.1) else {
                    return Ok(None);
                };
                if n.is_zero() {
                    return Ok(Some(Near::Finite(Expr::int(1))));
                }
                match self.near(&p.0, budget)? {
                    // (a negative power of a base whose value at c is 0 has no limit here)
                    Some(Near::Finite(v))
                        if n.is_positive()
                            || self
                                .ball_of(&v, budget)
                                .is_some_and(|b| b.approx().abs() > b.radius()) =>
                    {
                        Some(Near::Finite(at_c(e, budget)?))
                    }
                    Some(Near::Finite(_)) => None,
                    Some(Near::Vanishing) if n.is_positive() => Some(Near::Vanishing),
                    Some(Near::Logarithmic) if n.is_integer() && n.is_positive() => {
                        Some(Near::Logarithmic)
                    }
                    _ => None,
                }
            }
            // (Ei, Ci, Chi: γ + log u + O(u))
            Expr::Call(Func::Log | Func::Ei | Func::Ci | Func::Chi, xs)
                if self.vanishing(&xs[0], budget)? =>
            {
                Some(Near::Logarithmic)
            }
            // (log of a rational function with a pole at c: `log(1 + 1/x²)` at 0)
            Expr::Call(Func::Log, xs) if self.log_of_pole(&xs[0], budget)?.is_some() => {
                Some(Near::Logarithmic)
            }
            // (log v at v → 1: `log(x)·log(log x)` at 1 vanishes)
            Expr::Call(Func::Log, _) if self.vanishing(e, budget)? => Some(Near::Vanishing),
            Expr::Call(Func::Sqrt, xs) if self.vanishing(&xs[0], budget)? => Some(Near::Vanishing),
            // |li(u)| ≤ u/|log u| for 0 < u < 1 (|log s| ≥ |log u| for s ≤ u), and u = O(t)
            Expr::Call(Func::Li, xs) if self.vanishing(&xs[0], budget)? => Some(Near::Vanishing),
            Expr::Call(f, xs) if xs.len() == 1 => match self.near(&xs[0], budget)? {
                Some(Near::Finite(v)) => Some(Near::Finite(Expr::call(*f, v))),
                // (0 at 0 and Lipschitz about it: |f(u)| ≤ C·|u|, so it vanishes with u)
                Some(Near::Vanishing) if f.increasing_through_0() => Some(Near::Vanishing),
                // (continuous on a neighbourhood of 0)
                Some(Near::Vanishing)
                    if f.entire()
                        || matches!(
                            f,
                            Func::Asin | Func::Acos | Func::Atanh | Func::Tan | Func::Dilog
                        ) =>
                {
                    Some(Near::Finite(Expr::call(*f, Expr::int(0))))
                }
                // A bounded function of whatever its (continuous) argument does: at most
                // C·|log t|^0, with no limit claimed (`sin(log x)` at 0); times a vanishing
                // factor it vanishes (`x·sin(log x)`).
                _ if f.bounded() => Some(Near::Logarithmic),
                _ => None,
            },
            _ => None,
        })
    }
}

/// A term of a sum written over `log t` (`t = |x − c|`): `coefficient` times what `part`
/// says.
struct Term {
    coefficient: Expr,
    part: Part,
}

/// What a [`Term`]'s coefficient multiplies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Nothing: a term with the same limit as the coefficient.
    Plain,
    /// `log t`.
    Log,
    /// Euler's constant γ, which `Ei`, `Ci` and `Chi` of a vanishing argument leave beside
    /// their logarithm: written `−digamma(1)` (`ψ(1) = −γ`), which the exact test keeps as an
    /// atom and the balls evaluate.
    Gamma,
}

/// The most terms [`End::over_log`] writes out.
const MAX_TERMS: usize = 64;

impl End<'_> {
    /// The behaviour of a sum whose terms hold logarithms of arguments vanishing at `c`, when
    /// those logarithms cancel: each `log u` is `log t + log |u/(x − c)|`, the second part
    /// continuous at `c` (`u = k(x − c)`, or `(x − c)·Q` with `Q` of one sign, as
    /// [`End::vanishing`] shows), so the sum is `R·log t` plus terms with limits; when `R` is a
    /// rational function with exact coefficients that is 0 at `c` (its denominator not), `R`
    /// is `O(t)` and `R·log t` vanishes (or `R` analytic and 0 at `c`:
    /// [`End::vanishes_as_t`]). So `−log(x)/(x + 1) + log(x)` at 0 (`R = x/(x + 1)`),
    /// and `x·log(x² − 1) − log(x − 1)` at 1 (`R = x − 1`). `Ei(u)`, `Ci(u)` and `Chi(u)` of
    /// such a `u` are `γ + log u + O(u)`: their multiple of γ has a limit (`Ei(x) − log x` at 0
    /// is γ, `−digamma(1)`; `R·O(u)` vanishes with `R` bounded) or vanishes. `None` when that
    /// is not shown.
    fn logarithms_cancelled(
        &self,
        e: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<Near>, TooLarge> {
        let Some(terms) = self.over_log(e, budget)? else {
            return Ok(None);
        };
        let (mut multiple, mut finite) = (Vec::new(), Vec::new());
        for term in terms {
            let factor = match term.part {
                Part::Log => {
                    multiple.push(term.coefficient);
                    continue;
                }
                Part::Plain => None,
                Part::Gamma => Some(Expr::negated(Expr::call(Func::Digamma, Expr::int(1)))),
            };
            match self.near(&term.coefficient, budget)? {
                Some(Near::Finite(v)) => finite.push(match factor {
                    Some(gamma) => Expr::mul(vec![v, gamma]),
                    None => v,
                }),
                Some(Near::Vanishing) => {}
                _ => return Ok(None),
            }
        }
        if !multiple.is_empty() && !self.vanishes_as_t(&Expr::add(multiple), budget)? {
            return Ok(None);
        }
        Ok(Some(if finite.is_empty() {
            Near::Vanishing
        } else {
            Near::Finite(Expr::add(finite))
        }))
    }

    /// Whether `r` is `O(t)` at `c` by its form: a rational function with exact coefficients
    /// that is 0 at `c` and whose denominator is not, or one Lipschitz about `c`
    /// ([`End::lipschitz_at_c`]) that the exact test shows 0 there (`(x + 1)·eˣ − eˣ` at 0,
    /// `1/(x + 1) + log(x + 1) − 1` at 0).
    fn vanishes_as_t(&self, r: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        if let Some((n, d)) = super::integrate::rational_function(r, self.var, budget)? {
            use super::partial_fractions::value_at;
            return Ok(value_at(&n, self.c).is_zero() && !value_at(&d, self.c).is_zero());
        }
        if !self.lipschitz_at_c(r, budget)? {
            return Ok(false);
        }
        let at_c = r.substitute(self.var, &number(self.c), budget)?;
        Ok(super::canon::is_zero_in(&at_c, None, budget) == Ok(true))
    }

    /// Whether `e` is Lipschitz about `c` by its form: sums, products, natural powers and
    /// [`Func::entire`] functions of such parts, and `log`, `sqrt` and other exact powers of
    /// such a part whose value at `c` a ball shows positive (for a negative integer power:
    /// not 0). Each part is then analytic about `c` (or `|u|` of one), so the whole is.
    fn lipschitz_at_c(&self, e: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        budget.step()?;
        if !e.contains(self.var, budget)? {
            return Ok(true);
        }
        let at_c = |u: &Expr, budget: &mut Budget| {
            super::ball::over_interval(self.var, self.c, self.c, u, budget)
        };
        Ok(match e {
            Expr::Sym(_) => true,
            Expr::Add(xs) | Expr::Mul(xs) => {
                for x in xs.iter() {
                    if !self.lipschitz_at_c(x, budget)? {
                        return Ok(false);
                    }
                }
                true
            }
            Expr::Pow(p) => match exact_value(&p.1) {
                Some(n) if n.is_integer() && !n.is_negative() => {
                    self.lipschitz_at_c(&p.0, budget)?
                }
                Some(n) => {
                    self.lipschitz_at_c(&p.0, budget)?
                        && at_c(&p.0, budget).is_some_and(|b| {
                            let away = if n.is_integer() {
                                b.approx().abs()
                            } else {
                                b.approx()
                            };
                            away > b.radius()
                        })
                }
                None => false,
            },
            Expr::Call(Func::Log | Func::Sqrt, xs) => {
                self.lipschitz_at_c(&xs[0], budget)?
                    && at_c(&xs[0], budget).is_some_and(|b| b.approx() > b.radius())
            }
            Expr::Call(f, xs) if f.entire() && xs.len() == 1 => {
                self.lipschitz_at_c(&xs[0], budget)?
            }
            _ => false,
        })
    }

    /// `e` as a sum of [`Term`]s (products multiplied out, at most [`MAX_TERMS`] of them, none
    /// with `log t` twice); `None` when it cannot be written so.
    fn over_log(&self, e: &Expr, budget: &mut Budget) -> Result<Option<Vec<Term>>, TooLarge> {
        budget.step()?;
        let plain_term = |e: &Expr| {
            vec![Term {
                coefficient: e.clone(),
                part: Part::Plain,
            }]
        };
        if !e.contains(self.var, budget)? {
            return Ok(Some(plain_term(e)));
        }
        Ok(Some(match e {
            Expr::Add(xs) => {
                let mut out = Vec::new();
                for x in xs.iter() {
                    let Some(terms) = self.over_log(x, budget)? else {
                        return Ok(None);
                    };
                    out.extend(terms);
                    if out.len() > MAX_TERMS {
                        return Ok(None);
                    }
                }
                out
            }
            Expr::Mul(xs) => {
                let mut out = vec![Term {
                    coefficient: Expr::int(1),
                    part: Part::Plain,
                }];
                for x in xs.iter() {
                    let Some(terms) = self.over_log(x, budget)? else {
                        return Ok(None);
                    };
                    if out.len() * terms.len() > MAX_TERMS {
                        return Ok(None);
                    }
                    let mut next = Vec::with_capacity(out.len() * terms.len());
                    for a in &out {
                        for b in &terms {
                            let part = match (a.part, b.part) {
                                (Part::Plain, part) | (part, Part::Plain) => part,
                                _ => return Ok(None),
                            };
                            next.push(Term {
                                coefficient: Expr::mul(vec![
                                    a.coefficient.clone(),
                                    b.coefficient.clone(),
                                ]),
                                part,
                            });
                        }
                    }
                    out = next;
                }
                out
            }
            // log u = k·log t + log |u/(x − c)^k|, the second part's limit
            // log |u/(x − c)^k|(c); and for u > 0 beside c, Ei(u), Ci(u), Chi(u) are
            // γ + log u + O(u)
            Expr::Call(f @ (Func::Log | Func::Ei | Func::Ci | Func::Chi), xs) => {
                match self.log_of_vanishing(&xs[0], budget)? {
                    Some((k, rest)) => {
                        let mut terms = vec![
                            Term {
                                coefficient: Expr::int(i64::from(k)),
                                part: Part::Log,
                            },
                            Term {
                                coefficient: Expr::call(Func::Log, number(&rest)),
                                part: Part::Plain,
                            },
                        ];
                        if *f != Func::Log {
                            terms.push(Term {
                                coefficient: Expr::int(1),
                                part: Part::Gamma,
                            });
                        }
                        terms
                    }
                    None => match self.log_of_pole(&xs[0], budget)? {
                        // log u = −k·log t + log |u·(x − c)^k|
                        Some((k, rest)) if *f == Func::Log => vec![
                            Term {
                                coefficient: Expr::int(-i64::from(k)),
                                part: Part::Log,
                            },
                            Term {
                                coefficient: Expr::call(Func::Log, number(&rest)),
                                part: Part::Plain,
                            },
                        ],
                        _ => plain_term(e),
                    },
                }
            }
            _ => plain_term(e),
        }))
    }

    /// `(k, |u/(x − c)^k|` at `c`) (not 0) when `u` vanishes at `c` as [`End::vanishing`]
    /// shows: `(1, |k|)` for `u = k(x − c)`, `(k, |Q(c)|)` for `u = (x − c)^k·Q`; so
    /// `log u = k·log t + log |Q(c)| + o(1)`.
    fn log_of_vanishing(
        &self,
        u: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<(u32, BigRational)>, TooLarge> {
        if !self.vanishing(u, budget)? {
            return Ok(None);
        }
        let u = plain(u, budget)?;
        let Some(p) = super::integrate::numeric_polynomial(&u, self.var, budget)? else {
            return Ok(None);
        };
        let Some((k, q)) = self.root_at_c(&p) else {
            return Ok(None);
        };
        let at_c = super::partial_fractions::value_at(&q, self.c).abs();
        Ok((!at_c.is_zero()).then_some((k, at_c)))
    }
}

impl End<'_> {
    /// `(k, |N(c)/Q(c)|)` when `u = N/D` is a rational function with exact coefficients whose
    /// denominator is `(x − c)^k·Q` (`k ≥ 1`, `Q(c) ≠ 0`) and whose numerator is not 0 at `c`:
    /// `log |u| = −k·log t + log |N(c)/Q(c)| + o(1)` (`log(1 + 1/x²)` at 0).
    fn log_of_pole(
        &self,
        u: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<(u32, BigRational)>, TooLarge> {
        let Some((n, d)) = super::integrate::rational_function(u, self.var, budget)? else {
            return Ok(None);
        };
        use super::partial_fractions::value_at;
        let at_c = value_at(&n, self.c);
        if at_c.is_zero() {
            return Ok(None);
        }
        Ok(self
            .root_at_c(&d)
            .map(|(k, q)| (k, (at_c / value_at(&q, self.c)).abs())))
    }
}

/// `u` without the factors 1, the terms 0 and the powers 0 and 1 an antiderivative's
/// construction leaves (`(1·x + 0)·1`), and with `(√v)^2k` as `v^k`: the same function where
/// `u` is defined, which is all [`End::vanishing`] and [`super::parametric`]'s signs ask of it
/// (they are given `u` whose nodes are in their domains, so each root there is of a `v ≥ 0`).
pub(super) fn plain(u: &Expr, budget: &mut Budget) -> Result<Expr, TooLarge> {
    budget.step()?;
    let is =
        |e: &Expr, k: i64| exact_value(e).is_some_and(|v| v == BigRational::from_integer(k.into()));
    Ok(match u {
        Expr::Add(xs) => {
            let mut terms = Vec::with_capacity(xs.len());
            for x in xs.iter() {
                let x = plain(x, budget)?;
                if !is(&x, 0) {
                    terms.push(x);
                }
            }
            match terms.len() {
                0 => Expr::int(0),
                1 => terms.pop().expect("one term"),
                _ => Expr::add(terms),
            }
        }
        Expr::Mul(xs) => {
            let mut factors = Vec::with_capacity(xs.len());
            for x in xs.iter() {
                let x = plain(x, budget)?;
                if is(&x, 0) {
                    return Ok(Expr::int(0));
                }
                if !is(&x, 1) {
                    factors.push(x);
                }
            }
            match factors.len() {
                0 => Expr::int(1),
                1 => factors.pop().expect("one factor"),
                _ => Expr::mul(factors),
            }
        }
        Expr::Pow(p) => {
            let base = plain(&p.0, budget)?;
            match exact_value(&p.1) {
                Some(n) if n.is_zero() => Expr::int(1),
                Some(n) if n.is_one() => base,
                Some(n) if n.is_integer() && n.is_positive() && n.to_integer().is_even() => {
                    match &base {
                        Expr::Call(Func::Sqrt, v) => {
                            let k = super::integrate::number(
                                &(n / BigRational::from_integer(2.into())),
                            );
                            if is(&k, 1) {
                                v[0].clone()
                            } else {
                                Expr::pow(v[0].clone(), k)
                            }
                        }
                        _ => Expr::pow(base, p.1.clone()),
                    }
                }
                _ => Expr::pow(base, p.1.clone()),
            }
        }
        Expr::Call(f, xs) => {
            let mut args = Vec::with_capacity(xs.len());
            for x in xs.iter() {
                args.push(plain(x, budget)?);
            }
            Expr::Call(*f, args.into())
        }
        _ => u.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::recipe::expression::parse::parse;

    fn limit_at(e: &str, c: i64, d: i64) -> Option<String> {
        let e = parse(e, &mut Default::default()).unwrap();
        let (c, d) = (
            BigRational::from_integer(c.into()),
            BigRational::from_integer(d.into()),
        );
        let end = End {
            var: "x",
            c: &c,
            d: &d,
        };
        end.limit(&e, &mut Budget::standard())
            .unwrap()
            .map(|v| v.to_string())
    }

    #[test]
    fn logarithms_cancel_only_to_a_vanishing_multiple() {
        // R = x/(x + 1), x − 1, x^2: each 0 at the end
        assert!(limit_at("-log(x)/(x+1) + log(x) - log(x+1)", 0, 1).is_some());
        assert!(limit_at("x*log(x^2-1) - log(x-1)", 1, 2).is_some());
        assert!(limit_at("log(2*x) - log(x) + x^2*log(x)", 0, 1).is_some());
        // li of a vanishing argument below 1 vanishes, and 1/log(x) is continuous from 0
        assert_eq!(limit_at("li(x/2) + 1", 0, 1).as_deref(), Some("1"));
        assert!(limit_at("li(x) + 1", 0, 1).is_none()); // (up to li's pole at 1)
        assert!(limit_at("1/log(x)", 0, 1).is_none());
        assert!(limit_at("li(x)", 1, 2).is_none());
        // sin, tan, ... of a vanishing argument vanish, and are vanishing arguments themselves
        // while they stay positive: sin(x) up to π, not to 4
        assert_eq!(
            limit_at("sin(x)*log(sin(x)) + 1", 0, 1).as_deref(),
            Some("1")
        );
        assert_eq!(limit_at("atan(x)*log(x) + 1", 0, 1).as_deref(), Some("1"));
        assert!(limit_at("sqrt(tan(x))", 0, 1).is_some());
        assert!(limit_at("sqrt(sin(x))", 0, 3).is_some());
        assert!(limit_at("sqrt(sin(x))", 0, 4).is_none());
        assert!(limit_at("log(sin(x))", 0, 1).is_none());
        // R = 2, 1, −1 at the end: log t survives
        assert_eq!(limit_at("log(x) + log(2*x)", 0, 1), None);
        assert_eq!(limit_at("log(x) - log(x+1)", 0, 1), None);
        assert_eq!(limit_at("x*log(x) - log(x)", 0, 1), None);
        // a product of two such logarithms is not taken apart
        assert_eq!(limit_at("log(x)*log(2*x) - log(x)^2", 0, 1), None);
        // an analytic R that the exact test shows 0 at the end: (x + 1)·eˣ − eˣ
        assert!(limit_at("((x+1)*exp(x) - exp(x))*log(x) - exp(x)", 0, 1).is_some());
        // (and one Lipschitz about the end: logarithms and roots of positive parts)
        assert!(limit_at("(1/(x+1) + log(x+1) - 1)*log(x) + 1", 0, 1).is_some());
        assert!(limit_at("(sqrt(x+1) - 1)*log(x) + 1", 0, 1).is_some());
        assert_eq!(limit_at("(log(x+1) + 1)*log(x) + 1", 0, 1), None);
        assert_eq!(limit_at("(exp(x) + 1)*log(x)", 0, 1), None);
        // the logarithm of a pole is −k·log t plus a part with a limit
        assert!(limit_at("x*log(1+1/x^2) + 1", 0, 1).is_some());
        assert!(limit_at("log(1/x) + log(x)", 0, 1).is_some());
        assert_eq!(limit_at("log(1/x^2) + log(x)", 0, 1), None);
        // Ei, Ci, Chi of a vanishing argument are γ + log u + O(u): their logarithms must
        // cancel, and their multiple of γ, ψ(1) = −γ, has a limit
        assert!(limit_at("Ei(x) - Ei(2*x)", 0, 1).is_some());
        assert!(limit_at("Ci(x) - Ci(3*x) + x", 0, 1).is_some());
        assert!(limit_at("Chi(x) - Chi(x/2)", 0, 1).is_some());
        let value = |e: &str| {
            let limit = limit_at(e, 0, 1).expect("a limit");
            assert!(limit.contains("digamma(1)"), "{limit}");
            let limit = parse(&limit, &mut Default::default()).unwrap();
            super::super::eval::evaluate(&limit, &Default::default(), &mut Budget::standard())
                .unwrap()
        };
        const EULER: f64 = 0.5772156649015329;
        assert!(
            (value("Ei(x) - log(x)") - EULER).abs() < 1e-12,
            "{}",
            value("Ei(x) - log(x)")
        );
        assert!((value("(x + 2)*(Ci(x) - log(x))") - 2.0 * EULER).abs() < 1e-12);
        assert!((value("Chi(2*x) - log(x) - 1") - (EULER + 2f64.ln() - 1.0)).abs() < 1e-12);
        assert_eq!(limit_at("Ei(x)/x - log(x)/x", 0, 1), None);
        assert_eq!(limit_at("Ei(x) - Ci(2*x) + log(x)", 0, 1), None);
        assert_eq!(limit_at("Ei(x) - Ei(x^2)", 0, 1), None);
        // log of an argument going to 1 vanishes: log(x)·log(log x) − log x at 1
        assert_eq!(
            limit_at("log(x)*log(log(x)) - log(x) + 1", 1, 2).as_deref(),
            Some("1")
        );
        assert!(limit_at("log(log(x))", 1, 2).is_none());
    }

    #[test]
    fn arguments_vanish_to_any_order_and_from_either_side() {
        // x² is (x − 0)²·1: log(x²) = 2 log t + ..., from the right and from the left
        assert_eq!(limit_at("x*log(x^2) - 2*x", 0, 1).as_deref(), Some("0"));
        assert_eq!(limit_at("x*log(x^2) - 2*x", 0, -1).as_deref(), Some("0"));
        assert!(limit_at("sqrt((x - 1)^2*(x + 1))", 1, 2).is_some());
        // log(x²) − log(x) leaves log t; log(x²) − 2 log(x) cancels it
        assert_eq!(limit_at("log(x^2) - log(x)", 0, 1), None);
        assert!(limit_at("log(x^2) - 2*log(x)", 0, 1).is_some());
        // (x − 1)²·(x − 3) is negative beside 1 on either side: no root of it
        assert!(limit_at("sqrt((x - 1)^2*(x - 3))", 1, 2).is_none());
        assert!(limit_at("sqrt((x - 1)^2*(x - 3))", 1, 0).is_none());
        // an odd power: x³ is negative left of 0
        assert!(limit_at("log(x^3)", 0, -1).is_none());
        assert!(limit_at("x*log(x^3)", 0, 1).is_some());
        // 1/x is continuous left of 0 (negative there), x·atan(1/x) tends to 0 from both sides
        assert_eq!(limit_at("x*atan(1/x) + 1", 0, -1).as_deref(), Some("1"));
        assert_eq!(limit_at("x*atan(1/x) + 1", 0, 1).as_deref(), Some("1"));
        assert!(limit_at("1/x", 0, -1).is_none());
    }
}
