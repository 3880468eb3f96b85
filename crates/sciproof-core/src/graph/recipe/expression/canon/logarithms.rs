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
//! Nothing here is numeric but the sign proof; an argument whose sign the ball cannot settle,
//! or that holds a symbol (`pi` included), leaves the form as it was.

use super::{Canon, Frac, Mono, NotExact, Poly, Trig, constant, negated};
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
                        return Ok(false);
                    };
                    group(&mut angles, rest(pi)).pi += c.clone();
                }
                _ => return Ok(false),
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
            if !self.product_is_one(&exponents)? {
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

    /// Whether `Σ n·log A = 0` over `exponents` (atoms `log A` with integers `n`): every `A` a
    /// number shown positive, and `Π A^n = 1`.
    fn product_is_one(&mut self, exponents: &[(u32, i64)]) -> Result<bool, NotExact> {
        let (mut above, mut below) = (constant(Q::one()), constant(Q::one()));
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
        // Π A^n = 1 exactly when the numerator of (above − below) is zero (below > 0)
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

    /// Whether `f` is a number (no symbol in it) that a ball shows to be positive.
    fn positive_number(&mut self, f: &Frac) -> bool {
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
    fn atom_expr(&self, a: u32) -> Option<Expr> {
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
