//! Sums of logarithms of positive numbers: `Σ kᵢ·log Aᵢ = 0` when `Π Aᵢ^kᵢ = 1`; and the
//! grouping of what a form leaves over into such sums and into sums of angles (`atan`, `asin`
//! and `acos` of numbers) with a multiple of π ([`super::angles`]).
//!
//! The canonical form keeps `log A` as an atom keyed by its canonical argument and never takes
//! a logarithm of a product apart (`log(ab) = log a + log b` fails where `a, b < 0`), so two
//! ways of writing one number's logarithm stay two unknowns: `log(1 + tan²(1/2))` and
//! `log 2 − log(1 + cos 1)` (both `−2 log cos(1/2)`), or `log((1 − cos 2)/sin 2)` and
//! `log tan 1`. Definite integrals meet exactly these: the antiderivative at the bounds is a
//! sum of logarithms of numbers, written one way by us and another by the recorder.
//!
//! For *numbers* the sign is a fact that can be proven: when every `Aᵢ` is shown positive by a
//! ball (a rigorous enclosure that excludes 0), `Σ kᵢ·log Aᵢ = log Π Aᵢ^kᵢ` holds exactly, and
//! it is 0 exactly when `Π Aᵢ^kᵢ = 1`, which the canonical form decides as it decides any
//! identity (with the half-angle and other rewrites of the whole form). The logarithms are
//! grouped by the rest of their term (`x·(log a − log b)` is one group with the factor `x`),
//! and the numerator is zero when every group is; a term without a logarithm goes with the
//! angles of the same rest (`atan a`, `asin a`, `acos a`, or `pi` as π), and those groups must
//! cancel too.
//! A rest without a logarithm cancels the same way: `Σ k·log A + R = 0` exactly when
//! `Π A^n = exp(−s·R)` (`n = s·k` integers), which the canonical form decides with `R`'s
//! hyperbolic functions written in exponentials (`log(1 + tanh c) − log(1 − tanh c) = 2c`,
//! where an antiderivative's `atanh(tanh u)` is written in logarithms).
//! Nothing here is numeric but the sign proof; an argument whose sign the ball cannot settle,
//! or that holds a symbol (`pi` included), leaves the form as it was.

use super::{Canon, Frac, Mono, NotExact, Poly, Trig, constant, mono_mul, negated};
use crate::graph::recipe::expression::ball::Evaluator;
use crate::graph::recipe::expression::eval::Bindings;
use crate::graph::recipe::expression::expr::{Expr, Func};
use crate::graph::recipe::expression::integrate::number;
use crate::graph::recipe::expression::rational::Q;
use num_integer::Integer;
use num_traits::ToPrimitive;

/// The largest power of an argument multiplied out (a coefficient of a group as the smallest
/// integers in the same ratio: [`exponents`]).
const MAX_LOG_EXPONENT: i64 = 12;
/// The most steps of a division of polynomials ([`Canon::divided`]), each a term of the quotient.
const MAX_DIVISION_STEPS: usize = 64;
/// The precision of the sign proofs (the arguments are small expressions of small numbers).
const SIGN_BITS: usize = 128;

impl Canon<'_> {
    /// Whether the numerator `num` is zero because its logarithms of positive numbers cancel
    /// and its angles of numbers cancel with its multiples of π (see the module
    /// documentation). `Ok(false)` means "not shown".
    pub(super) fn constants_cancel(&mut self, num: &Poly) -> Result<bool, NotExact> {
        if num.0.is_empty() {
            return Ok(false);
        }
        let pi = self
            .ids
            .get("pi")
            .copied()
            .filter(|_| self.variable != Some("pi"));
        // the rest of each term → its logarithms with their coefficients; and → its
        // angles with theirs and the coefficient of π
        let mut groups: Vec<(Mono, Vec<(u32, Q)>)> = Vec::new();
        let mut angles: Vec<(Mono, Angles)> = Vec::new();
        for (m, c) in &num.0 {
            let single = |funcs: &[Func]| {
                let mut atoms = m
                    .iter()
                    .filter(|&&(a, _)| self.called(a).is_some_and(|f| funcs.contains(&f)));
                match (atoms.next(), atoms.next()) {
                    (Some(&(a, 1)), None) => Some(Some(a)),
                    (None, _) => Some(None),
                    _ => None,
                }
            };
            let rest =
                |atom: u32| -> Mono { m.iter().filter(|(a, _)| *a != atom).copied().collect() };
            match (
                single(&[Func::Log]),
                single(&[Func::Atan, Func::Asin, Func::Acos]),
            ) {
                (Some(Some(log)), _) => group(&mut groups, rest(log)).push((log, c.clone())),
                (Some(None), Some(Some(angle))) => {
                    group(&mut angles, rest(angle))
                        .terms
                        .push((angle, c.clone()));
                }
                (Some(None), Some(None)) => {
                    let Some(pi) = pi.filter(|pi| m.contains(&(*pi, 1))) else {
                        return self.logs_cancel_the_rest(num);
                    };
                    group(&mut angles, rest(pi)).pi += c.clone();
                }
                _ => return self.logs_cancel_the_rest(num),
            }
        }
        // (a cleared denominator repeats one combination in many groups, scaled: each is
        // decided once)
        let mut decided: Vec<Vec<(u32, i64)>> = Vec::new();
        for (_, logs) in &groups {
            let Some((exponents, _)) = exponents(logs) else {
                return Ok(false);
            };
            if decided.contains(&exponents) {
                continue;
            }
            if !self.product_is(&exponents, constant(Q::one()))? {
                return Ok(false);
            }
            decided.push(exponents);
        }
        for (_, angles) in &angles {
            if !self.angles_cancel(&angles.terms, &angles.pi)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the numerator is `r·(Σ k·log A + R)` with `Σ k·log A + R = 0`, for logarithms of
    /// numbers `A` shown positive, one monomial `r` and a rest `R` without a logarithm (the
    /// terms without one, divided by `r`): with the `k` as integers `n = s·k` ([`exponents`]),
    /// exactly when
    /// `Π A^n = exp(−s·R)` (`Σ n·log A = log Π A^n` for positive `A`), which the canonical form
    /// decides with `R`'s exponentials and hyperbolic functions written as powers of `exp`:
    /// `log(1 + tanh c) − log(1 − tanh c) − 2c` is 0, as `(1 + tanh c)/(1 − tanh c) = e^(2c)`
    /// (the ends of an antiderivative in which `atanh(tanh u)` stands written in logarithms).
    /// `Ok(false)` means "not shown", as where a term holds a logarithm beside another factor.
    fn logs_cancel_the_rest(&mut self, num: &Poly) -> Result<bool, NotExact> {
        // each logarithm's factor P_j (the terms that hold it, without it) and the terms without
        // one, Q: the numerator is P·(Σ k_j·log A_j + R) when every P_j is k_j·P and Q is P·R
        let mut factors: Vec<(u32, Vec<(Mono, Q)>)> = Vec::new();
        let mut others = Vec::new();
        for (m, c) in &num.0 {
            let mut at = m
                .iter()
                .filter(|&&(a, _)| self.called(a) == Some(Func::Log));
            match (at.next(), at.next()) {
                (None, _) => others.push((m.clone(), c.clone())),
                (Some(&(log, 1)), None) => {
                    let rest: Mono = m.iter().filter(|(a, _)| *a != log).copied().collect();
                    match factors.iter_mut().find(|(l, _)| *l == log) {
                        Some((_, terms)) => terms.push((rest, c.clone())),
                        None => factors.push((log, vec![(rest, c.clone())])),
                    }
                }
                _ => return Ok(false),
            }
        }
        if factors.is_empty() || others.is_empty() {
            return Ok(false);
        }
        // (the signs first: most logarithms met here are of symbols)
        for &(log, _) in &factors {
            let argument = self.argument(log);
            if !self.positive_number(&argument) {
                return Ok(false);
            }
        }
        let factors: Vec<(u32, Poly)> = factors
            .into_iter()
            .map(|(log, terms)| (log, Poly::from_terms(terms)))
            .collect();
        let p = factors[0].1.clone();
        let mut logs = Vec::with_capacity(factors.len());
        for (log, factor) in &factors {
            let Some(k) = self.divided(factor, &p).and_then(|k| k.as_constant()) else {
                return Ok(false);
            };
            logs.push((*log, k));
        }
        let Some(mut rest) = self.divided(&Poly::from_terms(others), &p) else {
            return Ok(false);
        };
        let Some((exponents, scale)) = exponents(&logs) else {
            return Ok(false);
        };
        for (_, c) in &mut rest.0 {
            *c = -(&*c * &scale);
        }
        let exponential = self.exponential(Frac {
            num: rest,
            den: None,
        })?;
        self.product_is(&exponents, exponential)
    }

    /// Whether `Σ n·log A = log V` over `exponents` (atoms `log A` with integers `n`) for a
    /// positive `value` V: every `A` a number shown positive, and `Π A^n = V`.
    fn product_is(&mut self, exponents: &[(u32, i64)], value: Frac) -> Result<bool, NotExact> {
        let (mut above, mut below) = (constant(Q::one()), value);
        for &(log, n) in exponents {
            let argument = self.argument(log);
            if !self.positive_number(&argument) {
                return Ok(false);
            }
            let power = self.frac_powi(argument, n.abs())?;
            if n > 0 {
                above = self.frac_mul(above, power)?;
            } else {
                below = self.frac_mul(below, power)?;
            }
        }
        // Π A^n = V exactly when the numerator of (above − below) is zero (below > 0)
        let difference = self.frac_add(above, negated(below))?;
        self.number_is_zero(difference)
    }

    /// Whether the numerator of `f` is zero in this form, or in the form with the rewrites
    /// over the finest roots and angles of the whole expression.
    pub(super) fn number_is_zero(&mut self, f: Frac) -> Result<bool, NotExact> {
        let numerator = Frac {
            num: f.num,
            den: None,
        };
        let (plain, _) = self.finished(numerator.clone())?;
        if plain.0.is_empty() {
            return Ok(true);
        }
        let rewrites = self.rewrites_over_finest().unwrap_or_default();
        if rewrites.is_empty() {
            return Ok(false);
        }
        let rewritten = self.with_rewrites(numerator, &rewrites)?;
        Ok(self.finished(rewritten)?.0.0.is_empty())
    }

    /// The polynomial `a/b`, when `b` divides `a` (negative powers allowed of exponentials
    /// only, which are never 0): long division by the leading term in the lexicographic order
    /// of exponent vectors (an order that multiplication keeps, so each step lowers the
    /// remainder's leading term), in at most [`MAX_DIVISION_STEPS`] steps.
    fn divided(&self, a: &Poly, b: &Poly) -> Option<Poly> {
        let (lead_m, lead_c) = b.0.iter().max_by(|x, y| lex(&x.0, &y.0))?;
        let inverse: Mono = lead_m.iter().map(|&(atom, e)| (atom, -e)).collect();
        let mut remainder = a.clone();
        let mut quotient = Vec::new();
        for _ in 0..MAX_DIVISION_STEPS {
            let Some((m, c)) = remainder.0.iter().max_by(|x, y| lex(&x.0, &y.0)) else {
                return Some(Poly::from_terms(quotient));
            };
            let r = mono_mul(m, &inverse);
            if r.iter()
                .any(|&(atom, e)| e < 0 && self.atoms[atom as usize].exp_of.is_none())
            {
                return None;
            }
            let k = c * &lead_c.recip();
            let mut terms = remainder.0.clone();
            terms.extend(b.0.iter().map(|(n, d)| (mono_mul(n, &r), -(d * &k))));
            remainder = Poly::from_terms(terms);
            quotient.push((r, k));
        }
        None
    }

    /// Whether `f` is a number (no symbol in it) that a ball shows to be positive.
    pub(super) fn positive_number(&mut self, f: &Frac) -> bool {
        let Some(e) = self.frac_expr(f) else {
            return false;
        };
        let bindings = Bindings::new();
        let mut evaluator = Evaluator::new(SIGN_BITS, &bindings);
        evaluator
            .ball(&e, &mut *self.budget)
            .is_ok_and(|b| b.sign() == 1)
    }

    /// The expression `f` stands for, when every atom in it is a number (a function of a
    /// number, or a root of one).
    pub(super) fn frac_expr(&self, f: &Frac) -> Option<Expr> {
        let num = self.poly_expr(&f.num)?;
        Some(match &f.den {
            None => num,
            Some(den) => Expr::mul(vec![num, Expr::pow(self.poly_expr(den)?, Expr::int(-1))]),
        })
    }

    fn poly_expr(&self, p: &Poly) -> Option<Expr> {
        let mut terms = Vec::with_capacity(p.0.len());
        for (m, c) in &p.0 {
            let mut factors = vec![number(&c.to_big())];
            for &(a, e) in m {
                factors.push(Expr::pow(self.atom_expr(a)?, Expr::int(e)));
            }
            terms.push(Expr::mul(factors));
        }
        Some(Expr::add(terms))
    }

    /// The number atom `a` stands for; `None` for a symbol or an atom of any other kind. (An
    /// atom's argument was put in form before the atom was made, so this ends.)
    pub(super) fn atom_expr(&self, a: u32) -> Option<Expr> {
        let atom = &self.atoms[a as usize];
        if let Some((func, arg)) = &atom.call {
            return Some(Expr::call(*func, self.frac_expr(arg)?));
        }
        // (`sin`/`cos` atoms of an argument `(p/q)·D` keep that direction, not a call)
        if let (Some((trig, _)), Some(d)) = (&atom.trig, &atom.direction) {
            let func = match trig {
                Trig::Sin => Func::Sin,
                Trig::Cos => Func::Cos,
                Trig::Sinh => Func::Sinh,
                Trig::Cosh => Func::Cosh,
            };
            let q = num_rational::BigRational::new(d.p.into(), d.q.into());
            let arg = Expr::mul(vec![number(&q), self.poly_expr(&d.primitive)?]);
            return Some(Expr::call(func, arg));
        }
        let (q, base) = atom.root.as_ref()?;
        Some(Expr::pow(
            self.poly_expr(base)?,
            number(&num_rational::BigRational::new(1.into(), (*q).into())),
        ))
    }
}

/// The angles (`atan`, `asin`, `acos` of numbers) in the terms of one rest, with their
/// coefficients, and the coefficient of `pi` there.
struct Angles {
    terms: Vec<(u32, Q)>,
    pi: Q,
}

impl Default for Angles {
    fn default() -> Angles {
        Angles {
            terms: Vec::new(),
            pi: Q::zero(),
        }
    }
}

/// `a` against `b` as exponent vectors, lexicographically in the order of the atoms.
fn lex(a: &Mono, b: &Mono) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut i, mut j) = (0, 0);
    loop {
        let (x, y) = (a.get(i), b.get(j));
        let (order, step_a, step_b) = match (x, y) {
            (None, None) => return Ordering::Equal,
            (Some(&(_, e)), None) => (e.cmp(&0), true, false),
            (None, Some(&(_, f))) => (0.cmp(&f), false, true),
            (Some(&(s, e)), Some(&(t, f))) => match s.cmp(&t) {
                Ordering::Less => (e.cmp(&0), true, false),
                Ordering::Greater => (0.cmp(&f), false, true),
                Ordering::Equal => (e.cmp(&f), true, true),
            },
        };
        if order != Ordering::Equal {
            return order;
        }
        i += usize::from(step_a);
        j += usize::from(step_b);
    }
}

/// The group of `rest` in `groups`, made empty when it is new.
fn group<T: Default>(groups: &mut Vec<(Mono, T)>, rest: Mono) -> &mut T {
    let at = match groups.iter().position(|(r, _)| *r == rest) {
        Some(at) => at,
        None => {
            groups.push((rest, T::default()));
            groups.len() - 1
        }
    };
    &mut groups[at].1
}

/// The coefficients `k` of `logs` as coprime integers `k/g` (`g` the greatest rational that
/// divides them all), with the first (in atom order) positive, so that one combination scaled
/// is one key, and the factor `±1/g` that makes them; `None` past [`MAX_LOG_EXPONENT`]. (The
/// limit applies after the division: a cleared denominator scales every coefficient of a group,
/// `9/4·log a + 9/2·log b` is `log a + 2·log b` 9/4 times.)
pub(super) fn exponents(logs: &[(u32, Q)]) -> Option<(Vec<(u32, i64)>, Q)> {
    use num_bigint::BigInt;
    use num_traits::{One, Zero};
    let (mut numerators, mut denominators) = (BigInt::zero(), BigInt::one());
    for (_, k) in logs {
        let k = k.to_big();
        numerators = numerators.gcd(k.numer());
        denominators = denominators.lcm(k.denom());
    }
    if numerators.is_zero() {
        return None;
    }
    let mut out = Vec::with_capacity(logs.len());
    for (log, k) in logs {
        let k = k.to_big();
        let n = k.numer() * (&denominators / k.denom()) / &numerators;
        let n = n.to_i64().filter(|n| n.abs() <= MAX_LOG_EXPONENT)?;
        out.push((*log, n));
    }
    out.sort_unstable();
    let mut scale = Q::from_big(num_rational::BigRational::new(denominators, numerators));
    if out.first().is_some_and(|(_, n)| *n < 0) {
        for (_, n) in &mut out {
            *n = -*n;
        }
        scale = -scale;
    }
    Some((out, scale))
}
