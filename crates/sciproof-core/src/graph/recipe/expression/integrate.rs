//! Symbolic antiderivatives for definite integrals, and when `F(upper) − F(lower)` may decide.
//!
//! [`candidates`] proposes antiderivatives from a small table: polynomials (with any
//! coefficients), `h(ax+b)` for `exp`, `sin`, `cos`, `sinh`, `cosh`, `log`, `atan`, `tan` and
//! powers of `ax+b` (with `log(±(ax+b))` for the reciprocal), `1/(x^2+c)`, `sin^2` and `cos^2`
//! of a linear argument, products of sines and cosines of linear arguments (product to sum),
//! a polynomial times `exp`, `sin`, `cos`, `sinh` or `cosh` of a linear argument (by
//! parts), `exp` of a quadratic with a negative leading coefficient (`erf`), and
//! `(1 − m sin²(ax+b))^(±1/2)` (`EllipticE`, `EllipticF`); `asin`, `acos`, `asinh`, `acosh`,
//! `atanh`, `erf`, `erfc` and `tanh` of a linear argument, `sec`, `csc` and `sech` of one,
//! powers of `sin` and `cos` and their products (`sin^3`, `sin^2·cos^3`, `cos^4`, times a
//! polynomial), powers of `tan`, `1/(1 + cos u)`, `exp·sin` and `exp·cos`,
//! `√q` and `1/√q` for a quadratic `q` (`asin`, `asinh` or a `log`) and `P/√q`, a polynomial
//! times `log` or `atan` of a polynomial (by parts, the rest by partial fractions) or times
//! `asin`, `acos`, `asinh`, `acosh` of a linear argument (by parts, the rest as `P/√q`),
//! `sec^k` and `csc^k` (reduction formulas), `sec^n·tan`, `sin^2m·cos^2n`, `q^(−3/2)`,
//! `P·exp·sin`, `P·exp·cos` (closed form), `P` times a product of sines and cosines or of
//! `sinh` and `cosh` (product to sum), `(px + q)·sec^2` and `(px + q)·tan^2` (by parts),
//! `P·h(u)` and `P·exp(u)·sin(u)` for polynomials with `P = Q(u)·u'`, `h(u)/v` through `Si`,
//! `Ci`, `Shi`, `Chi`, `Ei`, and `log(w)` or `atan(w)` times anything the table integrates
//! twice over by parts (`by_parts`). Where the table has
//! nothing: any rational function with exact coefficients whose denominator has rational
//! roots and powers of quadratic factors ([`super::partial_fractions`]), a rational function
//! of `exp(ax)`, the chain rule read backwards (`c·h(u)·u'`, `c·g^n·g'`), and an inverse
//! substitution ([`super::inverse_substitution`]). A candidate is
//! never trusted as proposed: [`DefiniteIntegral::antiderivative`] keeps one only if
//! `d/dx F − f` passes the exact zero test, and then only if `F` and `f` are continuous on the
//! closed interval: either both are continuous everywhere by their form
//! ([`continuous_everywhere`]: entire functions, and powers, `log` and `sqrt` of polynomials
//! positive everywhere), or ball evaluations of both over the interval (the whole, or pieces of
//! it) meet no pole and no domain boundary. So a pole inside the interval, or an antiderivative that jumps there
//! (alkahest's `tan(x/2)` substitution for `1/(2+cos x)`), can never make a divergent or false
//! integral exact.

use super::ball::{Ball, Evaluator};
use super::canon;
use super::diff::{derivative, square};
use super::domain::RealDomain;
use super::eval::{Bindings, constant};
use super::expr::{Budget, Expr, Func, TooLarge, exact_value};
use super::partial_fractions as pf;
use super::rational::Q;
use astro_float_num::BigFloat;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::rc::Rc;

/// The highest degree a polynomial is expanded to.
const MAX_DEGREE: usize = 32;
/// The highest degree of a polynomial integrand with exact coefficients integrated term by
/// term ([`long_polynomial`]).
pub(super) const MOST_INTEGRAND_DEGREE: usize = 256;

/// A polynomial in the variable: coefficient expressions (free of the variable) by power.
type Poly = Vec<Expr>;

/// The integrand's polynomial form, if it is a polynomial in `var`.
pub(super) fn polynomial(
    e: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Poly>, TooLarge> {
    polynomial_in(&Trees, e, var, MAX_DEGREE, budget)
}

/// How [`polynomial_in`] builds the coefficients of a polynomial: as expressions
/// ([`Trees`]), as exact numbers ([`Numbers`]), or not at all, for its shape alone ([`Shape`]).
trait Coefficients {
    type C: Clone;
    /// A part free of the variable as a coefficient; `None` refuses the polynomial.
    fn constant(&self, e: &Expr) -> Option<Self::C>;
    /// The integer `n`.
    fn integer(&self, n: i64) -> Self::C;
    fn product(&self, a: &Self::C, b: &Self::C) -> Self::C;
    /// A sum being built (the terms of an expression, a number so far).
    type Sum;
    fn empty_sum(&self) -> Self::Sum;
    fn add(&self, sum: &mut Self::Sum, c: Self::C);
    fn sum(&self, sum: Self::Sum) -> Self::C;
    /// `a + c` in place of `a` (a sum of the two, unless a kind has a cheaper way).
    fn add_to(&self, a: &mut Self::C, c: Self::C) {
        let mut both = self.empty_sum();
        self.add(&mut both, a.clone());
        self.add(&mut both, c);
        *a = self.sum(both);
    }
}

/// Coefficient expressions, folded as they are built.
struct Trees;

impl Coefficients for Trees {
    type C = Expr;
    fn constant(&self, e: &Expr) -> Option<Expr> {
        // (a number as one leaf, so that `folded` folds the products it is in: `x − 1` is
        // `x + (−1)·1`, and the coefficients of `(x − 1)^22` built from an unfolded `(−1)·1`
        // were trees of 2^22 leaves, which exact_value then walked)
        Some(match exact_value(e) {
            Some(v) => number(&v),
            None => e.clone(),
        })
    }
    fn integer(&self, n: i64) -> Expr {
        Expr::int(n)
    }
    fn product(&self, a: &Expr, b: &Expr) -> Expr {
        folded(Expr::mul(vec![a.clone(), b.clone()]))
    }
    type Sum = Vec<Expr>;
    fn empty_sum(&self) -> Vec<Expr> {
        Vec::new()
    }
    fn add(&self, sum: &mut Vec<Expr>, c: Expr) {
        sum.push(c);
    }
    fn sum(&self, terms: Vec<Expr>) -> Expr {
        folded(Expr::add(terms))
    }
}

/// Exact numbers: a part without an exact value refuses the polynomial (it would leave some
/// coefficient without one). This is asked of every linear argument, denominator and root the
/// rules look at, and the trees of [`Trees`] were a fifth of a definite integral's cost.
struct Numbers;

impl Coefficients for Numbers {
    type C = Q;
    fn constant(&self, e: &Expr) -> Option<Q> {
        exact_value(e).map(Q::from_big)
    }
    fn integer(&self, n: i64) -> Q {
        Q::int(n)
    }
    fn product(&self, a: &Q, b: &Q) -> Q {
        a * b
    }
    type Sum = Q;
    fn empty_sum(&self) -> Q {
        Q::zero()
    }
    fn add(&self, sum: &mut Q, c: Q) {
        *sum += c;
    }
    fn sum(&self, sum: Q) -> Q {
        sum
    }
    fn add_to(&self, a: &mut Q, c: Q) {
        *a += c;
    }
}

/// No coefficients: whether an expression is a polynomial, and of which length.
struct Shape;

impl Coefficients for Shape {
    type C = ();
    fn constant(&self, _: &Expr) -> Option<()> {
        Some(())
    }
    fn integer(&self, _: i64) {}
    fn product(&self, _: &(), _: &()) {}
    type Sum = ();
    fn empty_sum(&self) {}
    fn add(&self, _: &mut (), _: ()) {}
    fn sum(&self, _: ()) {}
}

/// `e` as a polynomial in `var` (built by sums, products and natural powers up to degree
/// `most`) with its coefficients built by `ring`, by power; `None` when it is none.
fn polynomial_in<R: Coefficients>(
    ring: &R,
    e: &Expr,
    var: &str,
    most: usize,
    budget: &mut Budget,
) -> Result<Option<Vec<R::C>>, TooLarge> {
    budget.step()?;
    if !e.contains(var, budget)? {
        return Ok(ring.constant(e).map(|c| vec![c]));
    }
    Ok(match e {
        Expr::Sym(_) => Some(vec![ring.integer(0), ring.integer(1)]),
        Expr::Add(xs) => {
            let mut sum: Vec<R::C> = Vec::new();
            for x in xs.iter() {
                let Some(p) = polynomial_in(ring, x, var, most, budget)? else {
                    return Ok(None);
                };
                for (k, c) in p.into_iter().enumerate() {
                    if k < sum.len() {
                        ring.add_to(&mut sum[k], c);
                    } else {
                        sum.push(c);
                    }
                }
            }
            Some(sum)
        }
        Expr::Mul(xs) => {
            let mut product = vec![ring.integer(1)];
            for x in xs.iter() {
                let Some(p) = polynomial_in(ring, x, var, most, budget)? else {
                    return Ok(None);
                };
                product = match times(ring, &product, &p, most, budget)? {
                    Some(q) => q,
                    None => return Ok(None),
                };
            }
            Some(product)
        }
        Expr::Pow(p) => match natural_up_to(&p.1, most) {
            // (x + y)^0 is 1 whatever the base's coefficients: only its shape counts
            Some(0) => {
                polynomial_in(&Shape, &p.0, var, most, budget)?.map(|_| vec![ring.integer(1)])
            }
            Some(n) => {
                let Some(base) = polynomial_in(ring, &p.0, var, most, budget)? else {
                    return Ok(None);
                };
                let mut product = vec![ring.integer(1)];
                for _ in 0..n {
                    product = match times(ring, &product, &base, most, budget)? {
                        Some(q) => q,
                        None => return Ok(None),
                    };
                }
                Some(product)
            }
            None => None,
        },
        _ => None,
    })
}

fn times<R: Coefficients>(
    ring: &R,
    a: &[R::C],
    b: &[R::C],
    most: usize,
    budget: &mut Budget,
) -> Result<Option<Vec<R::C>>, TooLarge> {
    if a.len() + b.len() > most + 2 {
        return Ok(None);
    }
    let mut out: Vec<R::Sum> = (0..a.len() + b.len() - 1)
        .map(|_| ring.empty_sum())
        .collect();
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            budget.step()?;
            ring.add(&mut out[i + j], ring.product(x, y));
        }
    }
    Ok(Some(out.into_iter().map(|terms| ring.sum(terms)).collect()))
}

/// A sum or product of numbers as one number (one level: coefficients are folded as they
/// are built). A coefficient of a power of a sum is built by repeated products, and unfolded
/// its tree doubled with every factor (the coefficients of `x^2` alone were trees of zeros
/// and ones that every later step walked).
fn folded(e: Expr) -> Expr {
    let leaf = |x: &Expr| match x {
        Expr::Int(n) => Some(Q::from_integer(n)),
        Expr::Rat(r) => Some(Q::from_big((**r).clone())),
        _ => None,
    };
    let mut value = None;
    if let Expr::Add(xs) | Expr::Mul(xs) = &e {
        let adding = matches!(e, Expr::Add(_));
        let mut acc = Some(if adding { Q::zero() } else { Q::one() });
        for x in xs.iter() {
            acc = acc
                .zip(leaf(x))
                .map(|(a, b)| if adding { &a + &b } else { &a * &b });
        }
        value = acc;
    }
    match value {
        Some(Q::Small(n, 1)) => Expr::int(n),
        Some(q) => number(&q.to_big()),
        None => e,
    }
}

/// Whether `e` is exactly a natural number (0 included), however large: a power of it has
/// the domain and the continuity of its base (unlike [`natural_up_to`], which is a degree to
/// expand to).
pub(super) fn natural(e: &Expr) -> bool {
    exact_value(e).is_some_and(|n| n.is_integer() && !n.is_negative())
}

/// `e` as a natural number up to `most` (a degree to expand to).
fn natural_up_to(e: &Expr, most: usize) -> Option<usize> {
    exact_value(e)
        .filter(BigRational::is_integer)
        .and_then(|n| n.to_integer().to_usize())
        .filter(|n| *n <= most)
}

/// The coefficients of `e` as a polynomial in `var` when every one is an exact number.
pub fn numeric_polynomial(
    e: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Vec<BigRational>>, TooLarge> {
    Ok(polynomial_in(&Numbers, e, var, MAX_DEGREE, budget)?
        .map(|p| p.iter().map(Q::to_big).collect()))
}

/// `ax + b` with numeric `a ≠ 0` and `b`, if `e` is that (exactly).
pub fn linear(
    e: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<(BigRational, BigRational)>, TooLarge> {
    let numbers = numeric_polynomial(e, var, budget)?;
    Ok(match numbers.as_deref() {
        Some([b, a]) if !a.is_zero() => Some((a.clone(), b.clone())),
        Some([b, a, rest @ ..]) if !a.is_zero() && rest.iter().all(Zero::is_zero) => {
            Some((a.clone(), b.clone()))
        }
        _ => None,
    })
}

/// The reciprocal of the slope `a` of a line `e = a·var + b`, `a` and `b` free of `var` (for
/// what [`linear`] does not take: `x + c`, `a·x + 1`): `1/a` for a number `a ≠ 0` or for an `a`
/// that is no number; `None` otherwise, and for a slope the exact test shows constant (a
/// number written otherwise, `a − a`, which may be 0).
fn reciprocal_slope(e: &Expr, var: &str, budget: &mut Budget) -> Result<Option<Expr>, TooLarge> {
    let coefficients = polynomial(e, var, budget)?;
    let Some([_, a]) = coefficients.as_deref() else {
        return Ok(None);
    };
    if let Some(a) = exact_value(a) {
        return Ok((!a.is_zero()).then(|| number(&a.recip())));
    }
    if canon::constant_value(a, budget).is_ok_and(|c| c.is_some()) {
        return Ok(None);
    }
    Ok(Some(Expr::recip(a.clone())))
}

/// Whether `e` is a polynomial in `var` whose non-constant coefficients are all exactly 0.
fn constant_polynomial(e: &Expr, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
    Ok(polynomial(e, var, budget)?.is_some_and(|p| {
        p.iter()
            .skip(1)
            .all(|c| exact_value(c).is_some_and(|r| r.is_zero()))
    }))
}

/// An exact number as an expression.
pub fn number(r: &BigRational) -> Expr {
    if r.is_integer() {
        Expr::Int(Rc::new(r.to_integer()))
    } else {
        Expr::Rat(Rc::new(r.clone()))
    }
}

/// `ax + b` in `var`.
pub(super) fn lin(a: &BigRational, b: &BigRational, var: &str) -> Expr {
    Expr::add(vec![Expr::mul(vec![number(a), Expr::sym(var)]), number(b)])
}

/// Antiderivatives of `f` in `var` that the table proposes (possibly several, of which the
/// caller keeps one that verifies and is continuous); empty when the table has none.
pub fn candidates(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    budget.step()?;
    // (numbers first: most polynomial integrands have them, and `polynomial` builds a tree for
    // each coefficient)
    let p = match polynomial_in(&Numbers, f, var, MAX_DEGREE, budget)? {
        Some(p) => Some(p.iter().map(|c| number(&c.to_big())).collect()),
        None => polynomial(f, var, budget)?,
    };
    if let Some(p) = p {
        return Ok(vec![term_by_term(p, var)]);
    }
    Ok(match f {
        Expr::Add(xs) => {
            // Every combination would multiply out; one candidate per term is enough for the
            // forms the table knows (their alternatives differ only in a log's sign).
            let mut per_term = Vec::with_capacity(xs.len());
            for x in xs.iter() {
                let found = candidates(x, var, budget)?;
                per_term.push(if found.is_empty() {
                    fallback(x, var, budget)?
                } else {
                    found
                });
            }
            combine(per_term)
        }
        // A product of products is one product to the rules below (`[1, [−1, cos x], x^−1]`,
        // from by parts, is `cos x·x^−1` times constants).
        Expr::Mul(xs) if xs.iter().any(|x| matches!(x, Expr::Mul(_))) => {
            let mut flat = Vec::with_capacity(xs.len() + 2);
            f.flat_factors(&mut flat);
            candidates(&Expr::mul(flat), var, budget)?
        }
        Expr::Mul(xs) => {
            let (constant_factors, rest) = constant_factors(xs, var, budget)?;
            let inner = if let Some(merged) = like_bases_merged(&rest, budget)? {
                candidates(&Expr::mul(merged), var, budget)?
            } else if constant_factors.is_empty() {
                product(&rest, var, budget)?
            } else {
                candidates(&Expr::mul(rest), var, budget)?
            };
            times_constants(&constant_factors, inner)
        }
        Expr::Pow(p) => power(&p.0, &p.1, var, budget)?,
        Expr::Call(h, xs) if xs.len() == 1 => match linear(&xs[0], var, budget)? {
            Some((a, b)) => table(*h, &a, &b, var).into_iter().collect(),
            // An argument in which the variable cancels (`sin(x − x)` from product to sum).
            None if constant_polynomial(&xs[0], var, budget)? => {
                vec![Expr::mul(vec![f.clone(), Expr::sym(var)])]
            }
            // a line with a slope or an intercept free of the variable but no number
            // (`sin(a·x)`, `log(x + c)`): the same table, over the slope (where it is not 0, as
            // the claimed value is then too)
            None if let Some(over) = reciprocal_slope(&xs[0], var, budget)?
                && let Some(f) = table_over(*h, xs[0].clone(), over) =>
            {
                vec![f]
            }
            None if *h == Func::Exp => gaussian(&xs[0], var, budget)?.into_iter().collect(),
            None if *h == Func::Sqrt => power(&xs[0], &Expr::rat(1, 2), var, budget)?,
            None if matches!(h, Func::Log | Func::Atan) => {
                parts_through_rational(&[BigRational::one()], *h, &xs[0], var, budget)?
            }
            None => Vec::new(),
        },
        _ => Vec::new(),
    })
}

/// `factors` with the powers of one base multiplied together (`exp(x)·x^−1·x·log x` as
/// `exp(x)·log x`, from multiplying `exp(x)·x^−1·(1 + x·log x)` out), when two share a base;
/// `None` otherwise. Only a proposal's shape depends on it: each candidate is differentiated
/// against the integrand as written, and its continuity shown there.
fn like_bases_merged(factors: &[Expr], budget: &mut Budget) -> Result<Option<Vec<Expr>>, TooLarge> {
    let mut powers: Vec<(&Expr, BigRational)> = Vec::with_capacity(factors.len());
    let mut merged = false;
    'factors: for f in factors {
        let (base, n) = match f {
            Expr::Pow(p) if let Some(n) = exact_value(&p.1) => (&p.0, n),
            _ => (f, BigRational::one()),
        };
        for (other, m) in powers.iter_mut() {
            if other.identical(base, budget)? {
                *m += n;
                merged = true;
                continue 'factors;
            }
        }
        powers.push((base, n));
    }
    if !merged {
        return Ok(None);
    }
    Ok(Some(
        powers
            .into_iter()
            .filter(|(_, n)| !n.is_zero())
            .map(|(base, n)| {
                if n.is_one() {
                    base.clone()
                } else {
                    Expr::pow(base.clone(), number(&n))
                }
            })
            .collect(),
    ))
}

/// [`candidates`], or when the table has none, [`fallback`] over the whole of `f`.
pub(super) fn proposals(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let found = candidates(f, var, budget)?;
    if found.is_empty() {
        return fallback(f, var, budget);
    }
    Ok(found)
}

/// The factors free of `var` and the rest, each in order.
fn constant_factors(
    factors: &[Expr],
    var: &str,
    budget: &mut Budget,
) -> Result<(Vec<Expr>, Vec<Expr>), TooLarge> {
    let (mut constant, mut rest) = (Vec::new(), Vec::new());
    for x in factors {
        if x.contains(var, budget)? {
            rest.push(x.clone());
        } else {
            constant.push(x.clone());
        }
    }
    Ok((constant, rest))
}

/// Each of `found` times the `constant` factors (before it).
fn times_constants(constant: &[Expr], found: Vec<Expr>) -> Vec<Expr> {
    found
        .into_iter()
        .map(|g| {
            let mut factors = constant.to_vec();
            factors.push(g);
            Expr::mul(factors)
        })
        .collect()
}

/// `∫ Σ c_k x^k = Σ c_k x^(k+1)/(k+1)`.
fn term_by_term(p: Poly, var: &str) -> Expr {
    let terms: Vec<Expr> = p
        .into_iter()
        .enumerate()
        .filter(|(_, c)| !exact_value(c).is_some_and(|r| r.is_zero()))
        .map(|(k, c)| {
            let k1 = Expr::int(k as i64 + 1);
            Expr::mul(vec![
                c,
                Expr::pow(Expr::sym(var), k1.clone()),
                Expr::recip(k1),
            ])
        })
        .collect();
    if terms.is_empty() {
        return Expr::int(0);
    }
    Expr::add(terms)
}

/// A polynomial with exact coefficients of a degree past [`MAX_DEGREE`], the degree every
/// other rule expands to, and up to [`MOST_INTEGRAND_DEGREE`], term by term: `(1 + x^2)^33`.
fn long_polynomial(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let Some(p) = polynomial_in(&Numbers, f, var, MOST_INTEGRAND_DEGREE, budget)? else {
        return Ok(Vec::new());
    };
    let p = p.iter().map(|c| number(&c.to_big())).collect();
    Ok(vec![term_by_term(p, var)])
}

/// How deeply [`shifted`] may nest in itself (the rules it calls on `g(u)` may build lines in
/// `u` again); each level costs stack, which the budget's steps do not bound.
const MAX_SHIFT_NESTING: u32 = 2;

/// `∫ g(ax + b) dx = G(ax + b)/a` where every occurrence of the variable is within one line
/// `ax + b` other than `x` itself: `(x + 1)^33·log(x + 1)` is `u^33·log u`, which the table
/// has for any power, where its expansion of `(x + 1)^33` stops at [`MAX_DEGREE`].
fn shifted(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    // The new variable: a name no parsed symbol can have, distinct at each depth.
    let u = format!("{var}·u");
    let mut line = None;
    let Some(g) = over_one_line(f, var, &Expr::sym(&u), &mut line, budget)? else {
        return Ok(Vec::new());
    };
    let Some((a, b)) = line.filter(|(a, b)| !(a.is_one() && b.is_zero())) else {
        return Ok(Vec::new());
    };
    let back = lin(&a, &b, var);
    let Some(in_u) = budget.deeper(MAX_SHIFT_NESTING, |budget| proposals(&g, &u, budget)) else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for h in in_u? {
        found.push(Expr::mul(vec![
            number(&a.recip()),
            h.substitute(&u, &back, budget)?,
        ]));
    }
    Ok(found)
}

/// `e` with each largest part that is a line in `var` replaced by `u`, where all are the same
/// line (recorded in `line`); `None` where two differ.
fn over_one_line(
    e: &Expr,
    var: &str,
    u: &Expr,
    line: &mut Option<(BigRational, BigRational)>,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    if !e.contains(var, budget)? {
        return Ok(Some(e.clone()));
    }
    if let Some(this) = linear(e, var, budget)? {
        if line.get_or_insert_with(|| this.clone()) != &this {
            return Ok(None);
        }
        return Ok(Some(u.clone()));
    }
    let mut each = |xs: &[Expr], budget: &mut Budget| -> Result<Option<Vec<Expr>>, TooLarge> {
        let mut out = Vec::with_capacity(xs.len());
        for x in xs {
            let Some(y) = over_one_line(x, var, u, line, budget)? else {
                return Ok(None);
            };
            out.push(y);
        }
        Ok(Some(out))
    };
    Ok(match e {
        Expr::Add(xs) => each(xs, budget)?.map(Expr::add),
        Expr::Mul(xs) => each(xs, budget)?.map(Expr::mul),
        Expr::Call(h, xs) => each(xs, budget)?.map(|ys| Expr::Call(*h, ys.into())),
        Expr::Pow(p) => each(&[p.0.clone(), p.1.clone()], budget)?.map(|mut ys| {
            let exponent = ys.pop().expect("two");
            Expr::pow(ys.pop().expect("two"), exponent)
        }),
        Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) | Expr::Sym(_) => None,
    })
}

/// What is tried where the table has nothing: the [`FALLBACK`] rules in order, the first that
/// proposes anything deciding what is proposed.
fn fallback(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    // Factors free of the variable stand outside (`a` in `a·x/(x² + b)`: the rules find
    // constants that are numbers).
    if let Expr::Mul(xs) = f {
        let (constant, rest) = constant_factors(xs, var, budget)?;
        if !constant.is_empty() && !rest.is_empty() {
            return Ok(times_constants(
                &constant,
                fallback(&Expr::mul(rest), var, budget)?,
            ));
        }
    }
    for rule in FALLBACK {
        let found = rule(f, var, budget)?;
        if !found.is_empty() {
            return Ok(found);
        }
    }
    Ok(Vec::new())
}

/// A rule of the [`fallback`]: antiderivatives it proposes for `f` in `var` (none when it does
/// not apply).
type Rule = fn(&Expr, &str, &mut Budget) -> Result<Vec<Expr>, TooLarge>;

/// The [`fallback`]'s rules, in the order they are tried: the particular before the general,
/// and last those whose proposals, right or wrong, would stand in the way of the others'.
const FALLBACK: [Rule; 15] = [
    // a polynomial past the table's degree, term by term
    long_polynomial,
    // partial fractions of a rational function with exact coefficients ([`pf`])
    partial_fractions,
    // N/(x⁴ + px² + q), over the two real quadratics x² ± s·x + √q
    biquadratic,
    // a rational function of exp
    exponential_rational,
    substitution,
    // t = √(ax + b), t = log(ax), ...
    super::inverse_substitution::antiderivatives,
    // t = sin x, t = tan(x/2), ...
    super::forward_substitution::antiderivatives,
    // N/(ax + b)^n·√Q^(±1), through x − r = 1/u
    rational_over_root,
    // 1/((ax² + p)·√(bx² + q)), through t = x/√(bx² + q)
    quadratic_over_root,
    inverse_hyperbolics_written,
    root_of_a_square,
    polynomial_by_parts,
    reciprocal_power_by_parts,
    // N/(A + c·√P), times the conjugate A − c·√P
    conjugate,
    // g(ax + b), through u = ax + b
    shifted,
];

/// [`pf::antiderivatives`] of `f` when it is a rational function with a denominator.
fn partial_fractions(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    match rational_function(f, var, budget)? {
        Some((n, d)) if d.len() > 1 => pf::antiderivatives(&n, &d, var, budget),
        _ => Ok(Vec::new()),
    }
}

/// `∫ N/(x⁴ + p·x² + q) dx` (times a constant) for a polynomial `N` with exact coefficients,
/// where `r = √q` is rational and `2r − p`, `2r + p` are positive: the quartic is
/// `(x² + s·x + r)(x² − s·x + r)` with `s = √(2r − p)`, which partial fractions over the
/// rationals cannot see when `s` is irrational (`1 + x⁴`, `s = √2`). With `N` reduced below
/// degree 4 (`n₀ + n₁x + n₂x² + n₃x³`), `N/D = (Ax + B)/(x² + sx + r) + (Cx + E)/(x² − sx + r)`
/// with `A + C = n₃`, `C − A = (n₂ − n₀/r)/s`, `B + E = n₀/r`, `E − B = (n₁ − r·n₃)/s`; each
/// part is a logarithm plus an `atan` of `(x ± s/2)/k`, `k = √(2r + p)/2` (so `∫ 2t²/(1 + t⁴)`,
/// what `t = √x` makes of alkahest's `√x/(1 + x²)`).
fn biquadratic(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let Some((n, d)) = rational_function(f, var, budget)? else {
        return Ok(Vec::new());
    };
    let d = pf::trimmed(d);
    let [d0, d1, d2, d3, d4] = d.as_slice() else {
        return Ok(Vec::new());
    };
    if !d1.is_zero() || !d3.is_zero() || d4.is_zero() {
        return Ok(Vec::new());
    }
    let (p, q) = (d2 / d4, d0 / d4);
    let Some(r) = pf::exact_square_root(&q).filter(|r| r.is_positive()) else {
        return Ok(Vec::new());
    };
    let two_r = &r + &r;
    let (s2, k2) = (&two_r - &p, &two_r + &p);
    if !s2.is_positive() || !k2.is_positive() {
        return Ok(Vec::new());
    }
    // N/d4 = quotient·D + remainder, D monic
    let monic: Vec<BigRational> = d.iter().map(|c| c / d4).collect();
    let scaled: Vec<BigRational> = n.iter().map(|c| c / d4).collect();
    let (quotient, remainder) = pf::divide(&scaled, &monic);
    let at = |j: usize| remainder.get(j).cloned().unwrap_or_default();
    let (n0, n1, n2, n3) = (at(0), at(1), at(2), at(3));
    let half = BigRational::new(1.into(), 2.into());
    // with 1/s = s/s², every coefficient is a + b·s for rationals a, b
    let over_s = |c: BigRational| &c / &s2;
    let s = square_root(&s2, 1);
    let plus_s = |a: BigRational, b: BigRational| {
        Expr::add(vec![number(&a), Expr::mul(vec![number(&b), s.clone()])])
    };
    let (sum_ac, diff_ac) = (n3.clone(), over_s(&n2 - &n0 / &r));
    let (sum_be, diff_be) = (&n0 / &r, over_s(&n1 - &r * &n3));
    // A = (sum − diff)/2, C = (sum + diff)/2 (diff a multiple of s), and B, E alike
    let halves = |sum: &BigRational, diff: &BigRational, sign: &BigRational| {
        (sum * &half, diff * &half * sign)
    };
    let k = Expr::mul(vec![Expr::rat(1, 2), square_root(&k2, 1)]);
    let mut terms = vec![pf::expression(&pf::integral(&quotient), var)];
    for sign in [-BigRational::one(), BigRational::one()] {
        // (A x + B)/(x² + σ·s·x + r) with σ = −sign (A for the + factor)
        let sigma = -&sign;
        let (a0, a1) = halves(&sum_ac, &diff_ac, &sign);
        let (b0, b1) = halves(&sum_be, &diff_be, &sign);
        let quadratic = Expr::add(vec![
            Expr::pow(Expr::sym(var), Expr::int(2)),
            Expr::mul(vec![number(&sigma), s.clone(), Expr::sym(var)]),
            number(&r),
        ]);
        // A/2·log(quadratic) + (B − σ·A·s/2)/k·atan((x + σ·s/2)/k), with A·s = a0·s + a1·s²
        let a = plus_s(a0.clone(), a1.clone());
        let b_minus = plus_s(&b0 - &sigma * &a1 * &s2 * &half, &b1 - &sigma * &a0 * &half);
        let shifted = Expr::add(vec![
            Expr::sym(var),
            Expr::mul(vec![number(&(&sigma * &half)), s.clone()]),
        ]);
        terms.push(Expr::mul(vec![
            Expr::rat(1, 2),
            a,
            Expr::call(Func::Log, quadratic),
        ]));
        terms.push(Expr::mul(vec![
            b_minus,
            Expr::recip(k.clone()),
            Expr::call(Func::Atan, Expr::mul(vec![shifted, Expr::recip(k.clone())])),
        ]));
    }
    Ok(vec![Expr::add(terms)])
}

/// The proposals for `f` with its inverse hyperbolic functions written as such
/// ([`inverse_hyperbolics_named`]).
fn inverse_hyperbolics_written(
    f: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Vec<Expr>, TooLarge> {
    match inverse_hyperbolics_named(f, var, budget)? {
        Some(named) => proposals(&named, var, budget),
        None => Ok(Vec::new()),
    }
}

/// `f` with each `log(u + √(u² + 1))` written `asinh(u)` and each `log(u + √(u² − 1))`
/// `acosh(u)` (the sum in either order, `u² ± 1` in any form the exact test reduces to it),
/// or `None` when it has neither: `∫ log(x + √(1 + x²))` is then the table's `∫ asinh`. The
/// first is an identity for every real `u`; the second holds wherever its left side is
/// defined (`u ≥ 1`). Either way the antiderivatives proposed are verified against `f` as it
/// is written.
fn inverse_hyperbolics_named(
    f: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    let mut named = false;
    let g = super::inverse_substitution::mapped(f, budget, &mut |e, budget| {
        let Expr::Call(Func::Log, xs) = e else {
            return Ok(None);
        };
        let Expr::Add(terms) = &xs[0] else {
            return Ok(None);
        };
        let [a, b] = &terms[..] else {
            return Ok(None);
        };
        for (root, u) in [(a, b), (b, a)] {
            let Some((square, 1)) = square_root_factor(root) else {
                continue;
            };
            let rest = Expr::minus(square.clone(), Expr::pow(u.clone(), Expr::int(2)));
            let func = match canon::constant_value_in(&rest, Some(var), budget) {
                Ok(Some(c)) if c.is_one() => Func::Asinh,
                Ok(Some(c)) if (-&c).is_one() => Func::Acosh,
                _ => continue,
            };
            named = true;
            return Ok(Some(Expr::call(func, u.clone())));
        }
        Ok(None)
    })?;
    Ok(named.then_some(g))
}

/// The stand-in for `exp(a·x)` in [`exponential_rational`] (no parsed symbol has this name).
const EXP_T: &str = "exp·t";

/// `∫ R(exp(a·x)) dx = ∫ R(t)/(a·t) dt` at `t = exp(a·x)`, for a rational function `R` with
/// exact coefficients and every `exp` of `f` of the form `exp(j·a·x)` for integers `j`
/// (`1/(1 + exp(x))`, `exp(2x)/(exp(x) + 1)`); the rational integral by partial fractions.
fn exponential_rational(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let mut slopes = Vec::new();
    exponential_slopes(f, var, &mut slopes, budget)?;
    let Some(a) = slopes.iter().min_by(|x, y| x.abs().cmp(&y.abs())).cloned() else {
        return Ok(Vec::new());
    };
    let Some(g) = in_powers_of_exp(f, var, &a, budget)? else {
        return Ok(Vec::new());
    };
    let Some((n, d)) = rational_function(&g, EXP_T, budget)? else {
        return Ok(Vec::new());
    };
    // R(t)/(a·t)
    let d = pf::mul(&d, &[BigRational::zero(), a.clone()]);
    let t = Expr::call(Func::Exp, Expr::mul(vec![number(&a), Expr::sym(var)]));
    let mut out = Vec::new();
    for g in pf::antiderivatives(&n, &d, EXP_T, budget)? {
        out.push(g.substitute(EXP_T, &t, budget)?);
    }
    Ok(out)
}

/// The slopes `a` of the calls `exp(a·x)`, `sinh(a·x)`, `cosh(a·x)` and `tanh(a·x)` in `e` (a
/// call of another argument is left out: [`in_powers_of_exp`] then finds `f` not rational in
/// one exponential).
fn exponential_slopes(
    e: &Expr,
    var: &str,
    out: &mut Vec<BigRational>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    each_call(e, budget, &mut |call, budget| {
        if let Expr::Call(Func::Exp | Func::Sinh | Func::Cosh | Func::Tanh, xs) = call
            && let Some((a, b)) = linear(&xs[0], var, budget)?
            && b.is_zero()
        {
            out.push(a);
        }
        Ok(())
    })
}

/// `e` with each `exp(j·a·x)` written `t^j` (`t` being [`EXP_T`]), and `sinh(j·a·x)`,
/// `cosh(j·a·x)`, `tanh(j·a·x)` as `(t^j ∓ t^−j)/2` and `(t^2j − 1)/(t^2j + 1)` (so
/// `1/(cosh x + sinh x)` is `1/t`); `None` when some `j` is not an integer within the degree
/// limit, or `var` occurs anywhere else.
fn in_powers_of_exp(
    e: &Expr,
    var: &str,
    a: &BigRational,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    budget.step()?;
    if !e.contains(var, budget)? {
        return Ok(Some(e.clone()));
    }
    let all = |xs: &[Expr], budget: &mut Budget| -> Result<Option<Vec<Expr>>, TooLarge> {
        let mut out = Vec::with_capacity(xs.len());
        for x in xs {
            match in_powers_of_exp(x, var, a, budget)? {
                Some(y) => out.push(y),
                None => return Ok(None),
            }
        }
        Ok(Some(out))
    };
    let power = |j: i64| Expr::pow(Expr::sym(EXP_T), Expr::int(j));
    Ok(match e {
        Expr::Call(h @ (Func::Exp | Func::Sinh | Func::Cosh | Func::Tanh), xs) => {
            match linear(&xs[0], var, budget)? {
                Some((slope, b)) if b.is_zero() => {
                    let j = slope / a;
                    j.is_integer()
                        .then(|| j.to_integer().to_i64())
                        .flatten()
                        .filter(|j| 2 * j.unsigned_abs() as usize <= MAX_DEGREE)
                        .map(|j| match h {
                            Func::Exp => power(j),
                            Func::Sinh | Func::Cosh => Expr::mul(vec![
                                Expr::rat(1, 2),
                                Expr::add(vec![
                                    power(j),
                                    Expr::mul(vec![
                                        Expr::int(if *h == Func::Sinh { -1 } else { 1 }),
                                        power(-j),
                                    ]),
                                ]),
                            ]),
                            _ => Expr::mul(vec![
                                Expr::add(vec![power(2 * j), Expr::int(-1)]),
                                Expr::recip(Expr::add(vec![power(2 * j), Expr::int(1)])),
                            ]),
                        })
                }
                _ => None,
            }
        }
        Expr::Add(xs) => all(xs, budget)?.map(Expr::add),
        Expr::Mul(xs) => all(xs, budget)?.map(Expr::mul),
        Expr::Pow(p) if !p.1.contains(var, budget)? => {
            in_powers_of_exp(&p.0, var, a, budget)?.map(|b| Expr::pow(b, p.1.clone()))
        }
        _ => None,
    })
}

/// `(N, D)` with `e = N/D` for polynomials `N`, `D` in `var` with exact coefficients, when `e`
/// is built from such by sums, products and integer powers (within the degree limits: a
/// polynomial part up to [`MOST_INTEGRAND_DEGREE`], as [`long_polynomial`] integrates, so
/// `x^33/(x + 1)` is one; a denominator up to [`MAX_DEGREE`]).
pub(super) fn rational_function(
    e: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<(pf::Poly, pf::Poly)>, TooLarge> {
    budget.step()?;
    if let Some(p) = polynomial_in(&Numbers, e, var, MOST_INTEGRAND_DEGREE, budget)? {
        let p = p.iter().map(Q::to_big).collect();
        return Ok(Some((p, vec![BigRational::one()])));
    }
    let fits = |(n, d): &(pf::Poly, pf::Poly)| {
        n.len() <= MOST_INTEGRAND_DEGREE + 1 && d.len() <= MAX_DEGREE
    };
    let mut parts = Vec::new();
    let combined = match e {
        Expr::Add(xs) | Expr::Mul(xs) => {
            for x in xs.iter() {
                let Some(part) = rational_function(x, var, budget)? else {
                    return Ok(None);
                };
                parts.push(part);
            }
            let adding = matches!(e, Expr::Add(_));
            let mut acc = (
                if adding {
                    Vec::new()
                } else {
                    vec![BigRational::one()]
                },
                vec![BigRational::one()],
            );
            for (n, d) in parts {
                budget.steps(if adding {
                    pf::mul_steps(&acc.0, &d)
                        .saturating_add(pf::mul_steps(&n, &acc.1))
                        .saturating_add(pf::mul_steps(&acc.1, &d))
                } else {
                    pf::mul_steps(&acc.0, &n).saturating_add(pf::mul_steps(&acc.1, &d))
                })?;
                acc = if adding {
                    (
                        pf::add(&pf::mul(&acc.0, &d), &pf::mul(&n, &acc.1)),
                        pf::mul(&acc.1, &d),
                    )
                } else {
                    (pf::mul(&acc.0, &n), pf::mul(&acc.1, &d))
                };
                if !fits(&acc) {
                    return Ok(None);
                }
            }
            acc
        }
        Expr::Pow(p) => {
            let Some(k) = exact_value(&p.1)
                .filter(BigRational::is_integer)
                .and_then(|k| k.to_integer().to_i64())
                .filter(|k| k.unsigned_abs() as usize <= MAX_DEGREE)
            else {
                return Ok(None);
            };
            let Some((n, d)) = rational_function(&p.0, var, budget)? else {
                return Ok(None);
            };
            if n.is_empty() {
                return Ok(None);
            }
            let (mut pn, mut pd) = (vec![BigRational::one()], vec![BigRational::one()]);
            for _ in 0..k.unsigned_abs() {
                budget.steps(pf::mul_steps(&pn, &n).saturating_add(pf::mul_steps(&pd, &d)))?;
                pn = pf::mul(&pn, &n);
                pd = pf::mul(&pd, &d);
                if !fits(&(pn.clone(), pd.clone())) && !fits(&(pd.clone(), pn.clone())) {
                    return Ok(None);
                }
            }
            if k < 0 { (pd, pn) } else { (pn, pd) }
        }
        _ => return Ok(None),
    };
    Ok(fits(&combined).then_some(combined))
}

/// `∫ c·h(u)·u' dx = c·H(u)` for `h` among `exp`, `sin`, `cos`, `sinh`, `cosh` and an argument
/// `u` that is not linear (the chain rule read backwards: `2x·exp(x^2)`,
/// `(1 + tan(x)^2)·cos(tan x)`): each such call in `f` is tried, and kept when the exact test
/// shows `f / (h(u)·u')` to be a constant `c ≠ 0`. (The candidate is then verified like any
/// other: differentiated exactly, and shown continuous on the interval.)
fn substitution(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let mut calls = Vec::new();
    inner_calls(f, var, &mut calls, budget)?;
    for call in calls {
        let Expr::Call(h, xs) = &call else {
            continue;
        };
        let u = xs[0].clone();
        let outer = match h {
            Func::Exp => Expr::call(Func::Exp, u.clone()),
            Func::Sin => Expr::negated(Expr::call(Func::Cos, u.clone())),
            Func::Cos => Expr::call(Func::Sin, u.clone()),
            Func::Sinh => Expr::call(Func::Cosh, u.clone()),
            Func::Cosh => Expr::call(Func::Sinh, u.clone()),
            _ => continue,
        };
        let Ok(du) = derivative(&u, var, budget) else {
            continue;
        };
        let quotient = Expr::mul(vec![
            f.clone(),
            Expr::recip(Expr::mul(vec![call.clone(), du])),
        ]);
        if let Ok(Some(c)) = canon::constant_value_in(&quotient, Some(var), budget)
            && !c.is_zero()
        {
            return Ok(vec![Expr::mul(vec![number(&c), outer])]);
        }
    }
    power_substitution(f, var, budget)
}

/// `∫ c·g^n·g' dx = c·g^(n+1)/(n+1)`, and `c·log(±g)` for `n = −1`, for a factor `g^n` of `f`
/// (`sqrt(g)` as `g^(1/2)`, any other factor as `g^1`) when the exact test shows
/// `f / (g^n·g')` to be a constant `c ≠ 0`: `x·sqrt(1 + x^2)`, `sin(x)^2·cos(x)`,
/// `log(x)/x`, `cos(x)/sin(x)`, `x/(x^2 + 1)^2`. At most six factors are tried.
fn power_substitution(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let factors: &[Expr] = match f {
        Expr::Mul(xs) => xs,
        _ => std::slice::from_ref(f),
    };
    let mut tried = 0;
    for factor in factors {
        let (g, n) = match factor {
            Expr::Pow(p) => match (exact_value(&p.1), &p.0) {
                // sqrt(g)^n = g^(n/2)
                (Some(n), Expr::Call(Func::Sqrt, xs)) => {
                    (xs[0].clone(), n / BigRational::from_integer(2.into()))
                }
                (Some(n), _) => (p.0.clone(), n),
                (None, _) => continue,
            },
            Expr::Call(Func::Sqrt, xs) => (xs[0].clone(), BigRational::new(1.into(), 2.into())),
            _ => (factor.clone(), BigRational::one()),
        };
        // (u^m)^n = u^(mn) for integers (how `1/(x^2 + 1)^2` is parsed)
        let (g, n) = match &g {
            Expr::Pow(p)
                if n.is_integer()
                    && let Some(m) = exact_value(&p.1).filter(BigRational::is_integer) =>
            {
                (p.0.clone(), m * n)
            }
            _ => (g, n),
        };
        if !g.contains(var, budget)? || linear(&g, var, budget)?.is_some() {
            // (a linear g is the table's)
            continue;
        }
        tried += 1;
        if tried > 6 {
            break;
        }
        let Ok(dg) = derivative(&g, var, budget) else {
            continue;
        };
        let quotient = Expr::mul(vec![
            f.clone(),
            Expr::pow(g.clone(), number(&-&n)),
            Expr::recip(dg),
        ]);
        let Ok(Some(c)) = canon::constant_value_in(&quotient, Some(var), budget) else {
            continue;
        };
        if c.is_zero() {
            continue;
        }
        let n1 = n + BigRational::one();
        if n1.is_zero() {
            let log = |e: Expr| Expr::mul(vec![number(&c), Expr::call(Func::Log, e)]);
            return Ok(vec![log(g.clone()), log(Expr::negated(g))]);
        }
        return Ok(vec![Expr::mul(vec![
            number(&(c / &n1)),
            Expr::pow(g, number(&n1)),
        ])]);
    }
    Ok(Vec::new())
}

/// The calls of one argument in `e` whose argument holds `var` but is not linear in it, each
/// once (at most eight), and `exp(t)` for each such term `t` of the argument of an `exp` of a
/// sum (`exp(x + exp(x))` is `exp(x)·exp(exp(x))`, which the chain rule reads with
/// `u = exp(x)`).
fn inner_calls(
    e: &Expr,
    var: &str,
    out: &mut Vec<Expr>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    each_call(e, budget, &mut |call, budget| {
        let Expr::Call(h, xs) = call else {
            return Ok(());
        };
        if xs.len() != 1
            || !matches!(
                h,
                Func::Exp | Func::Sin | Func::Cos | Func::Sinh | Func::Cosh
            )
        {
            return Ok(());
        }
        let mut push = |call: Expr, budget: &mut Budget| -> Result<(), TooLarge> {
            if out.len() < 8
                && let Expr::Call(_, xs) = &call
                && xs[0].contains(var, budget)?
                && linear(&xs[0], var, budget)?.is_none()
                && !already(out, &call, budget)?
            {
                out.push(call);
            }
            Ok(())
        };
        push(call.clone(), budget)?;
        if *h == Func::Exp
            && let Expr::Add(terms) = &xs[0]
        {
            for t in terms.iter() {
                push(Expr::call(Func::Exp, t.clone()), budget)?;
            }
        }
        Ok(())
    })
}

/// Whether `e` is one of `seen`, node for node.
pub(super) fn already(seen: &[Expr], e: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
    for s in seen {
        if s.identical(e, budget)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `visit` on every call in `e`, outer calls before the calls in their arguments.
pub(super) fn each_call(
    e: &Expr,
    budget: &mut Budget,
    visit: &mut dyn FnMut(&Expr, &mut Budget) -> Result<(), TooLarge>,
) -> Result<(), TooLarge> {
    budget.step()?;
    if let Expr::Call(..) = e {
        visit(e, budget)?;
    }
    for x in e.children() {
        each_call(x, budget, visit)?;
    }
    Ok(())
}

/// How many of a term's alternatives [`combine`] takes: the sign placements of partial
/// fractions over two real roots are three (`log(x)/(x + 1)^2`'s rest `1/(x(x + 1))`, whose
/// third is the one for `x > 0`).
const MOST_OPTIONS_COMBINED: usize = 3;

/// One candidate per combination of the terms' first [`MOST_OPTIONS_COMBINED`] alternatives
/// (at most 16 in all).
fn combine(per_term: Vec<Vec<Expr>>) -> Vec<Expr> {
    if per_term.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    let mut out: Vec<Vec<Expr>> = vec![Vec::new()];
    for options in per_term {
        let mut next = Vec::new();
        for partial in &out {
            for o in options.iter().take(MOST_OPTIONS_COMBINED) {
                let mut p = partial.clone();
                p.push(o.clone());
                next.push(p);
            }
        }
        next.truncate(16);
        out = next;
    }
    out.into_iter().map(Expr::add).collect()
}

/// `∫ h(ax + b) dx`.
fn table(h: Func, a: &BigRational, b: &BigRational, var: &str) -> Option<Expr> {
    table_over(h, lin(a, b, var), number(&a.recip()))
}

/// `∫ h(u) dx` for a line `u` whose slope's reciprocal is `reciprocal_slope`: `H(u)` times it,
/// `H` the antiderivative of `h`.
fn table_over(h: Func, u: Expr, reciprocal_slope: Expr) -> Option<Expr> {
    let over_a = |e: Expr| Expr::mul(vec![reciprocal_slope, e]);
    Some(over_a(match h {
        Func::Exp => Expr::call(Func::Exp, u),
        Func::Sin => Expr::negated(Expr::call(Func::Cos, u)),
        Func::Cos => Expr::call(Func::Sin, u),
        Func::Sinh => Expr::call(Func::Cosh, u),
        Func::Cosh => Expr::call(Func::Sinh, u),
        // u·log u − u
        Func::Log => Expr::minus(
            Expr::mul(vec![u.clone(), Expr::call(Func::Log, u.clone())]),
            u,
        ),
        // u·atan u − log(1 + u²)/2
        Func::Atan => Expr::minus(
            Expr::mul(vec![u.clone(), Expr::call(Func::Atan, u.clone())]),
            Expr::mul(vec![
                Expr::rat(1, 2),
                Expr::call(
                    Func::Log,
                    Expr::add(vec![Expr::int(1), Expr::pow(u, Expr::int(2))]),
                ),
            ]),
        ),
        // −log(cos u) (kept only where cos u > 0 throughout)
        Func::Tan => Expr::negated(Expr::call(Func::Log, Expr::call(Func::Cos, u))),
        // (2/3)·u^(3/2)
        Func::Sqrt => Expr::mul(vec![Expr::rat(2, 3), Expr::pow(u, Expr::rat(3, 2))]),
        // log(cosh u)
        Func::Tanh => Expr::call(Func::Log, Expr::call(Func::Cosh, u)),
        // By parts, u·h(u) − ∫ u·h'(u) du:
        // u·asin u + √(1 − u²), u·acos u − √(1 − u²)
        Func::Asin | Func::Acos => {
            let root = Expr::call(Func::Sqrt, Expr::minus(Expr::int(1), square(&u)));
            let sign = if h == Func::Asin { 1 } else { -1 };
            Expr::add(vec![
                Expr::mul(vec![u.clone(), Expr::call(h, u)]),
                Expr::mul(vec![Expr::int(sign), root]),
            ])
        }
        // u·asinh u − √(u² + 1)
        Func::Asinh => Expr::minus(
            Expr::mul(vec![u.clone(), Expr::call(h, u.clone())]),
            Expr::call(Func::Sqrt, Expr::add(vec![square(&u), Expr::int(1)])),
        ),
        // u·acosh u − √(u − 1)·√(u + 1) (the two roots as acosh' has them, so that the exact
        // test sees the derivative; equal to √(u² − 1) wherever acosh u is defined)
        Func::Acosh => Expr::minus(
            Expr::mul(vec![u.clone(), Expr::call(h, u.clone())]),
            Expr::mul(vec![
                Expr::call(Func::Sqrt, Expr::add(vec![u.clone(), Expr::int(-1)])),
                Expr::call(Func::Sqrt, Expr::add(vec![u, Expr::int(1)])),
            ]),
        ),
        // u·atanh u + log(1 − u²)/2
        Func::Atanh => Expr::add(vec![
            Expr::mul(vec![u.clone(), Expr::call(h, u.clone())]),
            Expr::mul(vec![
                Expr::rat(1, 2),
                Expr::call(Func::Log, Expr::minus(Expr::int(1), square(&u))),
            ]),
        ]),
        // u·erf u + exp(−u²)/√π, u·erfc u − exp(−u²)/√π
        Func::Erf | Func::Erfc => Expr::add(vec![
            Expr::mul(vec![u.clone(), Expr::call(h, u.clone())]),
            Expr::mul(vec![
                Expr::int(if h == Func::Erf { 1 } else { -1 }),
                Expr::pow(Expr::sym("pi"), Expr::rat(-1, 2)),
                Expr::call(Func::Exp, Expr::negated(square(&u))),
            ]),
        ]),
        _ => return None,
    }))
}

/// `∫ exp(αx² + βx + γ) dx` for exact α < 0: with the square completed,
/// `αx² + βx + γ = −s²(x + β/2α)² + k` (`s = √−α`, `k = γ − β²/4α`), it is
/// `e^k·√π/(2s)·erf(s(x + β/2α))`. `None` for any other argument.
fn gaussian(argument: &Expr, var: &str, budget: &mut Budget) -> Result<Option<Expr>, TooLarge> {
    let numbers = numeric_polynomial(argument, var, budget)?;
    let Some([gamma, beta, alpha]) = numbers.as_deref() else {
        return Ok(None);
    };
    if !alpha.is_negative() {
        return Ok(None);
    }
    let two_alpha = alpha * BigRational::from_integer(2.into());
    let shift = beta / &two_alpha;
    let k = gamma - beta * beta / (&two_alpha * BigRational::from_integer(2.into()));
    let minus_alpha = number(&-alpha);
    let mut factors = vec![
        Expr::rat(1, 2),
        Expr::pow(Expr::sym("pi"), Expr::rat(1, 2)),
        Expr::pow(minus_alpha.clone(), Expr::rat(-1, 2)),
        Expr::call(
            Func::Erf,
            Expr::mul(vec![
                Expr::pow(minus_alpha, Expr::rat(1, 2)),
                Expr::add(vec![Expr::sym(var), number(&shift)]),
            ]),
        ),
    ];
    if !k.is_zero() {
        factors.push(Expr::call(Func::Exp, number(&k)));
    }
    Ok(Some(Expr::mul(factors)))
}

/// `∫ P·exp(q) dx` for a polynomial `P` (the product of `polynomial_part`) and a quadratic `q`
/// with exact coefficients: `R·exp(q) + μ·∫ exp(q)`, from `P = R' + R·q' + μ` (the derivative of
/// `R·exp(q)` is `(R' + R·q')·exp(q)`), a square linear system in the coefficients of `R`
/// (degree `deg P − 1`) and `μ`, with one solution or none (`∫ exp(q)` is not elementary); the
/// last integral by [`gaussian`] (`∫ x^2·exp(−x^2) = −x·exp(−x^2)/2 + √π/4·erf(x)`). `None`
/// when the system has no solution or `μ ≠ 0` and `q` opens upward.
fn polynomial_times_gaussian(
    polynomial_part: &[Expr],
    q: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    let Some(qc) = numeric_polynomial(q, var, budget)?.filter(|c| c.len() == 3) else {
        return Ok(None);
    };
    let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part.to_vec()), var, budget)? else {
        return Ok(None);
    };
    let p = pf::trimmed(p);
    if p.len() < 2 || p.len() > MAX_DEGREE {
        return Ok(None);
    }
    budget.steps((p.len() * p.len()) as u64)?;
    let dq = pf::derivative(&qc);
    let mut columns: Vec<Vec<BigRational>> = (0..p.len() - 1)
        .map(|j| {
            let monomial = pf::monomial(j);
            pf::add(&pf::derivative(&monomial), &pf::mul(&monomial, &dq))
        })
        .collect();
    columns.push(vec![BigRational::one()]);
    let Some(mut solution) = pf::solve(&columns, &p, p.len()) else {
        return Ok(None);
    };
    let mu = solution.pop().unwrap_or_default();
    let first = Expr::mul(vec![
        pf::expression(&solution, var),
        Expr::call(Func::Exp, q.clone()),
    ]);
    if mu.is_zero() {
        return Ok(Some(first));
    }
    Ok(gaussian(q, var, budget)?.map(|g| Expr::add(vec![first, Expr::mul(vec![number(&mu), g])])))
}

/// `∫ base^exponent dx` for the forms the table knows.
fn power(
    base: &Expr,
    exponent: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Vec<Expr>, TooLarge> {
    if exponent.contains(var, budget)? {
        // c^(ax + b) = exp((ax + b)·log c) for a number c > 0: c^(ax + b)/(a·log c)
        if let Some(c) = exact_value(base).filter(|c| c.is_positive() && !c.is_one())
            && let Some((a, b)) = linear(exponent, var, budget)?
        {
            let slope = Expr::mul(vec![number(&a), Expr::call(Func::Log, number(&c))]);
            return Ok(vec![Expr::mul(vec![
                Expr::pow(number(&c), lin(&a, &b, var)),
                Expr::recip(slope),
            ])]);
        }
        return Ok(Vec::new());
    }
    let n = exact_value(exponent);
    // (u^m)^n = u^(mn) for an integer n (how `1/x^2` and `1/(1 + x^2)^(3/2)` are parsed;
    // for a fractional m both sides are defined where u > 0)
    if let (Expr::Pow(inner), Some(n)) = (base, &n)
        && let (Some(m), true) = (exact_value(&inner.1), n.is_integer())
    {
        return power(&inner.0, &number(&(m * n)), var, budget);
    }
    // sqrt(u)^n = u^(n/2)
    if let (Expr::Call(Func::Sqrt, xs), Some(n)) = (base, &n) {
        let half = n / BigRational::from_integer(2.into());
        return power(&xs[0], &number(&half), var, budget);
    }
    if let (Expr::Call(Func::Tan, xs), Some(n)) = (base, &n)
        && *n == BigRational::new(1.into(), 2.into())
        && let Some((a, b)) = linear(&xs[0], var, budget)?
    {
        return Ok(vec![root_of_tangent(&a, &b, var)]);
    }
    // (a line with a slope or an intercept that is no number, `1 + a·x`, `x + c`, as well)
    let line = match linear(base, var, budget)? {
        Some((a, b)) => Some((lin(&a, &b, var), number(&a.recip()))),
        None => reciprocal_slope(base, var, budget)?.map(|over| (base.clone(), over)),
    };
    if let Some((u, ai)) = line {
        return Ok(match &n {
            Some(n) if *n == -BigRational::one() => vec![
                Expr::mul(vec![ai.clone(), Expr::call(Func::Log, u.clone())]),
                Expr::mul(vec![ai, Expr::call(Func::Log, Expr::negated(u))]),
            ],
            Some(n) => {
                let n1 = n + BigRational::one();
                vec![Expr::mul(vec![
                    ai,
                    number(&n1.recip()),
                    Expr::pow(u, number(&n1)),
                ])]
            }
            None => Vec::new(),
        });
    }
    // 1/log(u) = li(u)'/a for a linear u (as alkahest integrates it)
    if let (Some(n), Expr::Call(Func::Log, xs)) = (&n, base)
        && *n == -BigRational::one()
        && let Some((a, b)) = linear(&xs[0], var, budget)?
    {
        return Ok(vec![Expr::mul(vec![
            number(&a.recip()),
            Expr::call(Func::Li, lin(&a, &b, var)),
        ])]);
    }
    // log(u)^n = (u/a)·Σ_(j≤n) (−1)^(n−j) n!/j! log(u)^j, for a linear u and a small n.
    if let (Some(n), Expr::Call(Func::Log, xs)) = (&n, base)
        && n.is_integer()
        && n.is_positive()
        && *n <= BigRational::from_integer(8.into())
        && let Some((a, b)) = linear(&xs[0], var, budget)?
    {
        let n = n.to_integer().to_u64().unwrap_or(1);
        let u = lin(&a, &b, var);
        let mut terms = Vec::new();
        let mut coefficient = BigInt::one(); // n!/j!, from j = n down
        for j in (0..=n).rev() {
            let sign = if (n - j) % 2 == 0 { 1 } else { -1 };
            terms.push(Expr::mul(vec![
                Expr::Int(Rc::new(&coefficient * sign)),
                Expr::pow(Expr::call(Func::Log, u.clone()), Expr::int(j as i64)),
            ]));
            coefficient *= BigInt::from(j.max(1));
        }
        return Ok(vec![Expr::mul(vec![
            number(&a.recip()),
            u,
            Expr::add(terms),
        ])]);
    }
    // sin(u)^2k = ((1 − cos 2u)/2)^k, cos(u)^2k = ((1 + cos 2u)/2)^k, multiplied out
    if let (Some(n), Expr::Call(h @ (Func::Sin | Func::Cos), xs)) = (&n, base)
        && let Some(terms) = even_power_reduced(*h, &xs[0], n, var, budget)?
    {
        return candidates(&Expr::add(terms), var, budget);
    }
    // tan(u)^2 = sec(u)^2 − 1 and tanh(u)^2 = 1 − sech(u)^2 (how alkahest writes the
    // derivatives of tan and tanh): tan(u)/a − x and x − tanh(u)/a; cos(u)^−2 and cosh(u)^−2
    // (`sec(u)^2`, `sech(u)^2`): tan(u)/a and tanh(u)/a. (tan's poles are ruled out by the
    // continuity check on the interval.)
    if let (Some(n), Expr::Call(h @ (Func::Tan | Func::Tanh | Func::Cos | Func::Cosh), xs)) =
        (&n, base)
        && let Some((a, b)) = linear(&xs[0], var, budget)?
        && let Some(antiderivative) = {
            let over_a = |f| Expr::mul(vec![number(&a.recip()), Expr::call(f, lin(&a, &b, var))]);
            let x = Expr::sym(var);
            match (h, n.to_integer().to_i64().filter(|_| n.is_integer())) {
                (Func::Tan, Some(2)) => Some(Expr::minus(over_a(Func::Tan), x)),
                (Func::Tan, Some(k)) if (3..=MAX_DEGREE as i64).contains(&k) => {
                    Some(tangent_power(k, &a, &b, var))
                }
                (Func::Tanh, Some(2)) => Some(Expr::minus(x, over_a(Func::Tanh))),
                (Func::Cos, Some(-2)) => Some(over_a(Func::Tan)),
                (Func::Cosh, Some(-2)) => Some(over_a(Func::Tanh)),
                _ => None,
            }
        }
    {
        return Ok(vec![antiderivative]);
    }
    if let (Some(n), Expr::Call(h @ (Func::Sin | Func::Cos | Func::Cosh), xs)) = (&n, base)
        && let Some(n) = n.to_integer().to_i64().filter(|_| n.is_integer())
        && let Some((a, b)) = linear(&xs[0], var, budget)?
    {
        let u = lin(&a, &b, var);
        let over_a = |e: Expr| Expr::mul(vec![number(&a.recip()), e]);
        let call = |f: Func| Expr::call(f, u.clone());
        let logs = |e: Expr| {
            vec![
                over_a(Expr::call(Func::Log, e.clone())),
                over_a(Expr::call(Func::Log, Expr::negated(e))),
            ]
        };
        match (h, n) {
            // sec u: log(±(1 + sin u)/cos u)/a
            (Func::Cos, -1) => {
                return Ok(logs(Expr::mul(vec![
                    Expr::add(vec![Expr::int(1), call(Func::Sin)]),
                    Expr::recip(call(Func::Cos)),
                ])));
            }
            // csc u: log(±tan(u/2))/a, tan(u/2) written sin(u/2)/cos(u/2)
            (Func::Sin, -1) => {
                let half = lin(&(&a / BigInt::from(2)), &(&b / BigInt::from(2)), var);
                return Ok(logs(Expr::mul(vec![
                    Expr::call(Func::Sin, half.clone()),
                    Expr::recip(Expr::call(Func::Cos, half)),
                ])));
            }
            // sech u: 2·atan(exp u)/a
            (Func::Cosh, -1) => {
                return Ok(vec![over_a(Expr::mul(vec![
                    Expr::int(2),
                    Expr::call(Func::Atan, call(Func::Exp)),
                ]))]);
            }
            (Func::Sin | Func::Cos, m) if (-(MAX_DEGREE as i64)..=-2).contains(&m) => {
                let base_case = if m % 2 == 0 {
                    vec![Expr::sym(var)]
                } else {
                    power(base, &Expr::int(-1), var, budget)?
                };
                return Ok(secant_power(*h, -m, &a, &u, base_case));
            }
            (Func::Sin, m) if m >= 3 && m % 2 == 1 => {
                return Ok(sine_cosine_powers(m, 0, &a, &u).into_iter().collect());
            }
            (Func::Cos, m) if m >= 3 && m % 2 == 1 => {
                return Ok(sine_cosine_powers(0, m, &a, &u).into_iter().collect());
            }
            _ => {}
        }
    }
    // (1 − m sin²(ax+b))^(±1/2): EllipticE or EllipticF of (ax+b, m), over a (the ball over
    // the interval keeps it only where the integrand is real throughout)
    let half = BigRational::new(1.into(), 2.into());
    if let Some(n) = &n
        && (*n == half || *n == -half.clone())
        && let Some((m, argument)) = one_minus_sine_squared(base)
        && let Some((a, b)) = linear(&argument, var, budget)?
    {
        let f = if n.is_positive() {
            Func::EllipticE
        } else {
            Func::EllipticF
        };
        let call = Expr::Call(f, vec![lin(&a, &b, var), number(&m)].into());
        return Ok(vec![Expr::mul(vec![number(&a.recip()), call])]);
    }
    if let Some(n) = &n
        && (*n == half || *n == -half.clone())
        && let Some([c0, c1, c2]) = numeric_polynomial(base, var, budget)?.as_deref()
        && !c2.is_zero()
    {
        return Ok(quadratic_root(c0, c1, c2, n.is_positive(), base, var));
    }
    // q^(−3/2) for a quadratic q = c0 + c1·x + c2·x²: (4c2·x + 2c1)/((4c0c2 − c1²)·√q)
    if let Some(n) = &n
        && *n == BigRational::new((-3).into(), 2.into())
        && let Some([c0, c1, c2]) = numeric_polynomial(base, var, budget)?.as_deref()
        && !c2.is_zero()
    {
        let four = BigRational::from_integer(4.into());
        let discriminant = &four * c0 * c2 - c1 * c1;
        if discriminant.is_zero() {
            return Ok(Vec::new());
        }
        let two = BigRational::from_integer(2.into());
        return Ok(vec![Expr::mul(vec![
            lin(
                &(&four * c2 / &discriminant),
                &(&two * c1 / &discriminant),
                var,
            ),
            Expr::pow(base.clone(), Expr::rat(-1, 2)),
        ])]);
    }
    // q^(−m−1/2), m ≥ 2, for a quadratic q (`1/(1 + x^2)^(5/2)`)
    if let Some(n) = &n
        && n.denom() == &BigInt::from(2)
        && let Some(m) = (-n - BigRational::new(1.into(), 2.into()))
            .to_integer()
            .to_usize()
        && m >= 2
        && let Some(qc) = numeric_polynomial(base, var, budget)?.filter(|c| c.len() == 3)
    {
        return Ok(polynomial_over_root_power(
            &[BigRational::one()],
            &qc,
            m,
            base,
            var,
        ));
    }
    // q^(k/2), odd k ≥ 3, for a quadratic q: q^((k+1)/2) over √q (`(1 − x^2)^(3/2)`; with a
    // polynomial beside it, the product rule does the same)
    if let Some(n) = &n
        && n.denom() == &BigInt::from(2)
        && let Some(k) = n
            .numer()
            .to_i64()
            .filter(|k| (3..=2 * MAX_DEGREE as i64).contains(k))
        && let Some(qc) = numeric_polynomial(base, var, budget)?.filter(|c| c.len() == 3)
    {
        let p = (0..(k + 1) / 2).fold(vec![BigRational::one()], |p, _| pf::mul(&p, &qc));
        return Ok(polynomial_over_root(&p, &qc, base, var));
    }
    // 1/(1 + cos u): tan(u/2)/a, written sin(u/2)/cos(u/2). (For 1/(1 − cos u) the exact
    // test cannot verify −cot(u/2): its form does not cancel the common factor.)
    if n == Some(-BigRational::one())
        && let Expr::Add(xs) = base
        && let [p, q] = &xs[..]
        && let Some(Expr::Call(Func::Cos, ys)) = match (exact_value(p), exact_value(q)) {
            (Some(one), _) if one.is_one() => Some(q),
            (_, Some(one)) if one.is_one() => Some(p),
            _ => None,
        }
        && let Some((a, b)) = linear(&ys[0], var, budget)?
    {
        let half = lin(&(&a / BigInt::from(2)), &(&b / BigInt::from(2)), var);
        return Ok(vec![Expr::mul(vec![
            number(&a.recip()),
            Expr::call(Func::Sin, half.clone()),
            Expr::recip(Expr::call(Func::Cos, half)),
        ])]);
    }
    // 1/(p·x² + q) with p, q > 0: atan(x·√(p/q))/√(pq)
    if n == Some(-BigRational::one()) {
        let numbers = numeric_polynomial(base, var, budget)?;
        if let Some([q, zero, p]) = numbers.as_deref()
            && zero.is_zero()
            && p.is_positive()
            && q.is_positive()
        {
            // With r = √(p/q): atan(r·x)/(q·r), one radical only.
            let r = Expr::pow(number(&(p / q)), Expr::rat(1, 2));
            return Ok(vec![Expr::mul(vec![
                Expr::recip(Expr::mul(vec![number(q), r.clone()])),
                Expr::call(Func::Atan, Expr::mul(vec![r, Expr::sym(var)])),
            ])]);
        }
    }
    Ok(Vec::new())
}

/// `∫ sec(u)^k dx` (`h` = cos) or `∫ csc(u)^k dx` (`h` = sin) for `u = ax + b`, `k ≥ 2`, by
/// the reduction formulas `∫ sec^k = sec^(k−2)·tan/((k−1)a) + (k−2)/(k−1)·∫ sec^(k−2)` and
/// `∫ csc^k = −csc^(k−2)·cot/((k−1)a) + (k−2)/(k−1)·∫ csc^(k−2)` down to `k` = 1 or 0, whose
/// antiderivatives are `base_case` (one candidate per alternative). `sec^(k−2)·tan` is written
/// `sin(u)·cos(u)^(1−k)`, `csc^(k−2)·cot` `cos(u)·sin(u)^(1−k)`.
fn secant_power(h: Func, k: i64, a: &BigRational, u: &Expr, base_case: Vec<Expr>) -> Vec<Expr> {
    let (other, sign) = if h == Func::Cos {
        (Func::Sin, BigRational::one())
    } else {
        (Func::Cos, -BigRational::one())
    };
    let mut terms = Vec::new();
    // the coefficient of ∫ h^(−j) still to be expanded
    let mut coefficient = BigRational::one();
    let mut j = k;
    while j >= 2 {
        let j1 = BigRational::from_integer((j - 1).into());
        terms.push(Expr::mul(vec![
            number(&(&coefficient * &sign / (&j1 * a))),
            Expr::call(other, u.clone()),
            Expr::pow(Expr::call(h, u.clone()), Expr::int(1 - j)),
        ]));
        coefficient = coefficient * BigRational::from_integer((j - 2).into()) / j1;
        j -= 2;
    }
    base_case
        .into_iter()
        .map(|c| {
            let mut all = terms.clone();
            all.push(Expr::mul(vec![number(&coefficient), c]));
            Expr::add(all)
        })
        .collect()
}

/// `∫ √(c2·x² + c1·x + c0) dx` (`root`) or `∫ 1/√(…) dx`, the quadratic written `base`: with
/// `s = x + c1/(2·c2)` and `K = c0/c2 − s0²` (`s0 = c1/(2·c2)`), it is `c2·(s² + K)`, and
/// - for `c2 < 0`, `K < 0` (`A² = −K`): `∫ 1/√ = asin(s/A)/√−c2`, `∫ √ = (s·√base)/2 + (A²·√−c2/2)·asin(s/A)`;
/// - for `c2 > 0`: `∫ 1/√ = L/√c2`, `∫ √ = (s·√base)/2 + (K·√c2/2)·L`, with `L = asinh(s/√K)` for
///   `K > 0`, and `log(s + √(s² + K))` or `−log(−s + √(s² + K))` for `K < 0` (right or left of
///   the roots).
///
/// Empty for `K = 0` (the root of a square) and a quadratic negative everywhere.
fn quadratic_root(
    c0: &BigRational,
    c1: &BigRational,
    c2: &BigRational,
    root: bool,
    base: &Expr,
    var: &str,
) -> Vec<Expr> {
    let s0 = c1 / (c2 * BigRational::from_integer(2.into()));
    let k = c0 / c2 - &s0 * &s0;
    if k.is_zero() || (c2.is_negative() && k.is_positive()) {
        return Vec::new();
    }
    let s = || lin(&BigRational::one(), &s0, var);
    let c = c2.abs();
    // L (for c2 > 0) or asin(s/A) (for c2 < 0), one per placement of the variable
    let logs: Vec<Expr> = if c2.is_negative() {
        vec![Expr::call(
            Func::Asin,
            Expr::mul(vec![s(), square_root(&-&k, -1)]),
        )]
    } else if k.is_positive() {
        vec![Expr::call(
            Func::Asinh,
            Expr::mul(vec![s(), square_root(&k, -1)]),
        )]
    } else {
        // √(s² + K) = √base/√c2
        let r = || {
            Expr::mul(vec![
                Expr::call(Func::Sqrt, base.clone()),
                square_root(&c, -1),
            ])
        };
        vec![
            Expr::call(Func::Log, Expr::add(vec![s(), r()])),
            Expr::negated(Expr::call(
                Func::Log,
                Expr::add(vec![Expr::negated(s()), r()]),
            )),
        ]
    };
    logs.into_iter()
        .map(|l| {
            if !root {
                return Expr::mul(vec![square_root(&c, -1), l]);
            }
            let factor = if c2.is_negative() { -&k } else { k.clone() };
            Expr::add(vec![
                Expr::mul(vec![
                    Expr::rat(1, 2),
                    s(),
                    Expr::call(Func::Sqrt, base.clone()),
                ]),
                Expr::mul(vec![
                    number(&(factor / BigRational::from_integer(2.into()))),
                    square_root(&c, 1),
                    l,
                ]),
            ])
        })
        .collect()
}

/// `∫ P/√q dx` for polynomials `P` (coefficients `p`) and a quadratic `q` (`c0 + c1·x +
/// c2·x²`, written `base`) with exact coefficients: `R·√q + λ·∫ 1/√q` with `deg R = deg P − 1`,
/// from `P = R'·q + R·q'/2 + λ` (the derivative of `R·√q` is `(R'·q + R·q'/2)/√q`), solved
/// from the top degree down: the coefficient of `x^k` on the right is
/// `(k+1)·c0·r_(k+1) + (k+½)·c1·r_k + k·c2·r_(k−1)`. The last integral by [`quadratic_root`]
/// (one candidate for each of its own).
fn polynomial_over_root(p: &[BigRational], q: &[BigRational], base: &Expr, var: &str) -> Vec<Expr> {
    let [c0, c1, c2] = q else {
        return Vec::new();
    };
    let mut p = p.to_vec();
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
    if c2.is_zero() || p.len() > MAX_DEGREE {
        return Vec::new();
    }
    let n = p.len().saturating_sub(1);
    let at = |r: &[BigRational], j: usize| r.get(j).cloned().unwrap_or_default();
    let mut r = vec![BigRational::zero(); n];
    for k in (1..=n).rev() {
        let kk = BigRational::from_integer(k.into());
        let half = BigRational::new(1.into(), 2.into());
        let known = BigRational::from_integer((k + 1).into()) * c0 * at(&r, k + 1)
            + (&kk + half) * c1 * at(&r, k);
        r[k - 1] = (at(&p, k) - known) / (kk * c2);
    }
    let lambda = at(&p, 0) - c0 * at(&r, 1) - c1 * at(&r, 0) / BigRational::from_integer(2.into());
    let first = Expr::mul(vec![
        pf::expression(&r, var),
        Expr::call(Func::Sqrt, base.clone()),
    ]);
    plus_reciprocal_root(first, &lambda, q, base, var)
}

/// `first + λ·∫ dx/√q` for a quadratic `q` (coefficients `q`, written `base`): one candidate
/// for each of [`quadratic_root`]'s, or `first` alone for `λ = 0`.
fn plus_reciprocal_root(
    first: Expr,
    lambda: &BigRational,
    q: &[BigRational],
    base: &Expr,
    var: &str,
) -> Vec<Expr> {
    if lambda.is_zero() {
        return vec![first];
    }
    let [c0, c1, c2] = q else {
        return Vec::new();
    };
    quadratic_root(c0, c1, c2, false, base, var)
        .into_iter()
        .map(|l| Expr::add(vec![first.clone(), Expr::mul(vec![number(lambda), l])]))
        .collect()
}

/// `∫ P·q^(−m−1/2) dx` for a polynomial `P` (coefficients `p`), a quadratic `q` (written
/// `base`) with exact coefficients and `m ≥ 1`: `S·q^(1/2−m) + λ·∫ q^(−1/2)`, from
/// `P = S'·q + (1/2 − m)·S·q' + λ·q^m` (the derivative of `S·q^(1/2−m)` is
/// `(S'·q + (1/2 − m)·S·q')·q^(−m−1/2)`): a square linear system in the coefficients of `S`
/// (degree `max(deg P − 1, 2m − 1)`: `x^(2m−1)` is where `S'·q` and `S·q'` cancel at the top)
/// and `λ`, with one solution or none (`S·q^(1/2−m)` is algebraic, `∫ q^(−1/2)` is not).
/// So `∫ x^2/(1 + x^2)^(5/2) = x^3/(3·(1 + x^2)^(3/2))`. The last integral by
/// [`quadratic_root`].
fn polynomial_over_root_power(
    p: &[BigRational],
    q: &[BigRational],
    m: usize,
    base: &Expr,
    var: &str,
) -> Vec<Expr> {
    let p = pf::trimmed(p.to_vec());
    let [_, _, c2] = q else {
        return Vec::new();
    };
    if m == 0 || c2.is_zero() || 2 * m > MAX_DEGREE || p.len() > MAX_DEGREE {
        return Vec::new();
    }
    let dq = pf::derivative(q);
    let exponent = BigRational::new(1.into(), 2.into()) - BigRational::from_integer(m.into());
    let degree = p.len().saturating_sub(2).max(2 * m - 1);
    let mut columns: Vec<Vec<BigRational>> = (0..=degree)
        .map(|j| {
            let monomial = pf::monomial(j);
            let by_q = pf::mul(&pf::derivative(&monomial), q);
            pf::add(
                &by_q,
                &pf::mul(std::slice::from_ref(&exponent), &pf::mul(&monomial, &dq)),
            )
        })
        .collect();
    columns.push((0..m).fold(vec![BigRational::one()], |power, _| pf::mul(&power, q)));
    let Some(mut solution) = pf::solve(&columns, &p, degree + 2) else {
        return Vec::new();
    };
    let lambda = solution.pop().unwrap_or_default();
    let first = Expr::mul(vec![
        pf::expression(&solution, var),
        Expr::pow(base.clone(), number(&exponent)),
    ]);
    plus_reciprocal_root(first, &lambda, q, base, var)
}

/// `(q, r)` for `q^r` with a rational `r`, integer powers of powers and square roots taken
/// apart: `((1 + x^2)^(5/2))^−1` is `(1 + x^2, −5/2)`.
pub(super) fn flat_power(e: &Expr) -> Option<(&Expr, BigRational)> {
    match e {
        Expr::Call(Func::Sqrt, xs) => Some((&xs[0], BigRational::new(1.into(), 2.into()))),
        Expr::Pow(p) => {
            let n = exact_value(&p.1)?;
            match flat_power(&p.0) {
                Some((base, m)) if n.is_integer() => Some((base, m * n)),
                _ => Some((&p.0, n)),
            }
        }
        _ => None,
    }
}

/// `(u, n)` for `sec(u)^n`, `n ≥ 1`: `cos(u)` to a negative integer power, however nested
/// (`cos(u)^−n`, `(cos(u)^−1)^n`, `1/cos(u)^n`).
fn secant_power_of(e: &Expr) -> Option<(&Expr, i64)> {
    let mut n = 1i64;
    let mut e = e;
    while let Expr::Pow(p) = e {
        let k = exact_value(&p.1).filter(BigRational::is_integer)?;
        n = n.checked_mul(k.to_integer().to_i64()?)?;
        e = &p.0;
    }
    match e {
        Expr::Call(Func::Cos, xs) if n <= -1 => Some((&xs[0], -n)),
        _ => None,
    }
}

/// `(u, false)` for `sec(u)^2` (`cos(u)^−2`, `(cos(u)^−1)^2`), `(u, true)` for `tan(u)^2`.
fn secant_squared(e: &Expr) -> Option<(&Expr, bool)> {
    if let Some((u, 2)) = secant_power_of(e) {
        return Some((u, false));
    }
    match e {
        Expr::Pow(p) if exact_value(&p.1)? == BigRational::from_integer(2.into()) => match &p.0 {
            Expr::Call(Func::Tan, xs) => Some((&xs[0], true)),
            _ => None,
        },
        _ => None,
    }
}

/// `(q, ±1)` for a factor `q^(±1/2)` (`sqrt(q)`, `sqrt(q)^−1`, `q^(−1/2)`).
fn square_root_factor(e: &Expr) -> Option<(&Expr, i64)> {
    half_power(e).filter(|(_, n)| n.abs() == 1)
}

/// `sin(u)^n` or `cos(u)^n` for a linear `u` and an even `n = 2k ≥ 2` as the terms of
/// `((1 ∓ cos 2u)/2)^k` multiplied out (`cos(2u)^j` for `j ≤ k`, each reduced again if even);
/// `None` for any other power.
fn even_power_reduced(
    h: Func,
    argument: &Expr,
    n: &BigRational,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Vec<Expr>>, TooLarge> {
    let Some(k) = Some(n)
        .filter(|n| n.is_integer())
        .and_then(|n| n.to_integer().to_u64())
        .filter(|n| *n >= 2 && n % 2 == 0 && *n as usize <= MAX_DEGREE)
        .map(|n| n / 2)
    else {
        return Ok(None);
    };
    let Some((a, b)) = linear(argument, var, budget)? else {
        return Ok(None);
    };
    let double = Expr::call(
        Func::Cos,
        lin(&(&a * BigInt::from(2)), &(&b * BigInt::from(2)), var),
    );
    let sign: i64 = if h == Func::Sin { -1 } else { 1 };
    let mut binomial = BigInt::one(); // C(k, j)
    let mut terms = Vec::new();
    for j in 0..=k {
        let c = BigRational::new(
            &binomial * BigInt::from(sign.pow(j as u32)),
            BigInt::one() << k,
        );
        terms.push(Expr::mul(vec![
            number(&c),
            match j {
                0 => Expr::int(1),
                1 => double.clone(),
                _ => Expr::pow(double.clone(), Expr::int(j as i64)),
            },
        ]));
        binomial = binomial * BigInt::from(k - j) / BigInt::from(j + 1);
    }
    Ok(Some(terms))
}

/// `∫ sin(u)^m·cos(u)^n dx` for `u = ax + b` and natural `m`, `n` of which one is odd: with
/// `t = cos u` (for an odd `m = 2k + 1`) it is `−(1/a)·∫ (1 − t²)^k·t^n dt`, with `t = sin u`
/// (for an odd `n = 2k + 1`) `(1/a)·∫ t^m·(1 − t²)^k dt`, both polynomials in `t`. `None`
/// when both are even or the degree passes [`MAX_DEGREE`].
fn sine_cosine_powers(m: i64, n: i64, a: &BigRational, u: &Expr) -> Option<Expr> {
    if m < 0 || n < 0 || (m + n) as usize > MAX_DEGREE {
        return None;
    }
    let (k, other, t, sign) = if m % 2 == 1 {
        ((m - 1) / 2, n, Expr::call(Func::Cos, u.clone()), -1)
    } else if n % 2 == 1 {
        ((n - 1) / 2, m, Expr::call(Func::Sin, u.clone()), 1)
    } else {
        return None;
    };
    let mut terms = Vec::new();
    let mut binomial = BigInt::one(); // C(k, j)
    for j in 0..=k {
        let power = 2 * j + other + 1;
        let c = BigRational::new(
            if j % 2 == 0 {
                binomial.clone()
            } else {
                -binomial.clone()
            } * sign,
            BigInt::from(power),
        ) / a;
        terms.push(Expr::mul(vec![
            number(&c),
            Expr::pow(t.clone(), Expr::int(power)),
        ]));
        binomial = binomial * BigInt::from(k - j) / BigInt::from(j + 1);
    }
    Some(Expr::add(terms))
}

/// `∫ √tan(u) dx` for `u = ax + b`: with `s = √tan u`, `dx = 2s/(a(1 + s⁴)) ds`, and
/// `1 + s⁴ = (s² − √2·s + 1)(s² + √2·s + 1)` (over `Q(√2)`, which the partial fractions of
/// [`pf`] do not reach) gives `∫ 2s²/(1 + s⁴) ds = (√2/2)(atan(√2·s − 1) + atan(√2·s + 1)) +
/// (√2/4)(log(s² − √2·s + 1) − log(s² + √2·s + 1))`, divided by `a`: alkahest's form, so
/// that its recorded values compare term by term. Defined and continuous wherever
/// `tan u ≥ 0` is (both quadratics are at least 1/2).
fn root_of_tangent(a: &BigRational, b: &BigRational, var: &str) -> Expr {
    let s = Expr::call(Func::Sqrt, Expr::call(Func::Tan, lin(a, b, var)));
    let root2 = Expr::call(Func::Sqrt, Expr::int(2));
    let quadratic = |sign: i64| {
        Expr::add(vec![
            square(&s),
            Expr::mul(vec![Expr::int(sign), root2.clone(), s.clone()]),
            Expr::int(1),
        ])
    };
    let arctangent = |shift: i64| {
        Expr::call(
            Func::Atan,
            Expr::add(vec![
                Expr::mul(vec![root2.clone(), s.clone()]),
                Expr::int(shift),
            ]),
        )
    };
    Expr::mul(vec![
        number(&a.recip()),
        root2.clone(),
        Expr::add(vec![
            Expr::mul(vec![Expr::rat(1, 2), arctangent(-1)]),
            Expr::mul(vec![Expr::rat(1, 2), arctangent(1)]),
            Expr::mul(vec![Expr::rat(1, 4), Expr::call(Func::Log, quadratic(-1))]),
            Expr::mul(vec![Expr::rat(-1, 4), Expr::call(Func::Log, quadratic(1))]),
        ]),
    ])
}

/// `∫ tan(u)^k dx` for `u = ax + b` and `k ≥ 0`, by `tan^k = tan^(k−2)·(sec² − 1)`:
/// `tan(u)^(k−1)/(a(k−1)) − ∫ tan^(k−2)`, down to `x` and `−log(cos u)/a`.
fn tangent_power(k: i64, a: &BigRational, b: &BigRational, var: &str) -> Expr {
    let u = lin(a, b, var);
    match k {
        0 => Expr::sym(var),
        // −log(cos u)/a, written log(1 + tan(u)²)/(2a) (as alkahest does): defined wherever
        // tan u is, on either side of a pole
        1 => Expr::mul(vec![
            number(&(a * BigInt::from(2)).recip()),
            Expr::call(
                Func::Log,
                Expr::add(vec![Expr::int(1), square(&Expr::call(Func::Tan, u))]),
            ),
        ]),
        _ => Expr::minus(
            Expr::mul(vec![
                number(&(a * BigInt::from(k - 1)).recip()),
                Expr::pow(Expr::call(Func::Tan, u), Expr::int(k - 1)),
            ]),
            tangent_power(k - 2, a, b, var),
        ),
    }
}

/// `(m, u)` when `e` is `1 − m·sin(u)²` for an exact `m` (terms in any order, the
/// coefficient spread over factors).
fn one_minus_sine_squared(e: &Expr) -> Option<(BigRational, Expr)> {
    let Expr::Add(xs) = e else {
        return None;
    };
    let mut constant = BigRational::zero();
    let mut found = None;
    for x in xs.iter() {
        if let Some(c) = exact_value(x) {
            constant += c;
        } else if found.is_none() {
            found = Some(sine_squared(x)?);
        } else {
            return None;
        }
    }
    let (k, u) = found?;
    constant.is_one().then(|| (-k, u))
}

/// `(k, u)` when `e` is `k·sin(u)²` for an exact `k`.
fn sine_squared(e: &Expr) -> Option<(BigRational, Expr)> {
    match e {
        Expr::Pow(p) => match (&p.0, exact_value(&p.1)) {
            (Expr::Call(Func::Sin, xs), Some(two))
                if two == BigRational::from_integer(2.into()) =>
            {
                Some((BigRational::one(), xs[0].clone()))
            }
            _ => None,
        },
        Expr::Mul(xs) => {
            let mut k = BigRational::one();
            let mut found = None;
            for x in xs.iter() {
                if let Some(c) = exact_value(x) {
                    k *= c;
                } else if found.is_none() {
                    found = Some(sine_squared(x)?);
                } else {
                    return None;
                }
            }
            let (j, u) = found?;
            Some((k * j, u))
        }
        _ => None,
    }
}

/// `(sin or cos, u, k)` when `e` is `sin(u)^k` or `cos(u)^k` for a natural `k` (`k = 1`
/// unwritten).
fn sine_or_cosine_power(e: &Expr) -> Option<(Func, &Expr, i64)> {
    let (call, k) = match e {
        Expr::Pow(p) => (&p.0, exact_value(&p.1)?),
        _ => (e, BigRational::one()),
    };
    let k = Some(k)
        .filter(BigRational::is_integer)?
        .to_integer()
        .to_i64()
        .filter(|k| *k >= 1)?;
    match call {
        Expr::Call(h @ (Func::Sin | Func::Cos), xs) => Some((*h, &xs[0], k)),
        _ => None,
    }
}

/// `∫ (product of factors that all contain var) dx`: sines and cosines of linear arguments by
/// product to sum, a polynomial times `exp`/`sin`/`cos`/`sinh`/`cosh` of one by parts.
fn product(factors: &[Expr], var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    if let Some(terms) = product_to_sum(factors, var, budget)? {
        return candidates(&Expr::add(terms), var, budget);
    }
    // sin(u)^m·cos(u)^n with one of m, n odd (one linear u)
    if let [f, g] = factors
        && let (Some((Func::Sin, s, m)), Some((Func::Cos, c, n)))
        | (Some((Func::Cos, c, n)), Some((Func::Sin, s, m))) =
            (sine_or_cosine_power(f), sine_or_cosine_power(g))
        && let Some((a, b)) = linear(s, var, budget)?
        && linear(c, var, budget)? == Some((a.clone(), b.clone()))
        && let Some(found) = sine_cosine_powers(m, n, &a, &lin(&a, &b, var))
    {
        return Ok(vec![found]);
    }
    // sin(u)^2m·cos(u)^2n: sin² = 1 − cos², so Σ_j C(m, j)·(−1)^j·cos(u)^(2n+2j), each an even
    // power of cos
    if let [f, g] = factors
        && let (Some((Func::Sin, s, m)), Some((Func::Cos, c, n)))
        | (Some((Func::Cos, c, n)), Some((Func::Sin, s, m))) =
            (sine_or_cosine_power(f), sine_or_cosine_power(g))
        && m % 2 == 0
        && n % 2 == 0
        && m + n <= MAX_DEGREE as i64
        && let Some(u) = linear(s, var, budget)?
        && linear(c, var, budget)? == Some(u)
    {
        let mut terms = Vec::new();
        let mut binomial = BigInt::one();
        for j in 0..=m / 2 {
            let sign = if j % 2 == 0 { 1 } else { -1 };
            terms.push(Expr::mul(vec![
                Expr::Int(Rc::new(&binomial * sign)),
                Expr::pow(Expr::call(Func::Cos, c.clone()), Expr::int(n + 2 * j)),
            ]));
            binomial = binomial * BigInt::from(m / 2 - j) / BigInt::from(j + 1);
        }
        return candidates(&Expr::add(terms), var, budget);
    }
    // Q/P with Q = k·P' for polynomials: k·log(±P).
    if let [q, Expr::Pow(pw)] | [Expr::Pow(pw), q] = factors
        && exact_value(&pw.1) == Some(-BigRational::one())
        && let Some(k) = ratio_to_derivative(q, &pw.0, var, budget)?
    {
        let log = |e: Expr| Expr::mul(vec![number(&k), Expr::call(Func::Log, e)]);
        return Ok(vec![log(pw.0.clone()), log(Expr::negated(pw.0.clone()))]);
    }
    if let Some(found) = integral_function(factors, var, budget)? {
        return Ok(vec![found]);
    }
    if let Some(found) = log_over_line(factors, var, budget)? {
        return Ok(found);
    }
    let found = by_parts(factors, var, budget)?;
    if !found.is_empty() {
        return Ok(found);
    }
    // P(x)·h(ax + b): ∫ P·h = P·H/a − ∫ P'·H/a, down to P' = 0.
    let mut polynomial_part = Vec::new();
    let mut others = Vec::new();
    for f in factors {
        if polynomial(f, var, budget)?.is_some() {
            polynomial_part.push(f.clone());
        } else {
            others.push(f.clone());
        }
    }
    // P·exp(αx + β)·cosh(γx + δ) (or sinh): the hyperbolic as exponentials, so a sum of
    // P·exp(linear) terms
    if let Some(terms) = exponential_and_hyperbolic(&others, var, budget)? {
        return candidates(&spread(&polynomial_part, terms), var, budget);
    }
    // P·exp(αx + β)·sin(γx + δ) (or cos), in closed form (P = 1 included)
    if let Some((e, h, t)) = exponential_and_trigonometric(&others)
        && let (Some((alpha, beta)), Some((gamma, delta))) =
            (linear(e, var, budget)?, linear(t, var, budget)?)
        && let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part.clone()), var, budget)?
    {
        budget.steps(p.len() as u64)?;
        let (exp, angle) = (lin(&alpha, &beta, var), lin(&gamma, &delta, var));
        return Ok(vec![exp_trig(&p, h, &alpha, &gamma, &exp, &angle, var)]);
    }
    // P/√q and P·√q (= P·q/√q) for a quadratic q
    if let [root] = &others[..]
        && let Some((q, sign)) = square_root_factor(root)
        && let Some(qc) = numeric_polynomial(q, var, budget)?.filter(|c| c.len() == 3)
        && let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part.clone()), var, budget)?
    {
        let p = if sign > 0 { pf::mul(&p, &qc) } else { p };
        return Ok(polynomial_over_root(&p, &qc, q, var));
    }
    // P·q^(k/2) for a quadratic q and any other odd k: P·q^((k+1)/2)/√q for k ≥ 3, and
    // `polynomial_over_root_power` for k ≤ −3 (`x^2/(1 + x^2)^(5/2)`)
    if let [root] = &others[..]
        && let Some((q, k)) = flat_power(root)
        && k.denom() == &BigInt::from(2)
        && let Some(qc) = numeric_polynomial(q, var, budget)?.filter(|c| c.len() == 3)
        && let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part.clone()), var, budget)?
    {
        let k = k
            .numer()
            .to_i64()
            .filter(|k| k.abs() <= 2 * MAX_DEGREE as i64);
        match k {
            Some(k) if k >= 3 => {
                let p = (0..(k + 1) / 2).fold(p, |p, _| pf::mul(&p, &qc));
                return Ok(polynomial_over_root(&p, &qc, q, var));
            }
            Some(k) if k <= -3 => {
                let m = ((-k - 1) / 2) as usize;
                return Ok(polynomial_over_root_power(&p, &qc, m, q, var));
            }
            _ => {}
        }
    }
    // P·(ax + b)^r for a rational r that is no integer (x·(x + 1)^(1/3))
    if let [power] = &others[..]
        && let Some(found) = polynomial_times_linear_power(&polynomial_part, power, var, budget)?
    {
        return Ok(vec![found]);
    }
    // (px + q)·sec(u)^2 = (px + q)·tan(u)/a − (p/a)·∫ tan u, and (px + q)·tan(u)^2 as
    // (px + q)·sec(u)^2 − (px + q)
    if let [square] = &others[..]
        && let Some((argument, tangent)) = secant_squared(square)
        && let Some((a, b)) = linear(argument, var, budget)?
        && let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part.clone()), var, budget)?
        && p.len() <= 2
    {
        let u = lin(&a, &b, var);
        let (q, slope) = (
            p.first().cloned().unwrap_or_default(),
            p.get(1).cloned().unwrap_or_default(),
        );
        let line = lin(&slope, &q, var);
        let mut first = vec![Expr::mul(vec![
            number(&a.recip()),
            line.clone(),
            Expr::call(Func::Tan, u.clone()),
        ])];
        if tangent {
            // − ∫ (px + q) dx
            first.push(Expr::negated(Expr::mul(vec![
                Expr::rat(1, 2),
                number(&slope),
                Expr::pow(Expr::sym(var), Expr::int(2)),
            ])));
            first.push(Expr::negated(Expr::mul(vec![number(&q), Expr::sym(var)])));
        }
        let log = |e: Expr| {
            let mut all = first.clone();
            all.push(Expr::mul(vec![
                number(&(&slope / (&a * &a))),
                Expr::call(Func::Log, e),
            ]));
            Expr::add(all)
        };
        let cos = Expr::call(Func::Cos, u);
        return Ok(vec![log(cos.clone()), log(Expr::negated(cos))]);
    }
    // P·exp(u)·sin(u) and the like, for one polynomial u of degree ≥ 2, through s = u
    if let [Expr::Call(f, xs), Expr::Call(g, ys)] = &others[..]
        && [f, g].iter().all(|h| {
            matches!(
                h,
                Func::Exp | Func::Sin | Func::Cos | Func::Sinh | Func::Cosh
            )
        })
        && xs.len() == 1
        && ys.len() == 1
        && linear(&xs[0], var, budget)?.is_none()
        && let Some(u) = numeric_polynomial(&xs[0], var, budget)?
        && numeric_polynomial(&ys[0], var, budget)?
            .is_some_and(|v| pf::add(&u, &pf::mul(&v, &[-BigRational::one()])).is_empty())
    {
        return composed(&Expr::mul(polynomial_part), &[*f, *g], &xs[0], var, budget);
    }
    // sec(u)^n·tan(u) = (sec(u)^n)'/(n·a)
    if polynomial_part.is_empty()
        && let [f, g] = &others[..]
        && let Some((Expr::Call(Func::Tan, t), (u, n))) = match (f, g) {
            (Expr::Call(Func::Tan, _), other) => secant_power_of(other).map(|s| (f, s)),
            (other, Expr::Call(Func::Tan, _)) => secant_power_of(other).map(|s| (g, s)),
            _ => None,
        }
        && let Some((a, b)) = linear(u, var, budget)?
        && linear(&t[0], var, budget)? == Some((a.clone(), b.clone()))
    {
        return Ok(vec![Expr::mul(vec![
            number(&(&a * BigRational::from_integer(n.into())).recip()),
            Expr::pow(Expr::call(Func::Cos, lin(&a, &b, var)), Expr::int(-n)),
        ])]);
    }
    // exp(ax + b)·R(x) = (exp(ax + b)·S(x))' for rational R and S
    if let Some(found) = super::exponential_times_rational::antiderivative(factors, var, budget)? {
        return Ok(vec![found]);
    }
    if let Some(sum) = multiplied_out(factors, var, budget)? {
        return candidates(&sum, var, budget);
    }
    if others.len() > 1 {
        return Ok(Vec::new());
    }
    let other = others.first();
    // P·atan(u)^2 (u = ax + b) by parts: with Q = ∫P and Q·a = S·(1 + u²) + αx + β,
    // ∫P·atan² = Q·atan² − 2∫(S + (αx + β)/(1 + u²))·atan = (Q − β/a)·atan² − 2∫S·atan
    // when α = 0 (the β part is (β/a)·atan'·atan; an α left over is not elementary)
    if let Some(Expr::Pow(pw)) = other
        && let Expr::Call(Func::Atan, xs) = &pw.0
        && exact_value(&pw.1) == Some(BigRational::from_integer(2.into()))
        && let Some((a, b)) = linear(&xs[0], var, budget)?
        && let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part.clone()), var, budget)?
    {
        let q = pf::integral(&p);
        let u = [b.clone(), a.clone()];
        let one_plus_square = pf::add(&[BigRational::one()], &pf::mul(&u, &u));
        let (s, rest) = pf::divide(&pf::mul(&q, std::slice::from_ref(&a)), &one_plus_square);
        if rest.get(1).is_some_and(|alpha| !alpha.is_zero()) {
            return Ok(Vec::new());
        }
        let beta = rest.first().cloned().unwrap_or_default();
        let first = Expr::mul(vec![
            pf::expression(&pf::add(&q, &[-(beta / &a)]), var),
            Expr::pow(Expr::call(Func::Atan, xs[0].clone()), Expr::int(2)),
        ]);
        if s.iter().all(Zero::is_zero) {
            return Ok(vec![first]);
        }
        return Ok(parts_through_rational(&s, Func::Atan, &xs[0], var, budget)?
            .into_iter()
            .map(|g| Expr::minus(first.clone(), Expr::mul(vec![Expr::int(2), g])))
            .collect());
    }
    // P·sin(u)^2k and P·cos(u)^2k: P times each term of the power reduced
    if let Some(Expr::Pow(pw)) = other
        && let (Expr::Call(h @ (Func::Sin | Func::Cos), xs), Some(n)) = (&pw.0, exact_value(&pw.1))
        && let Some(terms) = even_power_reduced(*h, &xs[0], &n, var, budget)?
    {
        return candidates(&spread(&polynomial_part, terms), var, budget);
    }
    let Some(Expr::Call(h, xs)) = other else {
        return Ok(Vec::new());
    };
    let linear_argument = linear(&xs[0], var, budget)?;
    // P·asin(u), acos, asinh, acosh (u = ax + b) by parts: Q·h(u) − ∫ Q·a·h'(u), with
    // h'(u) = ±1/√(1 − u²), 1/√(u² + 1), 1/√(u² − 1)
    if let (Func::Asin | Func::Acos | Func::Asinh | Func::Acosh, Some((a, b))) =
        (h, &linear_argument)
        && let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part.clone()), var, budget)?
    {
        let q = pf::integral(&p);
        let u2 = pf::mul(&[b.clone(), a.clone()], &[b.clone(), a.clone()]);
        let one = [BigRational::one()];
        let (radicand, sign) = match h {
            Func::Asin => (pf::add(&one, &pf::mul(&[-BigRational::one()], &u2)), 1),
            Func::Acos => (pf::add(&one, &pf::mul(&[-BigRational::one()], &u2)), -1),
            Func::Asinh => (pf::add(&one, &u2), 1),
            _ => (pf::add(&[-BigRational::one()], &u2), 1),
        };
        let numerator = pf::mul(&q, &[a * BigRational::from_integer(sign.into())]);
        let first = Expr::mul(vec![pf::expression(&q, var), Expr::Call(*h, xs.clone())]);
        return Ok(polynomial_over_root(
            &numerator,
            &radicand,
            &pf::expression(&radicand, var),
            var,
        )
        .into_iter()
        .map(|g| Expr::minus(first.clone(), g))
        .collect());
    }
    if matches!(h, Func::Atan) || (*h == Func::Log && linear_argument.is_none()) {
        let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part), var, budget)? else {
            return Ok(Vec::new());
        };
        return parts_through_rational(&p, *h, &xs[0], var, budget);
    }
    let Some((a, b)) = linear_argument else {
        if matches!(
            h,
            Func::Exp | Func::Sin | Func::Cos | Func::Sinh | Func::Cosh
        ) {
            let through_u = composed(
                &Expr::mul(polynomial_part.clone()),
                &[*h],
                &xs[0],
                var,
                budget,
            )?;
            if through_u.is_empty()
                && *h == Func::Exp
                && let Some(found) =
                    polynomial_times_gaussian(&polynomial_part, &xs[0], var, budget)?
            {
                return Ok(vec![found]);
            }
            return Ok(through_u);
        }
        return Ok(Vec::new());
    };
    if *h == Func::Log {
        return polynomial_times_log(&Expr::mul(polynomial_part), &a, &b, var, budget);
    }
    let integrate = |h: Func| -> Option<(Func, i64)> {
        match h {
            Func::Exp => Some((Func::Exp, 1)),
            Func::Sin => Some((Func::Cos, -1)),
            Func::Cos => Some((Func::Sin, 1)),
            Func::Sinh => Some((Func::Cosh, 1)),
            Func::Cosh => Some((Func::Sinh, 1)),
            _ => None,
        }
    };
    let u = lin(&a, &b, var);
    let ai = number(&a.recip());
    let mut p = Expr::mul(polynomial_part);
    let (mut h, mut sign) = (*h, 1i64);
    let mut terms = Vec::new();
    for _ in 0..=MAX_DEGREE {
        let Some((big_h, s)) = integrate(h) else {
            return Ok(Vec::new());
        };
        // sign·∫ p·h = sign·(p·s·H/a) − sign·s/a·∫ p'·H
        terms.push(Expr::mul(vec![
            Expr::int(sign * s),
            ai.clone(),
            p.clone(),
            Expr::call(big_h, u.clone()),
        ]));
        // (with exact coefficients, P' as a polynomial: a derivative written out keeps
        // `0·t^(−1)` terms, which a limit at t = 0 cannot read)
        let dp = match numeric_polynomial(&p, var, budget)? {
            Some(c) => {
                let d = pf::derivative(&c);
                if d.iter().all(Zero::is_zero) {
                    return Ok(vec![Expr::add(terms)]);
                }
                pf::expression(&d, var)
            }
            None => match derivative(&p, var, budget) {
                Ok(d) => d,
                Err(_) => return Ok(Vec::new()),
            },
        };
        if canon::is_zero_in(&dp, Some(var), budget).unwrap_or(false) {
            return Ok(vec![Expr::add(terms)]);
        }
        p = Expr::mul(vec![ai.clone(), dp]);
        sign = -sign * s;
        h = big_h;
    }
    Ok(Vec::new())
}

/// The most terms of a sum that [`multiplied_out`] spreads a product over.
const MAX_SPREAD: usize = 12;

/// A product that the rules above leave, written as a sum each of whose terms is simpler: a
/// pair of `sin`/`cos` (or `sinh`/`cosh`) factors of linear arguments as a sum, the other
/// factors spread over it (`P·sin(u)·cos(v)`, `sin(x)·cos(2x)·cos(3x)`), or else a factor that is a sum (of at most [`MAX_SPREAD`]
/// terms) but no polynomial (the rules above take those) with the other factors spread over it
/// (`(sin x + cos x)·exp(x)`). `None` when neither applies.
fn multiplied_out(
    factors: &[Expr],
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    let without = |skip: &[usize]| -> Vec<Expr> {
        factors
            .iter()
            .enumerate()
            .filter(|(i, _)| !skip.contains(i))
            .map(|(_, f)| f.clone())
            .collect()
    };
    if factors.len() > 2 {
        for i in 0..factors.len() {
            for j in i + 1..factors.len() {
                let pair = [factors[i].clone(), factors[j].clone()];
                if let Some(terms) = product_to_sum(&pair, var, budget)? {
                    return Ok(Some(spread(&without(&[i, j]), terms)));
                }
            }
        }
    }
    for (k, f) in factors.iter().enumerate() {
        if let Expr::Add(terms) = f
            && terms.len() <= MAX_SPREAD
            && f.contains(var, budget)?
            && polynomial(f, var, budget)?.is_none()
        {
            return Ok(Some(spread(&without(&[k]), terms.to_vec())));
        }
    }
    // an even power of sin or cos of a linear argument reduced to cosines of the double angle
    // (`cos(x)^2·sin(2x)` as `sin(2x)/2 + cos(2x)·sin(2x)/2`); an odd one as that of one
    // less, times one factor (`sin(2x)^3·cos(3x)`: `sin(2x)·(1 − cos(4x))/2·cos(3x)`)
    if factors.len() >= 2 {
        for (k, f) in factors.iter().enumerate() {
            if let Expr::Pow(p) = f
                && let Expr::Call(h @ (Func::Sin | Func::Cos), xs) = &p.0
                && let Some(n) = exact_value(&p.1)
            {
                if let Some(terms) = even_power_reduced(*h, &xs[0], &n, var, budget)? {
                    return Ok(Some(spread(&without(&[k]), terms)));
                }
                let one_less = &n - BigRational::one();
                if let Some(terms) = even_power_reduced(*h, &xs[0], &one_less, var, budget)? {
                    let mut rest = without(&[k]);
                    rest.push(p.0.clone());
                    return Ok(Some(spread(&rest, terms)));
                }
            }
        }
    }
    Ok(None)
}

/// `factors · Σ terms` multiplied out, as a sum of flat products (a term that is a product
/// gives its factors).
fn spread(factors: &[Expr], terms: Vec<Expr>) -> Expr {
    Expr::add(
        terms
            .into_iter()
            .map(|t| {
                let mut each = factors.to_vec();
                match t {
                    Expr::Mul(ts) => each.extend(ts.iter().cloned()),
                    t => each.push(t),
                }
                Expr::mul(each)
            })
            .collect(),
    )
}

/// The product `[sin or cos(s), sin or cos(t)]` (linear arguments) as a sum, each term
/// `±1/2·sin(s ± t)` or `±1/2·cos(s ± t)`, and the same for `sinh` and `cosh`; `None` for any
/// other factors.
fn product_to_sum(
    factors: &[Expr],
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Vec<Expr>>, TooLarge> {
    let [Expr::Call(f, x), Expr::Call(g, y)] = factors else {
        return Ok(None);
    };
    let circular = |h: &Func| matches!(h, Func::Sin | Func::Cos);
    let hyperbolic = |h: &Func| matches!(h, Func::Sinh | Func::Cosh);
    if !(circular(f) && circular(g) || hyperbolic(f) && hyperbolic(g)) {
        return Ok(None);
    }
    if linear(&x[0], var, budget)?.is_none() || linear(&y[0], var, budget)?.is_none() {
        return Ok(None);
    }
    let (s, t) = (&x[0], &y[0]);
    // (an argument in which the variable cancels, `x − x`, written as the number it is)
    let mut settled = |e: Expr| -> Result<Expr, TooLarge> {
        Ok(match numeric_polynomial(&e, var, budget)?.as_deref() {
            Some([]) => Expr::int(0),
            Some([c, rest @ ..]) if rest.iter().all(Zero::is_zero) => number(c),
            _ => e,
        })
    };
    let sum = settled(Expr::add(vec![s.clone(), t.clone()]))?;
    let difference = settled(Expr::minus(s.clone(), t.clone()))?;
    let half = |sign: i64, h: Func, e: Expr| Expr::mul(vec![Expr::rat(sign, 2), Expr::call(h, e)]);
    Ok(Some(match (f, g) {
        (Func::Sin, Func::Cos) => vec![half(1, Func::Sin, sum), half(1, Func::Sin, difference)],
        (Func::Cos, Func::Sin) => vec![half(1, Func::Sin, sum), half(-1, Func::Sin, difference)],
        (Func::Cos, Func::Cos) => vec![half(1, Func::Cos, sum), half(1, Func::Cos, difference)],
        (Func::Sin, Func::Sin) => vec![half(1, Func::Cos, difference), half(-1, Func::Cos, sum)],
        (Func::Sinh, Func::Cosh) => {
            vec![half(1, Func::Sinh, sum), half(1, Func::Sinh, difference)]
        }
        (Func::Cosh, Func::Sinh) => {
            vec![half(1, Func::Sinh, sum), half(-1, Func::Sinh, difference)]
        }
        (Func::Cosh, Func::Cosh) => {
            vec![half(1, Func::Cosh, sum), half(1, Func::Cosh, difference)]
        }
        _ => vec![half(1, Func::Cosh, sum), half(-1, Func::Cosh, difference)],
    }))
}

/// `[exp(e), h(t)]` (in either order) for `h` = sin or cos: the factors of `exp·sin`.
fn exponential_and_trigonometric(factors: &[Expr]) -> Option<(&Expr, Func, &Expr)> {
    match factors {
        [
            Expr::Call(Func::Exp, e),
            Expr::Call(h @ (Func::Sin | Func::Cos), t),
        ]
        | [
            Expr::Call(h @ (Func::Sin | Func::Cos), t),
            Expr::Call(Func::Exp, e),
        ] => Some((&e[0], *h, &t[0])),
        _ => None,
    }
}

/// `exp(u)·cosh(v)` as `exp(u + v)/2 + exp(u − v)/2` (`sinh`: `−` between), for linear `u`,
/// `v` and the factors in either order; `None` for any other.
fn exponential_and_hyperbolic(
    factors: &[Expr],
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Vec<Expr>>, TooLarge> {
    let ([
        Expr::Call(Func::Exp, e),
        Expr::Call(h @ (Func::Sinh | Func::Cosh), t),
    ]
    | [
        Expr::Call(h @ (Func::Sinh | Func::Cosh), t),
        Expr::Call(Func::Exp, e),
    ]) = factors
    else {
        return Ok(None);
    };
    let (Some((a, b)), Some((c, d))) = (linear(&e[0], var, budget)?, linear(&t[0], var, budget)?)
    else {
        return Ok(None);
    };
    // (exp(x)·sinh(x) has a constant term: exp(0)/2)
    let half = |sign: i64, (slope, shift): (BigRational, BigRational)| {
        let exponent = if slope.is_zero() {
            number(&shift)
        } else {
            lin(&slope, &shift, var)
        };
        Expr::mul(vec![Expr::rat(sign, 2), Expr::call(Func::Exp, exponent)])
    };
    let minus = if *h == Func::Cosh { 1 } else { -1 };
    Ok(Some(vec![
        half(1, (&a + &c, &b + &d)),
        half(minus, (&a - &c, &b - &d)),
    ]))
}

/// `∫ P(x)·exp(αx + β)·sin(γx + δ) dx` (`h` = sin) or `·cos` for a polynomial `P` (coefficients
/// `p`; `exp` and `angle` the two linear arguments), in closed form: with `z = α + iγ`,
/// `∫ P·e^(zx) = e^(zx)·S`, `S = Σ_k (−1)^k P^(k)/z^(k+1) = Sr + i·Si`, so that
/// `∫ P·exp·cos = exp·(Sr·cos − Si·sin)` and `∫ P·exp·sin = exp·(Sr·sin + Si·cos)` (for `P = 1`,
/// `exp·(α sin − γ cos)/(α² + γ²)`). One term per derivative of `P`, where integrating by parts
/// twice per degree would double the terms each time.
fn exp_trig(
    p: &[BigRational],
    h: Func,
    alpha: &BigRational,
    gamma: &BigRational,
    exp: &Expr,
    angle: &Expr,
    var: &str,
) -> Expr {
    let norm = alpha * alpha + gamma * gamma;
    // w = 1/z^(k+1), from w = 1/z = (α − iγ)/|z|²
    let (zr, zi) = (alpha / &norm, -gamma / &norm);
    let (mut wr, mut wi) = (zr.clone(), zi.clone());
    let (mut sr, mut si) = (Vec::new(), Vec::new());
    let mut derivative = p.to_vec();
    let mut sign = BigRational::one();
    while derivative.iter().any(|c| !c.is_zero()) {
        sr = pf::add(&sr, &pf::mul(&derivative, &[&sign * &wr]));
        si = pf::add(&si, &pf::mul(&derivative, &[&sign * &wi]));
        derivative = pf::derivative(&derivative);
        sign = -sign;
        (wr, wi) = (&wr * &zr - &wi * &zi, &wr * &zi + &wi * &zr);
    }
    let (sin, cos) = (
        Expr::call(Func::Sin, angle.clone()),
        Expr::call(Func::Cos, angle.clone()),
    );
    let (sr, si) = (pf::expression(&sr, var), pf::expression(&si, var));
    let sum = if h == Func::Sin {
        Expr::add(vec![Expr::mul(vec![sr, sin]), Expr::mul(vec![si, cos])])
    } else {
        Expr::minus(Expr::mul(vec![sr, cos]), Expr::mul(vec![si, sin]))
    };
    Expr::mul(vec![Expr::call(Func::Exp, exp.clone()), sum])
}

/// `∫ P(x)·h(u(x)) dx` for polynomials `P` and `u` (degree ≥ 2) with exact coefficients when
/// `P = Q(u)·u'` for a polynomial `Q` (`x³·exp(x²)`: `Q(s) = s/2`): `∫ Q(s)·h(s) ds` by the
/// table, at `s = u(x)`, `h(s)` being the product of the functions `hs` of `s`
/// (`x·exp(x²)·sin(x²)`). `Q` is `P/u'` written in powers of `u` (each remainder of a division
/// by `u` must be a constant).
fn composed(
    p: &Expr,
    hs: &[Func],
    u: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Vec<Expr>, TooLarge> {
    let (Some(p), Some(uc)) = (
        numeric_polynomial(p, var, budget)?,
        numeric_polynomial(u, var, budget)?,
    ) else {
        return Ok(Vec::new());
    };
    let du = pf::derivative(&uc);
    if du.iter().all(Zero::is_zero) || uc.len() > MAX_DEGREE {
        return Ok(Vec::new());
    }
    let (mut rest, remainder) = pf::divide(&p, &du);
    if !remainder.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = Vec::new();
    while !rest.is_empty() {
        budget.step()?;
        let (next, r) = pf::divide(&rest, &uc);
        if r.len() > 1 {
            return Ok(Vec::new());
        }
        q.push(r.first().cloned().unwrap_or_default());
        rest = next;
    }
    let s = format!("{var}·u");
    let mut factors = vec![pf::expression(&q, &s)];
    factors.extend(hs.iter().map(|h| Expr::call(*h, Expr::sym(&s))));
    let integrand = Expr::mul(factors);
    candidates(&integrand, &s, budget)?
        .iter()
        .map(|g| g.substitute(&s, u, budget))
        .collect()
}

/// `∫ P(x)·log(ax + b) dx` for a polynomial `P` with exact coefficients, by parts: with
/// `Q = ∫P` and `Q = S·(ax + b) + r`, it is `(Q − r)·log(ax + b) − a·∫S` (and the same with
/// `log(−ax − b)`, for an interval where `ax + b` is negative).
fn polynomial_times_log(
    p: &Expr,
    a: &BigRational,
    b: &BigRational,
    var: &str,
    budget: &mut Budget,
) -> Result<Vec<Expr>, TooLarge> {
    let Some(p) = numeric_polynomial(p, var, budget)? else {
        return Ok(Vec::new());
    };
    // Q = ∫P, with Q(0) = 0.
    let mut q = vec![BigRational::zero()];
    for (k, c) in p.iter().enumerate() {
        q.push(c / BigRational::from_integer(BigInt::from(k + 1)));
    }
    // Synthetic division by ax + b, from the top: q_k = a·s_(k−1) + b·s_k.
    let m = q.len() - 1;
    let mut s_coefficients = vec![BigRational::zero(); m];
    for k in (1..=m).rev() {
        let above = if k < m {
            s_coefficients[k].clone()
        } else {
            BigRational::zero()
        };
        s_coefficients[k - 1] = (&q[k] - b * above) / a;
    }
    let r = &q[0] - b * &s_coefficients[0];
    let power = |c: &BigRational, k: usize| {
        Expr::mul(vec![
            number(c),
            Expr::pow(Expr::sym(var), Expr::int(k as i64)),
        ])
    };
    let mut q_minus_r: Vec<Expr> = q
        .iter()
        .enumerate()
        .skip(1)
        .map(|(k, c)| power(c, k))
        .collect();
    q_minus_r.push(number(&(&q[0] - &r)));
    let integral_of_s: Vec<Expr> = s_coefficients
        .iter()
        .enumerate()
        .map(|(j, c)| {
            power(
                &(a * c / BigRational::from_integer(BigInt::from(j + 1))),
                j + 1,
            )
        })
        .collect();
    let u = lin(a, b, var);
    let with = |log_argument: Expr| {
        Expr::minus(
            Expr::mul(vec![
                Expr::add(q_minus_r.clone()),
                Expr::call(Func::Log, log_argument),
            ]),
            Expr::add(integral_of_s.clone()),
        )
    };
    Ok(vec![with(u.clone()), with(Expr::negated(u))])
}

/// `∫ P·log(R) dx = Q·log(R) − ∫ Q·R'/R dx` and `∫ P·atan(R) dx = Q·atan(R) − ∫ Q·R'/(1 + R²) dx`
/// (`Q = ∫P`) for a polynomial `P` (coefficients `p`) and a rational function `R = N/D` with
/// exact coefficients, where `R'/R = (N'D − ND')/(ND)` and `R'/(1 + R²) = (N'D − ND')/(D² + N²)`
/// (`∫ atan(1/x) dx = x·atan(1/x) + log(1 + x²)/2`); the rational integral by partial fractions
/// (one candidate for each of its own).
fn parts_through_rational(
    p: &[BigRational],
    h: Func,
    argument: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Vec<Expr>, TooLarge> {
    let Some((n, d)) = rational_function(argument, var, budget)? else {
        return Ok(Vec::new());
    };
    if n.len() + d.len() > MAX_DEGREE / 2 + 1 {
        return Ok(Vec::new());
    }
    let q = pf::integral(p);
    // N'D − ND' (N' when D is 1)
    let slope = pf::sub(
        &pf::mul(&pf::derivative(&n), &d),
        &pf::mul(&n, &pf::derivative(&d)),
    );
    let denominator = match h {
        Func::Log => pf::mul(&n, &d),
        _ => pf::add(&pf::mul(&d, &d), &pf::mul(&n, &n)),
    };
    let rest = pf::antiderivatives(&pf::mul(&q, &slope), &denominator, var, budget)?;
    let first = Expr::mul(vec![
        pf::expression(&q, var),
        Expr::call(h, argument.clone()),
    ]);
    Ok(rest
        .into_iter()
        .map(|g| Expr::minus(first.clone(), g))
        .collect())
}

/// `∫ log(px + q)/(rx + s) dx` through `y = px + q`, which makes it `(1/r)·∫ log(y)/(y − β) dy`
/// with `β = q − ps/r`, through the dilogarithm (`Li₂'(z) = −log(1 − z)/z`), real wherever the
/// integrand is (`y > 0`): `log(y)·log(1 − y/β) + Li₂(y/β)` for `β < 0` (`∫ log(x)/(x + 1) =
/// log(x)·log(1 + x) + Li₂(−x)`, as alkahest writes it), and `log(β)·log(±(y − β)) −
/// Li₂(1 − y/β)` for `β > 0` (`∫ log(x + 1)/x = −Li₂(−x)`; the logarithm only where `β ≠ 1`,
/// when the pole at `y = β` is not removable; then also the first form, for `y < β`: its
/// limit at `y → 0` is one the limit module finds, `∫_0^1 log(x)/(x − 2)`). `None` for any
/// other product, and for `β = 0` (`log(y)²/2`, which the chain rule finds).
fn log_over_line(
    factors: &[Expr],
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Vec<Expr>>, TooLarge> {
    let ([Expr::Call(Func::Log, xs), Expr::Pow(below)]
    | [Expr::Pow(below), Expr::Call(Func::Log, xs)]) = factors
    else {
        return Ok(None);
    };
    if exact_value(&below.1) != Some(-BigRational::one()) {
        return Ok(None);
    }
    let (Some((p, q)), Some((r, s))) =
        (linear(&xs[0], var, budget)?, linear(&below.0, var, budget)?)
    else {
        return Ok(None);
    };
    if p.is_zero() || r.is_zero() {
        return Ok(None);
    }
    let beta = &q - &p * &s / &r;
    if beta.is_zero() {
        return Ok(None);
    }
    let over_r = |terms: Vec<Expr>| Expr::mul(vec![number(&r.recip()), Expr::add(terms)]);
    let dilog = |a: BigRational, b: BigRational| Expr::call(Func::Dilog, lin(&a, &b, var));
    // 1 − y/β
    let (a, b) = (-&p / &beta, BigRational::one() - &q / &beta);
    let log_y = Expr::call(Func::Log, lin(&p, &q, var));
    let product = Expr::mul(vec![log_y, Expr::call(Func::Log, lin(&a, &b, var))]);
    let through_y_over_beta = over_r(vec![product, dilog(&p / &beta, &q / &beta)]);
    if beta.is_negative() {
        return Ok(Some(vec![through_y_over_beta]));
    }
    let minus_dilog = Expr::negated(dilog(a, b));
    if beta.is_one() {
        return Ok(Some(vec![over_r(vec![minus_dilog])]));
    }
    let log_beta = Expr::call(Func::Log, number(&beta));
    let mut candidates: Vec<Expr> = [BigRational::one(), -BigRational::one()]
        .into_iter()
        .map(|sign| {
            // ±(y − β)
            let line = lin(&(&p * &sign), &((&q - &beta) * &sign), var);
            let log = Expr::mul(vec![log_beta.clone(), Expr::call(Func::Log, line)]);
            over_r(vec![log, minus_dilog.clone()])
        })
        .collect();
    // and the first form, real for y < β: at y → 0 its Li₂ goes to 0 (the others' goes to
    // Li₂(1), which no ball reaches from both sides) and log(y)·log(1 − y/β) vanishes
    candidates.push(through_y_over_beta);
    Ok(Some(candidates))
}

/// `∫ h(u)/v^n dx` for `h` one of `sin`, `cos`, `sinh`, `cosh`, `exp`, linear `u = ax + b`,
/// `v = cx + d` with `u = (a/c)·v` and `1 ≤ n ≤` [`MAX_INTEGRAL_FUNCTION_POWER`]: for `n = 1`,
/// `S(u)/c` for the integral function `S` of `h` (`Si`, `Ci`, `Shi`, `Chi`, `Ei`, as alkahest
/// writes `∫ sin(x)/x`), since `S'(t) = h(t)/t`; for `n ≥ 2` by parts, down to `n = 1`:
/// `−h(u)/(c(n − 1)v^(n−1)) + a/(c(n − 1))·∫ h'(u)/v^(n−1) dx` (`∫ exp(x)/x² = Ei(x) −
/// exp(x)/x`, `∫ sin(x)/x² = Ci(x) − sin(x)/x`). `v^n` may be written `(v^k)^-m`, as alkahest
/// writes `1/x²`. `None` for any other product.
fn integral_function(
    factors: &[Expr],
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    let ([Expr::Call(h, xs), Expr::Pow(pw)] | [Expr::Pow(pw), Expr::Call(h, xs)]) = factors else {
        return Ok(None);
    };
    if !matches!(
        h,
        Func::Sin | Func::Cos | Func::Sinh | Func::Cosh | Func::Exp
    ) {
        return Ok(None);
    }
    let integer = |e: &Expr| {
        exact_value(e)
            .filter(BigRational::is_integer)
            .and_then(|k| k.to_integer().to_i64())
    };
    // v^n as v^-n or (v^k)^-m
    let (v, n) = match (integer(&pw.1), &pw.0) {
        (Some(m), Expr::Pow(inner)) if m < 0 => match integer(&inner.1) {
            Some(k) if k > 0 => (&inner.0, k.saturating_mul(-m)),
            _ => return Ok(None),
        },
        (Some(m), v) if m < 0 => (v, -m),
        _ => return Ok(None),
    };
    if n > MAX_INTEGRAL_FUNCTION_POWER {
        return Ok(None);
    }
    let (Some((a, b)), Some((c, d))) = (linear(&xs[0], var, budget)?, linear(v, var, budget)?)
    else {
        return Ok(None);
    };
    // u = (a/c)·v exactly when b = (a/c)·d
    if &b * &c != &a * &d {
        return Ok(None);
    }
    Ok(Some(over_power(*h, &lin(&a, &b, var), &a, v, &c, n)))
}

/// The largest power `n` of [`integral_function`]'s `1/v^n` (each step down is one term).
const MAX_INTEGRAL_FUNCTION_POWER: i64 = 8;

/// [`integral_function`]'s `∫ h(u)/v^n dx`, `u' = a`, `v' = c`.
fn over_power(h: Func, u: &Expr, a: &BigRational, v: &Expr, c: &BigRational, n: i64) -> Expr {
    if n == 1 {
        let integral = match h {
            Func::Sin => Func::Si,
            Func::Cos => Func::Ci,
            Func::Sinh => Func::Shi,
            Func::Cosh => Func::Chi,
            _ => Func::Ei,
        };
        return Expr::mul(vec![number(&c.recip()), Expr::call(integral, u.clone())]);
    }
    // h' as ±g for g among the five
    let (g, sign) = match h {
        Func::Sin => (Func::Cos, 1),
        Func::Cos => (Func::Sin, -1),
        Func::Sinh => (Func::Cosh, 1),
        Func::Cosh => (Func::Sinh, 1),
        _ => (Func::Exp, 1),
    };
    let k = c * BigRational::from_integer((n - 1).into());
    let boundary = Expr::mul(vec![
        number(&-k.recip()),
        Expr::call(h, u.clone()),
        Expr::pow(v.clone(), Expr::int(1 - n)),
    ]);
    let rest = over_power(g, u, a, v, c, n - 1);
    Expr::add(vec![
        boundary,
        Expr::mul(vec![
            number(&(a / &k * BigRational::from_integer(sign.into()))),
            rest,
        ]),
    ])
}

/// `∫ h(w)·G dx = Q·h(w) − ∫ Q·(h(w))' dx` for `h` one of `log`, `atan`, `asin`, `acos`,
/// `asinh`, `acosh`, `atanh` (of any argument; their derivatives are algebraic) and a `G` that
/// is no polynomial (a polynomial times one of them has its own rules above):
/// `Q` among the proposals for `G`, the rest among those for `Q·(h(w))'`. So
/// `∫ sin(x)·log(x) = Ci(x) − cos(x)·log(x)` (the rest an integral function, as alkahest
/// writes it), `∫ log(x)/(x + 1)^2` and `∫ atan(x)/x^2` (the rest a rational function),
/// `∫ log(x)/√x`, `∫ acosh(x)/x^2` (the rest `1/(x·√(x^2 − 1))`). A `Q` with one of these
/// functions in it is passed over: its rest could be the same product again (`∫ log(x)/x`
/// through `Q = log x`, `∫ asin(x)/√(1 − x^2)` through `Q = asin x`). A rest can still hold a `log`
/// factor through `w'` (`w = x·log(x) − x`), so deeper chains are possible; each proposal
/// spends the work budget, which bounds them. Proposals only, like every candidate.
fn by_parts(factors: &[Expr], var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let mut at = None;
    for (i, f) in factors.iter().enumerate() {
        if let Expr::Call(h, xs) = f
            && PARTED.contains(h)
            && xs.len() == 1
            && xs[0].contains(var, budget)?
        {
            if at.is_some() {
                return Ok(Vec::new());
            }
            at = Some(i);
        }
    }
    let Some(at) = at else {
        return Ok(Vec::new());
    };
    let h = &factors[at];
    let g = Expr::mul(
        factors
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, f)| f.clone())
            .collect(),
    );
    if polynomial(&g, var, budget)?.is_some() {
        return Ok(Vec::new());
    }
    let Ok(dh) = derivative(h, var, budget) else {
        return Ok(Vec::new());
    };
    // (acosh' = 1/(√(w − 1)·√(w + 1)) as one root, 1/√(w² − 1), which it is wherever acosh is
    // defined: so the rest is a root of one quadratic, for a substitution to take)
    let dh = match h {
        Expr::Call(Func::Acosh, ws) => match derivative(&ws[0], var, budget) {
            Ok(dw) => Expr::mul(vec![
                dw,
                Expr::pow(
                    Expr::add(vec![square(&ws[0]), Expr::int(-1)]),
                    Expr::rat(-1, 2),
                ),
            ]),
            Err(_) => return Ok(Vec::new()),
        },
        _ => dh,
    };
    let mut found = Vec::new();
    for q in proposals(&g, var, budget)?.into_iter().take(BY_PARTS_TRIED) {
        if has_parted(&q, budget)? {
            continue;
        }
        let rest = Expr::mul(vec![q.clone(), dh.clone()]);
        // (every rest: partial fractions give one per gap between the poles)
        for r in proposals(&rest, var, budget)? {
            found.push(Expr::minus(Expr::mul(vec![q.clone(), h.clone()]), r));
        }
    }
    Ok(found)
}

/// `∫ P·G dx = P·G₁ − ∫ P'·G₁ dx` for a product `f` of a polynomial `P` (its factors that are
/// polynomials, of degree 1 to [`MAX_PARTS_DEGREE`]) and the product `G` of the others, with
/// `G₁` among the proposals for `G` (`∫ x·e^x/(1 + e^x)^2 = −x/(1 + e^x) + ∫ dx/(1 + e^x)`);
/// the rest, of a lower degree, goes to the table and the fallback again. Near the end of the
/// [`FALLBACK`]: its proposals, right or wrong, would otherwise stand in the way of those of
/// a substitution's integrand (which are not verified one by one).
fn polynomial_by_parts(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let Expr::Mul(factors) = f else {
        return Ok(Vec::new());
    };
    let (mut polynomial_part, mut others) = (Vec::new(), Vec::new());
    for x in factors.iter() {
        if !x.contains(var, budget)? || polynomial(x, var, budget)?.is_some() {
            polynomial_part.push(x.clone());
        } else {
            others.push(x.clone());
        }
    }
    if others.is_empty() {
        return Ok(Vec::new());
    }
    let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part), var, budget)? else {
        return Ok(Vec::new());
    };
    let p = pf::trimmed(p);
    if p.len() < 2 || p.len() > MAX_PARTS_DEGREE + 1 {
        return Ok(Vec::new());
    }
    let (p_expr, dp) = (pf::expression(&p, var), pf::derivative(&p));
    // (`G₁` may bring the polynomial back, `∫ x·atanh(x/2)` with `G₁ = x·atanh(x/2) + …`, and
    // then the rest is this integral again: the nesting is bounded)
    let parts = budget.deeper(MAX_PARTS_NESTING, |budget| {
        let mut found = Vec::new();
        for g1 in proposals(&Expr::mul(others), var, budget)?
            .into_iter()
            .take(BY_PARTS_TRIED)
        {
            // (the rest's table candidates and what the fallback proposes both: `1/(1 + e^x)`
            // has a table form that is not its antiderivative, and a rational function of
            // `e^x` that is)
            let rest = Expr::mul(vec![pf::expression(&dp, var), g1.clone()]);
            let mut rests = candidates(&rest, var, budget)?;
            rests.extend(fallback(&rest, var, budget)?);
            for r in rests {
                found.push(Expr::minus(Expr::mul(vec![p_expr.clone(), g1.clone()]), r));
            }
        }
        Ok(found)
    });
    parts.unwrap_or(Ok(Vec::new()))
}

/// `∫ x^m·c·q^(s/2) dx = c·q^(s/2)·x^(m+1)/(m+1) − ∫ c·(s/2)·q'·q^(s/2 − 1)·x^(m+1)/(m+1) dx`
/// for `m ≤ −2`, a polynomial `q` of degree 1 or more, an odd `s` and a constant `c`: the even
/// integrands `x^(−2k)·(ax² + c)^(±1/2)` that neither `t = √(ax² + c)` (for odd ones) nor
/// partial fractions take (`∫ √(1 + x²)/x² = −√(1 + x²)/x + asinh x`). The rest, written as a
/// sum of terms `x^j·q^(s/2 − 1)`, has `x` to a higher power where `q'` brings one (`2ax` of
/// `ax² + c`), so the rule applied to it again ends. Last in the fallback, after
/// [`polynomial_by_parts`], for the reason given there.
fn reciprocal_power_by_parts(
    f: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Vec<Expr>, TooLarge> {
    let mut m = 0i64;
    let mut constants = Vec::new();
    let mut root = None;
    for (base, k) in f.power_factors(budget)? {
        if matches!(&base, Expr::Sym(s) if &**s == var) {
            m += k;
        } else if !base.contains(var, budget)? {
            constants.push(Expr::pow(base, Expr::int(k)));
        } else {
            let Some((q, sign)) = half_power(&base) else {
                return Ok(Vec::new());
            };
            let Some(p) = numeric_polynomial(q, var, budget)?.map(pf::trimmed) else {
                return Ok(Vec::new());
            };
            if root.is_some() || p.len() < 2 || p.len() > MAX_DEGREE {
                return Ok(Vec::new());
            }
            root = Some((q.clone(), p, sign * k));
        }
    }
    let Some((q, p, s)) = root.filter(|_| m <= -2) else {
        return Ok(Vec::new());
    };
    let c = Expr::mul(constants);
    let half = |n: i64| number(&BigRational::new(n.into(), 2.into()));
    let power_of_q = |n: i64| Expr::pow(q.clone(), half(n));
    let power_of_x = |n: i64| Expr::pow(Expr::sym(var), Expr::int(n));
    let over = BigRational::new(1.into(), (m + 1).into());
    // c·(s/2)/(m+1)·q'_i·x^(i+m+1)·q^((s−2)/2), term by term of q'
    let k = BigRational::new(s.into(), 2.into()) * &over;
    let terms: Vec<Expr> = pf::derivative(&p)
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_zero())
        .map(|(i, d)| {
            let power = i as i64 + m + 1;
            let mut factors = vec![c.clone(), number(&(d * &k)), power_of_q(s - 2)];
            if power != 0 {
                factors.push(power_of_x(power));
            }
            Expr::mul(factors)
        })
        .collect();
    let rest = Expr::add(terms);
    let mut rests = candidates(&rest, var, budget)?;
    rests.extend(fallback(&rest, var, budget)?);
    let first = Expr::mul(vec![c, number(&over), power_of_q(s), power_of_x(m + 1)]);
    Ok(rests
        .into_iter()
        .map(|h| Expr::minus(first.clone(), h))
        .collect())
}

/// `∫ c·N/(αx + β)^n·Q^(s/2) dx` for a polynomial `N`, `1 ≤ n ≤` [`MAX_LINE_POWER`], a
/// quadratic `Q` with exact coefficients and `s = ±1` (`√Q` is `Q/√Q`): with `t = x − r`
/// (`r = −β/α`), `N` written in powers of `t` splits into a polynomial over `√Q`
/// ([`polynomial_over_root`]) and the integrals `I_j = ∫ dt/(t^j·√Q)`, `j ≤ n`. With
/// `Q = a·t² + B·t + C` (`B = Q'(r)`, `C = Q(r)`), the derivative of `√Q/t^m` is
/// `a(1 − m)/(t^(m−1)√Q) + B(1 − 2m)/(2t^m√Q) − mC/(t^(m+1)√Q)`, so each `I_j` is a sum of
/// such roots and of `I_1` (for `C ≠ 0`) or of `I_0 = ∫ dx/√Q` (for `C = 0`). `I_1` is what
/// `t = 1/u` gives, written back in `x` so that the exact test differentiates it as it stands
/// (the substituted root `√(C·u² + B·u + a)` is `√Q/|t|`, a relation the form does not have):
/// - `C > 0`: `−log(±N₁/t)/√C` with `N₁ = 2C + B·t + 2√C·√Q` (`d/dt log(N₁/t) =
///   −√C/(t·√Q)`), one candidate for each sign of `N₁/t`;
/// - `C < 0`: `atan((B·t + 2C)/(2√(−C)·√Q))/√(−C)`, on either side of `r`, and
///   `−atan(2√(−C)·√Q/(B·t + 2C))/√(−C)` (a constant apart between the zeros of `B·t + 2C`),
///   which is continuous where `Q` is 0 (`∫ dx/(x·sqrt(x² − 1))` from 1 is `atan(sqrt(x² − 1))`);
/// - `C = 0`, `B ≠ 0`: `−2√Q/(B·t)`.
fn rational_over_root(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let (mut constants, mut numerator) = (Vec::new(), vec![BigRational::one()]);
    let (mut line, mut root) = (None, None);
    for (base, k) in f.power_factors(budget)? {
        if !base.contains(var, budget)? {
            constants.push(Expr::pow(base, Expr::int(k)));
        } else if let Some((q, n)) = half_power(&base) {
            let Some(p) = numeric_polynomial(q, var, budget)?.map(pf::trimmed) else {
                return Ok(Vec::new());
            };
            let s = n.checked_mul(k).filter(|s| s.abs() == 1);
            let (None, 3, Some(s)) = (&root, p.len(), s) else {
                return Ok(Vec::new());
            };
            root = Some((q.clone(), p, s));
        } else if k < 0 {
            let Some((alpha, beta)) = linear(&base, var, budget)? else {
                return Ok(Vec::new());
            };
            if line.is_some() || -k > MAX_LINE_POWER {
                return Ok(Vec::new());
            }
            line = Some((alpha, beta, -k));
        } else {
            let Some(p) = numeric_polynomial(&base, var, budget)? else {
                return Ok(Vec::new());
            };
            for _ in 0..k {
                budget.step()?;
                numerator = pf::mul(&numerator, &p);
                if numerator.is_empty() || numerator.len() > MAX_DEGREE {
                    return Ok(Vec::new());
                }
            }
        }
    }
    let (Some((alpha, beta, n)), Some((q, p, s))) = (line, root) else {
        return Ok(Vec::new());
    };
    if s == 1 {
        numerator = pf::mul(&numerator, &p);
    }
    let n = n as usize;
    let r = -(&beta / &alpha);
    let (a, b) = (&p[2], &p[1]);
    let two = BigRational::from_integer(2.into());
    let big_b = &two * a * &r + b;
    let big_c = pf::value_at(&p, &r);
    let t = || lin(&BigRational::one(), &-&r, var);
    let sqrt_q = || Expr::call(Func::Sqrt, q.clone());
    // N in powers of t: m_k, the remainders of dividing by t again and again
    let mut m = Vec::new();
    let mut rest = numerator;
    while !rest.is_empty() {
        let (quotient, remainder) = pf::divide(&rest, &[-&r, BigRational::one()]);
        m.push(remainder.first().cloned().unwrap_or_default());
        rest = quotient;
    }
    let at = |k: usize| m.get(k).cloned().unwrap_or_default();
    // the polynomial part Σ_{k ≥ n} m_k t^(k − n), in x
    let (mut polynomial, mut power) = (Vec::new(), vec![BigRational::one()]);
    for k in n..m.len() {
        polynomial = pf::add(&polynomial, &pf::mul(&power, &[at(k)]));
        power = pf::mul(&power, &[-&r, BigRational::one()]);
    }
    // Σ_{j ≤ n} m_(n−j)·I_j as multiples of I_0 and I_1 and roots √Q/t^m
    let root_over = |m: usize| Expr::mul(vec![sqrt_q(), Expr::pow(t(), Expr::int(-(m as i64)))]);
    let mut singular: Vec<Combination> = Vec::with_capacity(n + 1);
    if big_c.is_zero() {
        if big_b.is_zero() {
            return Ok(Vec::new());
        }
        // I_m = (√Q/t^m − a(1 − m)·I_(m−1))·2/(B(1 − 2m))
        singular.push(Combination::of(BigRational::one(), BigRational::zero()));
        for k in 1..=n {
            let km = BigRational::from_integer((k as i64).into());
            let factor = &two / (&big_b * (BigRational::one() - &two * &km));
            let previous = singular[k - 1].scaled(&-(a * (BigRational::one() - &km)));
            singular.push(previous.plus_root(root_over(k)).scaled(&factor));
        }
    } else {
        // I_(m+1) = (a(1 − m)·I_(m−1) + B(1 − 2m)/2·I_m − √Q/t^m)/(mC)
        singular.push(Combination::of(BigRational::one(), BigRational::zero()));
        singular.push(Combination::of(BigRational::zero(), BigRational::one()));
        for k in 1..n {
            let km = BigRational::from_integer((k as i64).into());
            let older = singular[k - 1].scaled(&(a * (BigRational::one() - &km)));
            let old = singular[k].scaled(&(&big_b * (BigRational::one() - &two * &km) / &two));
            let next = older.plus(&old).plus_root(Expr::negated(root_over(k)));
            singular.push(next.scaled(&(&km * &big_c).recip()));
        }
    }
    let mut total = Combination::of(BigRational::zero(), BigRational::zero());
    for (j, integral) in singular.iter().enumerate().skip(1) {
        total = total.plus(&integral.scaled(&at(n - j)));
    }
    // the candidates of each part, combined
    let mut per_term = vec![vec![Expr::add(total.roots)]];
    if !polynomial.is_empty() {
        per_term.push(polynomial_over_root(&polynomial, &p, &q, var));
    }
    if !total.i0.is_zero() {
        let i0 = quadratic_root(&p[0], &p[1], &p[2], false, &q, var);
        per_term.push(scaled_all(i0, &total.i0));
    }
    if !total.i1.is_zero() {
        per_term.push(scaled_all(
            reciprocal_line_root(&big_b, &big_c, &t(), &sqrt_q()),
            &total.i1,
        ));
    }
    let c = Expr::mul(vec![
        Expr::mul(constants),
        number(&alpha.recip().pow(n as i32)),
    ]);
    Ok(combine(per_term)
        .into_iter()
        .map(|sum| Expr::mul(vec![c.clone(), sum]))
        .collect())
}

/// The largest power of the line in [`rational_over_root`]'s denominator.
const MAX_LINE_POWER: i64 = 4;

/// A sum `i0·I_0 + i1·I_1 + Σ roots` of [`rational_over_root`].
struct Combination {
    i0: BigRational,
    i1: BigRational,
    roots: Vec<Expr>,
}

impl Combination {
    fn of(i0: BigRational, i1: BigRational) -> Combination {
        Combination {
            i0,
            i1,
            roots: Vec::new(),
        }
    }

    fn scaled(&self, k: &BigRational) -> Combination {
        Combination {
            i0: &self.i0 * k,
            i1: &self.i1 * k,
            roots: self
                .roots
                .iter()
                .map(|e| Expr::mul(vec![number(k), e.clone()]))
                .collect(),
        }
    }

    fn plus(mut self, other: &Combination) -> Combination {
        self.i0 += &other.i0;
        self.i1 += &other.i1;
        self.roots.extend(other.roots.iter().cloned());
        self
    }

    fn plus_root(mut self, root: Expr) -> Combination {
        self.roots.push(root);
        self
    }
}

/// Each of `es` times `k`.
fn scaled_all(es: Vec<Expr>, k: &BigRational) -> Vec<Expr> {
    es.into_iter()
        .map(|e| Expr::mul(vec![number(k), e]))
        .collect()
}

/// `I_1 = ∫ dt/(t·√Q)` for `C ≠ 0` (see [`rational_over_root`]), with `t` and `√Q` as written.
fn reciprocal_line_root(
    big_b: &BigRational,
    big_c: &BigRational,
    t: &Expr,
    sqrt_q: &Expr,
) -> Vec<Expr> {
    let two = BigRational::from_integer(2.into());
    let ratio = |above: Expr, below: Expr| Expr::mul(vec![above, Expr::pow(below, Expr::int(-1))]);
    if big_c.is_positive() {
        let k = square_root(big_c, 1);
        let n = Expr::add(vec![
            number(&(&two * big_c)),
            Expr::mul(vec![number(big_b), t.clone()]),
            Expr::mul(vec![Expr::int(2), k.clone(), sqrt_q.clone()]),
        ]);
        [1, -1]
            .into_iter()
            .map(|sign| {
                let argument = ratio(Expr::mul(vec![Expr::int(sign), n.clone()]), t.clone());
                Expr::mul(vec![
                    Expr::int(-1),
                    square_root(big_c, -1),
                    Expr::call(Func::Log, argument),
                ])
            })
            .collect()
    } else {
        let k = square_root(&-big_c, 1);
        let above = Expr::add(vec![
            Expr::mul(vec![number(big_b), t.clone()]),
            number(&(&two * big_c)),
        ]);
        let below = Expr::mul(vec![Expr::int(2), k, sqrt_q.clone()]);
        vec![
            Expr::mul(vec![
                square_root(&-big_c, -1),
                Expr::call(Func::Atan, ratio(above.clone(), below.clone())),
            ]),
            Expr::mul(vec![
                Expr::int(-1),
                square_root(&-big_c, -1),
                Expr::call(Func::Atan, ratio(below, above)),
            ]),
        ]
    }
}

/// `∫ c/((a·x² + p)·√(b·x² + q)) dx` (two even quadratics with exact coefficients, `p ≠ 0`):
/// at `t = x/√(b·x² + q)`, where `x² = q·t²/(1 − b·t²)` and `dt = q·dx/(b·x² + q)^(3/2)`, it is
/// `∫ dt/(p + D·t²)` with `D = a·q − p·b`: `atan(√(D/p)·t)/√(p·D)` for `p·D > 0`,
/// `atanh(√(−D/p)·t)/√(−p·D)` for `p·D < 0`, each negated for `p < 0`
/// (`∫ dx/((x² + 1)·√(x² + 2)) = atan(x/√(x² + 2))`).
fn quadratic_over_root(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let (mut constants, mut quadratic, mut root) = (Vec::new(), None, None);
    for (base, k) in f.power_factors(budget)? {
        if !base.contains(var, budget)? {
            constants.push(Expr::pow(base, Expr::int(k)));
            continue;
        }
        let (inner, n) = match half_power(&base) {
            Some((q, n)) => (q, n.checked_mul(k)),
            None => (&base, k.checked_mul(2)),
        };
        let Some(p) = numeric_polynomial(inner, var, budget)?.map(pf::trimmed) else {
            return Ok(Vec::new());
        };
        // (even: no x term)
        let even = p.len() == 3 && p[1].is_zero() && !p[0].is_zero();
        match (n, even) {
            (Some(-2), true) if quadratic.is_none() => {
                quadratic = Some((p[2].clone(), p[0].clone()))
            }
            (Some(-1), true) if root.is_none() => {
                root = Some((inner.clone(), p[2].clone(), p[0].clone()))
            }
            _ => return Ok(Vec::new()),
        }
    }
    let (Some((a, p)), Some((q_expr, b, q))) = (quadratic, root) else {
        return Ok(Vec::new());
    };
    let d = &a * &q - &p * &b;
    let pd = &p * &d;
    if pd.is_zero() {
        return Ok(Vec::new());
    }
    let (func, ratio) = if pd.is_positive() {
        (Func::Atan, &d / &p)
    } else {
        (Func::Atanh, -(&d / &p))
    };
    let t = Expr::mul(vec![
        square_root(&ratio, 1),
        Expr::sym(var),
        Expr::pow(Expr::call(Func::Sqrt, q_expr), Expr::int(-1)),
    ]);
    // (for p < 0, p + D·t² is −(|p| − D·t²): the sign of p comes out)
    let sign = if p.is_positive() { 1 } else { -1 };
    Ok(vec![Expr::mul(vec![
        Expr::mul(constants),
        Expr::int(sign),
        square_root(&pd.abs(), -1),
        Expr::call(func, t),
    ])])
}

/// `(c, P)` for a term `c·√P` of a sum: a square root of a polynomial with exact coefficients
/// (`sqrt(P)` or `P^(1/2)`), alone or times exact numbers.
fn root_term(
    t: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<(BigRational, Vec<BigRational>)>, TooLarge> {
    let factors: &[Expr] = match t {
        Expr::Mul(xs) => xs,
        _ => std::slice::from_ref(t),
    };
    let (mut c, mut root) = (BigRational::one(), None);
    for x in factors {
        if let Some(k) = exact_value(x) {
            c *= k;
            continue;
        }
        match half_power(x) {
            Some((q, 1)) if root.is_none() => root = Some(q),
            _ => return Ok(None),
        }
    }
    let Some(q) = root else {
        return Ok(None);
    };
    Ok(numeric_polynomial(q, var, budget)?.map(|p| (c, p)))
}

/// The most nesting of [`conjugate`] within itself.
const MAX_CONJUGATE_NESTING: u32 = 2;

/// `∫ N/(A + B) dx` for `B = c·√P` and `A` a polynomial or `c'·√P'` (polynomials with exact
/// coefficients): times the conjugate `A − B` over itself, the denominator is the polynomial
/// `R = A² − B²`, not 0, and `Σ N·t/R` over the terms `t` of `A − B` goes back to the
/// integrator (`1/(x + √(x² + 1)) = √(x² + 1) − x`, `1/(√(x + 1) + √x) = √(x + 1) − √x`,
/// alkahest's own antiderivatives of them).
fn conjugate(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let factors = f.power_factors(budget)?;
    let Some(k) = factors
        .iter()
        .position(|(base, n)| *n == -1 && matches!(base, Expr::Add(xs) if xs.len() <= MAX_SPREAD))
    else {
        return Ok(Vec::new());
    };
    let Expr::Add(terms) = &factors[k].0 else {
        return Ok(Vec::new());
    };
    let (mut roots, mut polynomial_terms) = (Vec::new(), Vec::new());
    for t in terms.iter() {
        if let Some(root) = root_term(t, var, budget)? {
            roots.push((t, root));
        } else if numeric_polynomial(t, var, budget)?.is_some() {
            polynomial_terms.push(t.clone());
        } else {
            return Ok(Vec::new());
        }
    }
    let square = |(c, p): &(BigRational, Vec<BigRational>)| pf::mul(&[c * c], p);
    // (A's terms, B, R)
    let (a_terms, b, r) = match (&roots[..], polynomial_terms.is_empty()) {
        ([(b, root)], false) => {
            let Some(a) = numeric_polynomial(&Expr::add(polynomial_terms.clone()), var, budget)?
            else {
                return Ok(Vec::new());
            };
            (
                polynomial_terms,
                *b,
                pf::sub(&pf::mul(&a, &a), &square(root)),
            )
        }
        ([(a, first), (b, second)], true) => (
            vec![(*a).clone()],
            *b,
            pf::sub(&square(first), &square(second)),
        ),
        _ => return Ok(Vec::new()),
    };
    let r = pf::trimmed(r);
    if r.is_empty() {
        return Ok(Vec::new());
    }
    let rest: Vec<Expr> = factors
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, (base, n))| Expr::pow(base.clone(), Expr::int(*n)))
        .collect();
    let below = Expr::recip(pf::expression(&r, var));
    let each = |t: Expr| {
        let mut term = rest.clone();
        term.extend([t, below.clone()]);
        Expr::mul(term)
    };
    let rewritten = Expr::add(
        a_terms
            .into_iter()
            .map(each)
            .chain([each(Expr::negated(b.clone()))])
            .collect(),
    );
    budget
        .deeper(MAX_CONJUGATE_NESTING, |budget| {
            proposals(&rewritten, var, budget)
        })
        .unwrap_or(Ok(Vec::new()))
}

/// `√n` (`sign` 1) or `1/√n` (`sign` −1) for a positive rational `n`: a rational when it is
/// one (`x·1^(−1/2)` is no polynomial to later steps), `n^(±1/2)` otherwise.
fn square_root(n: &BigRational, sign: i64) -> Expr {
    match pf::exact_square_root(n) {
        Some(root) if sign > 0 => number(&root),
        Some(root) => number(&root.recip()),
        None => Expr::pow(number(n), Expr::rat(sign, 2)),
    }
}

/// `(q, n)` for `q^(n/2)` with an odd `n`: `sqrt(q)`, `q^(±1/2)`, `q^(3/2)`, `sqrt(q)^−3`,
/// ... (read flat, [`flat_power`]).
fn half_power(e: &Expr) -> Option<(&Expr, i64)> {
    let (q, r) = flat_power(e)?;
    if r.denom() != &BigInt::from(2) {
        return None;
    }
    Some((q, r.numer().to_i64()?))
}

/// `∫ G·(P²)^(s/2) dx` for polynomials `G` and `P` and an odd `s ≥ 1` (`sqrt(x^2)`, that is
/// `|x|`; `sqrt(x^4 + 2x^2 + 1)`): `(P²)^(s/2)` is `σ·P^s` with `σ = √(P²)/P`, which is ±1 and
/// constant between the roots of `P`, so `F = √(P²)·H/P` for `H = ∫ G·P^s`, taken 0 at a
/// rational root of `P` if it has one, so that `P` divides it where it can (`∫ sqrt(x^2) =
/// sqrt(x^2)·x/2`, continuous at 0); otherwise `F` has `P` below the line, and the pieces
/// between its roots decide ([`DefiniteIntegral::ends`]).
fn root_of_a_square(f: &Expr, var: &str, budget: &mut Budget) -> Result<Vec<Expr>, TooLarge> {
    let mut root = None;
    let mut others = Vec::new();
    for (base, k) in f.power_factors(budget)? {
        if root.is_none()
            && let Some((q, n)) = half_power(&base)
            && let Some(p) = numeric_polynomial(q, var, budget)?
                .and_then(|q| pf::square_root(&q))
                .filter(|p| p.len() >= 2)
        {
            root = Some((Expr::call(Func::Sqrt, q.clone()), p, n * k));
            continue;
        }
        others.push(Expr::pow(base, Expr::int(k)));
    }
    let Some((root, p, s)) = root.filter(|(_, _, s)| *s >= 1) else {
        return Ok(Vec::new());
    };
    let Some(g) = numeric_polynomial(&Expr::mul(others), var, budget)? else {
        return Ok(Vec::new());
    };
    let mut integrand = g;
    for _ in 0..s.min(MAX_DEGREE as i64) {
        integrand = pf::mul(&integrand, &p);
        if integrand.len() > MAX_DEGREE + 1 {
            return Ok(Vec::new());
        }
    }
    let mut h = pf::integral(&integrand);
    if let Some((r, _)) = pf::rational_roots(&p, &[], budget)?.0.first() {
        h = pf::sub(&h, &[pf::value_at(&h, r)]);
    }
    let (quotient, remainder) = pf::divide(&h, &p);
    Ok(vec![if remainder.is_empty() {
        Expr::mul(vec![root, pf::expression(&quotient, var)])
    } else {
        Expr::mul(vec![
            root,
            pf::expression(&h, var),
            Expr::recip(pf::expression(&p, var)),
        ])
    }])
}

/// The largest degree of [`polynomial_by_parts`]'s polynomial (each degree is one step).
const MAX_PARTS_DEGREE: usize = 3;

/// How deeply [`polynomial_by_parts`] may nest in itself (through the table and the fallback
/// it calls for the rest): one level for each degree of its polynomial, and one more.
const MAX_PARTS_NESTING: u32 = MAX_PARTS_DEGREE as u32 + 1;

/// How many antiderivatives of `G` [`by_parts`] tries.
const BY_PARTS_TRIED: usize = 2;

/// Whether `e` has a call of one of the [`PARTED`] functions anywhere.
fn has_parted(e: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
    let mut found = false;
    each_call(e, budget, &mut |call, _| {
        found |= matches!(call, Expr::Call(h, _) if PARTED.contains(h));
        Ok(())
    })?;
    Ok(found)
}

/// The functions [`by_parts`] differentiates away (their derivatives are algebraic).
const PARTED: [Func; 7] = [
    Func::Log,
    Func::Atan,
    Func::Asin,
    Func::Acos,
    Func::Asinh,
    Func::Acosh,
    Func::Atanh,
];

/// `∫ P(x)·u^r dx` for a polynomial `P` (the product of `polynomial_part`), `u = ax + b` and a
/// rational `r` that is no integer (`power` is `u^r` or `√u`): `P` written in powers of `u`,
/// `P = Σ c_k·u^k`, integrates term by term to `Σ c_k·u^(k + r + 1)/((k + r + 1)·a)` (no
/// `k + r + 1` is 0). `None` for any other `power`.
fn polynomial_times_linear_power(
    polynomial_part: &[Expr],
    power: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    let (base, r) = match power {
        Expr::Pow(p) => match exact_value(&p.1) {
            Some(r) if !r.is_integer() => (&p.0, r),
            _ => return Ok(None),
        },
        Expr::Call(Func::Sqrt, xs) => (&xs[0], BigRational::new(1.into(), 2.into())),
        _ => return Ok(None),
    };
    let Some((a, b)) = linear(base, var, budget)? else {
        return Ok(None);
    };
    let Some(p) = numeric_polynomial(&Expr::mul(polynomial_part.to_vec()), var, budget)? else {
        return Ok(None);
    };
    if a.is_zero() || p.len() > MAX_DEGREE {
        return Ok(None);
    }
    budget.steps((p.len() * p.len()) as u64)?;
    // P((u − b)/a) by Horner's rule, in powers of u
    let x_of_u = [-&b / &a, a.recip()];
    let mut in_u: Vec<BigRational> = Vec::new();
    for c in p.iter().rev() {
        in_u = pf::add(&pf::mul(&in_u, &x_of_u), std::slice::from_ref(c));
    }
    let mut terms = Vec::with_capacity(in_u.len());
    for (k, c) in in_u.iter().enumerate() {
        if c.is_zero() {
            continue;
        }
        let e = BigRational::from_integer(k.into()) + &r + BigRational::one();
        terms.push(Expr::mul(vec![
            number(&(c / (&e * &a))),
            Expr::pow(base.clone(), number(&e)),
        ]));
    }
    Ok(Some(Expr::add(terms)))
}

/// The constant `k` with `q = k·p'`, for polynomials `p`, `q` in `var` with numeric
/// coefficients.
fn ratio_to_derivative(
    q: &Expr,
    p: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<Option<BigRational>, TooLarge> {
    let (Some(q), Some(p)) = (
        numeric_polynomial(q, var, budget)?,
        numeric_polynomial(p, var, budget)?,
    ) else {
        return Ok(None);
    };
    let derivative = pf::derivative(&p);
    let Some(pivot) = derivative.iter().position(|c| !c.is_zero()) else {
        return Ok(None);
    };
    let k = q.get(pivot).cloned().unwrap_or_default() / &derivative[pivot];
    let len = q.len().max(derivative.len());
    let matches = (0..len).all(|i| {
        let qi = q.get(i).cloned().unwrap_or_default();
        let di = derivative.get(i).cloned().unwrap_or_default();
        qi == &k * di
    });
    Ok((matches && !k.is_zero()).then_some(k))
}

/// Whether `e` is, as a function of `var`, continuous on the whole real line by its form: built
/// from entire functions (sums, products, natural powers, `exp`, `sin`, `cos`, `sinh`, `cosh`,
/// `atan`, `asinh`, `tanh`, `erf`, and anything free of `var`), and from any rational power,
/// `log` or `sqrt` of a polynomial that is positive everywhere (`positive_everywhere`:
/// `1/(1+x^2)`, `log(x^2+1)`). A ball evaluation cannot show this over an interval as wide as
/// `[-10^300, 10^300]`, where `x^2` overflows.
pub fn continuous_everywhere(e: &Expr, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
    budget.step()?;
    if !e.contains(var, budget)? {
        return Ok(true);
    }
    Ok(match e {
        Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) | Expr::Sym(_) => true,
        Expr::Add(xs) | Expr::Mul(xs) => {
            for x in xs.iter() {
                if !continuous_everywhere(x, var, budget)? {
                    return Ok(false);
                }
            }
            true
        }
        Expr::Pow(p) => {
            (natural(&p.1) && continuous_everywhere(&p.0, var, budget)?)
                || (exact_value(&p.1).is_some() && positive_everywhere(&p.0, var, budget)?)
                // (c^u = exp(u·log c) for a number c > 0)
                || (exact_value(&p.0).is_some_and(|c| c.is_positive())
                    && continuous_everywhere(&p.1, var, budget)?)
        }
        Expr::Call(Func::Log | Func::Sqrt, xs) => positive_everywhere(&xs[0], var, budget)?,
        Expr::Call(f, xs) => {
            matches!(
                f,
                Func::Exp
                    | Func::Sin
                    | Func::Cos
                    | Func::Sinh
                    | Func::Cosh
                    | Func::Atan
                    | Func::Asinh
                    | Func::Tanh
                    | Func::Erf
            ) && continuous_everywhere(&xs[0], var, budget)?
        }
    })
}

/// Whether `e` is a polynomial in `var` with exact coefficients that is positive for every real
/// `var`, by one of two sufficient tests: only even powers, none with a negative coefficient,
/// and a positive constant term (so it is at least that constant); or a quadratic with a
/// positive leading coefficient and a negative discriminant.
pub(super) fn positive_everywhere(
    e: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<bool, TooLarge> {
    let Some(c) = numeric_polynomial(e, var, budget)? else {
        return Ok(false);
    };
    let even = c.first().is_some_and(Signed::is_positive)
        && c.iter().enumerate().all(|(k, c)| {
            if k % 2 == 1 {
                c.is_zero()
            } else {
                !c.is_negative()
            }
        });
    let quadratic = match c.as_slice() {
        [c0, c1, c2] => {
            c2.is_positive()
                && c1 * c1 - BigRational::from_integer(4.into()) * c2 * c0 < BigRational::zero()
        }
        _ => false,
    };
    Ok(even || quadratic)
}

/// A definite-integral recipe's parts.
pub struct DefiniteIntegral<'e> {
    /// The integrand.
    pub integrand: &'e Expr,
    /// The variable of integration.
    pub var: &'e str,
    /// The lower bound.
    pub lower: &'e Expr,
    /// The upper bound.
    pub upper: &'e Expr,
    /// An antiderivative to try in place of the table's: the claimed value read as a function
    /// of a bound ([`DefiniteIntegral::ends_by_the_value`]).
    proposed: Option<Expr>,
}

impl<'e> DefiniteIntegral<'e> {
    /// `∫_lower^upper integrand d(var)`.
    pub fn new(integrand: &'e Expr, var: &'e str, lower: &'e Expr, upper: &'e Expr) -> Self {
        DefiniteIntegral {
            integrand,
            var,
            lower,
            upper,
            proposed: None,
        }
    }

    /// [`DefiniteIntegral::ends`] for the claimed value's own antiderivative: with a bound `s`
    /// that is a symbol found nowhere else in the integral (the upper bound, or else the lower
    /// one), `G(x) = value(s := x)`, negated for the lower bound (`value` is then `∫_x^b`), is
    /// an antiderivative of the integrand where the exact test shows `G′ = f`, and every rule
    /// of `ends` applies to it as to the table's (continuity for every value of the parameters
    /// at which the value is defined, one-sided limits at an end). The residual is then
    /// `−value(s := other bound)`, 0 to the exact test when the value vanishes where the bounds
    /// meet. This reaches values the exact test cannot match to the table's antiderivative
    /// (alkahest's `atan(−1 + x + √(2 + x²)) − atan(1 + x + √(2 + x²))` for
    /// `1/((1 + x²)·√(2 + x²))`, which differs from `atan(x/√(2 + x²))` by a constant). `None`
    /// when there is no such bound or a rule does not hold.
    pub fn ends_by_the_value(
        &self,
        value: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<(Expr, Expr)>, TooLarge> {
        // (a bound `s` found nowhere else: not the variable, nor in the integrand or the
        // other bound)
        let alone = |s: &str, other: &Expr, budget: &mut Budget| -> Result<bool, TooLarge> {
            Ok(s != self.var
                && !self.integrand.contains(s, budget)?
                && !other.contains(s, budget)?)
        };
        if value.contains(self.var, budget)? {
            return Ok(None);
        }
        let x = Expr::sym(self.var);
        let g = match (self.upper, self.lower) {
            (Expr::Sym(s), other) if alone(s, other, budget)? => value.substitute(s, &x, budget)?,
            (other, Expr::Sym(s)) if alone(s, other, budget)? => {
                Expr::negated(value.substitute(s, &x, budget)?)
            }
            _ => return Ok(None),
        };
        let proposed = DefiniteIntegral {
            proposed: Some(g),
            ..DefiniteIntegral::new(self.integrand, self.var, self.lower, self.upper)
        };
        proposed.ends(value, budget)
    }

    /// An antiderivative for which `F(upper) − F(lower)` is the integral: one the table
    /// proposes, that differentiates exactly to the integrand, and that is continuous on the
    /// closed interval, where the integrand is continuous but at finitely many points (the
    /// roots of a polynomial denominator: `sin(x)/x` across 0, `defined_but_at_finitely_many`).
    /// `None` when no candidate qualifies.
    pub fn antiderivative(&self, budget: &mut Budget) -> Result<Option<Expr>, TooLarge> {
        self.antiderivative_for(None, budget)
    }

    /// [`DefiniteIntegral::antiderivative`], or, for an integral with parameters (symbols
    /// besides the variable, `pi` and `e`, in the integrand or as bounds) and a claimed
    /// `value`, one shown continuous with the integrand for every value of the parameters at
    /// which `value` is defined ([`super::parametric`]: `log(x² + a)/2` for `x/(x² + a)` on
    /// `[0, 1/2]`, where the value holds `log(a)`).
    fn antiderivative_for(
        &self,
        value: Option<&Expr>,
        budget: &mut Budget,
    ) -> Result<Option<Expr>, TooLarge> {
        let value = match value {
            Some(v) if self.parameters(budget)? => Some(v),
            _ => None,
        };
        self.each_exact(budget, &mut |f, budget| {
            let continuous = (continuous_everywhere(f, self.var, budget)?
                && continuous_everywhere(self.integrand, self.var, budget)?)
                || self.continuous(f, budget)?
                || match value {
                    Some(v) => super::parametric::continuous_where_the_value_is_defined(
                        self, f, v, budget,
                    )?,
                    None => false,
                };
            Ok(continuous.then(|| f.clone()))
        })
    }

    /// The first of `take`'s answers for the proposed antiderivatives that differentiate
    /// exactly to the integrand, in turn: the table's, then, when none of those did (a rule of
    /// the table that matched the form but not the integrand: `cos(x)^3/(1 + sin(x)^2)` as a
    /// product), what [`fallback`] proposes.
    fn each_exact<T>(
        &self,
        budget: &mut Budget,
        take: &mut Take<'_, T>,
    ) -> Result<Option<T>, TooLarge> {
        if let Some(g) = &self.proposed {
            if self.differentiates_to_integrand(g, budget)? {
                return take(g, budget);
            }
            return Ok(None);
        }
        let table = candidates(self.integrand, self.var, budget)?;
        let from_table = !table.is_empty();
        let first = if from_table {
            table
        } else {
            fallback(self.integrand, self.var, budget)?
        };
        let mut exact = false;
        for f in first {
            if self.differentiates_to_integrand(&f, budget)? {
                exact = true;
                if let Some(answer) = take(&f, budget)? {
                    return Ok(Some(answer));
                }
            }
        }
        if from_table && !exact {
            for f in fallback(self.integrand, self.var, budget)? {
                if self.differentiates_to_integrand(&f, budget)?
                    && let Some(answer) = take(&f, budget)?
                {
                    return Ok(Some(answer));
                }
            }
        }
        // What is proposed for the exact test's reduced form of the integrand, which equals it
        // wherever it is defined (`log(exp(40)·(x + 2))` is `40 + log(x + 2)`,
        // `(x + 1)^200/(x + 1)^199 − (x + 1)` is 0): each still differentiated against the
        // integrand as written, and its continuity shown there, as any proposal is. On at most
        // an eighth of the steps left: it is asked where everything else has failed, which is
        // often, and mostly finds nothing more.
        let most = budget.left() / 8;
        budget.share(most, |budget| {
            if let Ok(Some(reduced)) =
                canon::reduced_expression_in(self.integrand, Some(self.var), budget)
                && !reduced.identical(self.integrand, budget)?
            {
                for f in proposals(&reduced, self.var, budget)? {
                    if self.differentiates_to_integrand(&f, budget)?
                        && let Some(answer) = take(&f, budget)?
                    {
                        return Ok(Some(answer));
                    }
                }
            }
            Ok(None)
        })
    }

    /// Whether the exact test shows `d/dvar f` is the integrand.
    fn differentiates_to_integrand(&self, f: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        let Ok(d) = derivative(f, self.var, budget) else {
            return Ok(false);
        };
        Ok(canon::is_zero_in(
            &Expr::minus(d, self.integrand.clone()),
            Some(self.var),
            budget,
        ) == Ok(true))
    }

    /// `F(upper)` and `F(lower)` for an antiderivative `F` ([`DefiniteIntegral::antiderivative`];
    /// with parameters, one continuous wherever the claimed `value` is defined), or, for an
    /// improper integral whose integrand and `F` are continuous but for one exact end
    /// where `F` has a one-sided limit ([`super::limit`]), that limit in place of the value at
    /// that end; or, continuous on the open interval (each half-open half up to the midpoint),
    /// the limits at both ends. With parameters in the integrand, term by term
    /// (`by_parameter_free_terms`); with a bound that is not a number, the limit at the other,
    /// exact end (`improper_toward_a_symbol`). `None` when none applies.
    pub fn ends(
        &self,
        value: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<(Expr, Expr)>, TooLarge> {
        if let Some(f) = self.antiderivative_for(Some(value), budget)? {
            let at_upper = f.substitute(self.var, self.upper, budget)?;
            let at_lower = f.substitute(self.var, self.lower, budget)?;
            return Ok(Some((at_upper, at_lower)));
        }
        if has_parameters(self.integrand, self.var, budget)? {
            return self.by_parameter_free_terms(value, budget);
        }
        let (Some(lower), Some(upper)) = (exact_value(self.lower), exact_value(self.upper)) else {
            if let Some(ends) = self.improper_toward_a_symbol(value, budget)? {
                return Ok(Some(ends));
            }
            return self.across_a_removable_point(value, budget);
        };
        if lower == upper {
            return Ok(None);
        }
        self.each_exact(budget, &mut |f, budget| {
            for (c, other, singular_at_lower) in [(&lower, &upper, true), (&upper, &lower, false)] {
                let end = super::limit::End {
                    var: self.var,
                    c,
                    d: other,
                };
                // The integrand and F continuous from c (excluded) to the other end (included);
                // `limit` checks F.
                if !end.continuous(self.integrand, budget)? {
                    continue;
                }
                let Some(limit) = end.limit(f, budget)? else {
                    continue;
                };
                let at_other = f.substitute(
                    self.var,
                    if singular_at_lower {
                        self.upper
                    } else {
                        self.lower
                    },
                    budget,
                )?;
                return Ok(Some(if singular_at_lower {
                    (at_other, limit)
                } else {
                    (limit, at_other)
                }));
            }
            // Singular at both ends (`asin(√x)` on [0, 1]): continuous on each half-open half
            // up to the midpoint, so on the open interval, with a limit at each end; or
            // singular inside too (`log(x²)` on [−1, 1], `atan(1/x)` across 0): the same on each
            // piece between the points where an argument or base leaves its domain
            // ([`DefiniteIntegral::inner_points`]), whose integrals add up.
            let whole = [lower.clone(), upper.clone()];
            if let Some(ends) = self.by_pieces(f, &whole, budget)? {
                return Ok(Some(ends));
            }
            let inside = self.inner_points(f, &lower, &upper, budget)?;
            if inside.is_empty() {
                return Ok(None);
            }
            let points: Vec<BigRational> = std::iter::once(lower.clone())
                .chain(inside)
                .chain([upper.clone()])
                .collect();
            self.by_pieces(f, &points, budget)
        })
    }

    /// For an integrand with parameters that is a sum of terms `k·g`, `k` free of the variable
    /// and `g` of the parameters (`a·log x`, `x·log x + a·x`): the sums of `k·G(upper)` and
    /// `k·G(lower)` over the terms, each integral of a `g` by [`DefiniteIntegral::ends`], its
    /// improper ends and symbolic bounds included (`∫_0^1 a·log x dx = −a`, alkahest's `ok`:
    /// the limit rules need balls, which `a` has none of). The integrals of the terms exist, so
    /// that of their sum does, and is their sum, wherever each `k` is defined, which must be
    /// wherever the value is ([`super::parametric::defined_where_the_value_is`]: `1/a` in the
    /// value as in the integrand). `None` unless every term is of that form and its integral
    /// is shown.
    fn by_parameter_free_terms(
        &self,
        value: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<(Expr, Expr)>, TooLarge> {
        let mut terms = Vec::new();
        self.integrand.flat_terms(&mut terms);
        let (mut at_upper, mut at_lower) = (Vec::new(), Vec::new());
        for term in &terms {
            let mut factors = Vec::new();
            term.flat_factors(&mut factors);
            let (k, g) = constant_factors(&factors, self.var, budget)?;
            for x in &g {
                if has_parameters(x, self.var, budget)? {
                    return Ok(None);
                }
            }
            for x in &k {
                if !super::parametric::defined_where_the_value_is(x, value, self.var, budget)? {
                    return Ok(None);
                }
            }
            let g = Expr::mul(g);
            let part = DefiniteIntegral::new(&g, self.var, self.lower, self.upper);
            let Some((u, l)) = part.ends(value, budget)? else {
                return Ok(None);
            };
            for (end, sums) in [(u, &mut at_upper), (l, &mut at_lower)] {
                let mut product = k.clone();
                product.push(end);
                sums.push(Expr::mul(product));
            }
        }
        Ok(Some((Expr::add(at_upper), Expr::add(at_lower))))
    }

    /// `F(b)` and `lim F(c±)` (in the order of the bounds) for an integral from an exact end
    /// `c` where `F` may have no value to a bound `b` that is not a number (`∫_0^t log x dx =
    /// t·log t − t`), with an integrand free of parameters (one with parameters goes by its
    /// terms: [`DefiniteIntegral::by_parameter_free_terms`]): `b` on one side of `c` (or on
    /// either, `F` then having the same limit from both, when the value is 0 at `b = c`) and `F`
    /// continuous with the integrand up to it for every value of the parameters at which the
    /// claimed value is defined ([`super::parametric::BesideAnEnd`]), and `F`'s limit at `c`
    /// from that side shown over a short interval beside it ([`super::limit::End`]: a limit is
    /// a property of `F` near `c` only). `None` when one of these is not shown.
    fn improper_toward_a_symbol(
        &self,
        value: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<(Expr, Expr)>, TooLarge> {
        let (c, other, singular_at_lower) = match (exact_value(self.lower), exact_value(self.upper))
        {
            (Some(c), None) => (c, self.upper, true),
            (None, Some(c)) => (c, self.lower, false),
            _ => return Ok(None),
        };
        let sides = super::parametric::BesideAnEnd::sides(self.var, &c, other, value, budget)?;
        if sides.is_empty() {
            return Ok(None);
        }
        self.each_exact(budget, &mut |f, budget| {
            // F's limit at c from each side, the same on both when there are two
            let mut limits: Vec<Expr> = Vec::new();
            for beside in &sides {
                let Some(limit) = self.limit_beside(f, &c, beside.side, budget)? else {
                    return Ok(None);
                };
                if !beside.continuous(f, self.integrand, budget)? {
                    return Ok(None);
                }
                if let Some(first) = limits.first()
                    && canon::is_zero_in(&Expr::minus(first.clone(), limit.clone()), None, budget)
                        != Ok(true)
                {
                    return Ok(None);
                }
                limits.push(limit);
            }
            let limit = limits.swap_remove(0);
            let at_other = f.substitute(self.var, other, budget)?;
            Ok(Some(if singular_at_lower {
                (at_other, limit)
            } else {
                (limit, at_other)
            }))
        })
    }

    /// The limit of `f` at `c` from the side `side` (`1` above, `−1` below), shown over a
    /// short interval beside `c` ([`super::limit::End`]: up to 1 away, or, past something that
    /// has no ball there, a 16th), with the integrand continuous there; `None` when not shown.
    fn limit_beside(
        &self,
        f: &Expr,
        c: &BigRational,
        side: i8,
        budget: &mut Budget,
    ) -> Result<Option<Expr>, TooLarge> {
        for reach in [1, 16] {
            let d = c + BigRational::new(side.into(), reach.into());
            let end = super::limit::End {
                var: self.var,
                c,
                d: &d,
            };
            if end.continuous(self.integrand, budget)?
                && let Some(limit) = end.limit(f, budget)?
            {
                return Ok(Some(limit));
            }
        }
        Ok(None)
    }

    /// `(Σ lim F(q−), Σ lim F(p+))` over the pieces `[p, q]` between consecutive `points`
    /// (from the lower bound to the upper), each limit taken from the piece's midpoint with
    /// the integrand and `F` continuous from there up to the end ([`super::limit::End`]);
    /// `None` when one is not shown.
    fn by_pieces(
        &self,
        f: &Expr,
        points: &[BigRational],
        budget: &mut Budget,
    ) -> Result<Option<(Expr, Expr)>, TooLarge> {
        let (mut at_upper, mut at_lower) = (Vec::new(), Vec::new());
        for piece in points.windows(2) {
            let (p, q) = (&piece[0], &piece[1]);
            let middle = (p + q) / BigRational::from_integer(2.into());
            for (c, sums) in [(q, &mut at_upper), (p, &mut at_lower)] {
                let end = super::limit::End {
                    var: self.var,
                    c,
                    d: &middle,
                };
                if !end.continuous(self.integrand, budget)? {
                    return Ok(None);
                }
                let Some(limit) = end.limit(f, budget)? else {
                    return Ok(None);
                };
                sums.push(limit);
            }
        }
        let sum = |mut terms: Vec<Expr>| {
            if terms.len() == 1 {
                terms.pop().expect("one")
            } else {
                Expr::add(terms)
            }
        };
        Ok(Some((sum(at_upper), sum(at_lower))))
    }

    /// The exact points strictly between the bounds, in order from the lower to the upper,
    /// among [`DefiniteIntegral::domain_points`] (none when there are more than
    /// [`MOST_INNER_POINTS`]).
    fn inner_points(
        &self,
        f: &Expr,
        lower: &BigRational,
        upper: &BigRational,
        budget: &mut Budget,
    ) -> Result<Vec<BigRational>, TooLarge> {
        let (low, high) = if lower < upper {
            (lower, upper)
        } else {
            (upper, lower)
        };
        let Some(mut found) = self.domain_points(f, Some((low, high)), budget)? else {
            return Ok(Vec::new());
        };
        found.sort();
        if lower > upper {
            found.reverse();
        }
        Ok(found)
    }

    /// The exact points (strictly between `within`'s ends, when given) where a base of a power
    /// that is not natural, or the argument of a function that is not entire, in the integrand
    /// or in `F`, is 0 or has a pole: the rational roots of the numerator and denominator of
    /// each such base or argument that is a rational function; `None` when there are more than
    /// [`MOST_INNER_POINTS`].
    fn domain_points(
        &self,
        f: &Expr,
        within: Option<(&BigRational, &BigRational)>,
        budget: &mut Budget,
    ) -> Result<Option<Vec<BigRational>>, TooLarge> {
        let mut found: Vec<BigRational> = Vec::new();
        let mut parts = Vec::new();
        for e in [self.integrand, f] {
            gather_domain_parts(e, self.var, &mut parts, budget)?;
        }
        for part in parts {
            let Some((n, d)) = rational_function(&part, self.var, budget)? else {
                continue;
            };
            for p in [n, d] {
                for (root, _) in pf::rational_roots(&p, &[], budget)?.0 {
                    let inside = within.is_none_or(|(low, high)| &root > low && &root < high);
                    if inside && !found.contains(&root) {
                        found.push(root);
                    }
                }
            }
            if found.len() > MOST_INNER_POINTS {
                return Ok(None);
            }
        }
        Ok(Some(found))
    }

    /// `F(upper)` and `F(lower)` for bounds of which one at least is a symbol and an integrand
    /// free of parameters, where `F` and the integrand leave their domains at one point `p`
    /// only ([`DefiniteIntegral::domain_points`]), `F` is continuous on each side of it (on
    /// every `[s, r]` with `s` and `r` beyond `p`: [`super::parametric::BesideAnEnd::half_line`])
    /// and has the same limit from both sides there: `F` with that limit at `p` is continuous
    /// on the whole line, so the integral over any interval is `F(upper) − F(lower)` (improper
    /// at `p` when the interval holds it: `∫_1^t log(x²) dx = t·log(t²) − 2t + 2` for `t` of
    /// either sign, alkahest's `ok`). A bound that is a line in one parameter (`t`, `t + 1`)
    /// must leave the value without a value where it is `p` (`log(0)`: the claim says nothing
    /// there), a numeric one must not be `p`.
    fn across_a_removable_point(
        &self,
        value: &Expr,
        budget: &mut Budget,
    ) -> Result<Option<(Expr, Expr)>, TooLarge> {
        if has_parameters(self.integrand, self.var, budget)?
            || (exact_value(self.lower).is_some() && exact_value(self.upper).is_some())
        {
            return Ok(None);
        }
        // (each bound a number or a line in one parameter, `t`, `t + 1`, `2t`: the value of
        // that parameter at which the bound is p is known)
        let mut lines = Vec::new();
        for bound in [self.lower, self.upper] {
            if exact_value(bound).is_none() {
                match super::parametric::a_line_in_one_parameter(bound, self.var, budget)? {
                    Some(line) => lines.push(line),
                    None => return Ok(None),
                }
            }
        }
        self.each_exact(budget, &mut |f, budget| {
            let Some(points) = self.domain_points(f, None, budget)? else {
                return Ok(None);
            };
            let [p] = points.as_slice() else {
                return Ok(None);
            };
            for bound in [self.lower, self.upper] {
                if exact_value(bound).is_some_and(|c| c == *p) {
                    return Ok(None);
                }
            }
            for (t, a, b) in &lines {
                let at_p = value.substitute(t, &number(&((p - b) / a)), budget)?;
                if !super::parametric::has_no_value(&at_p, self.var, budget)? {
                    return Ok(None);
                }
            }
            let mut limits: Vec<Expr> = Vec::new();
            for side in [1, -1] {
                let half = super::parametric::BesideAnEnd::half_line(self.var, p, side);
                if !half.continuous(f, self.integrand, budget)? {
                    return Ok(None);
                }
                let Some(limit) = self.limit_beside(f, p, side, budget)? else {
                    return Ok(None);
                };
                limits.push(limit);
            }
            if canon::is_zero_in(
                &Expr::minus(limits[0].clone(), limits[1].clone()),
                None,
                budget,
            ) != Ok(true)
            {
                return Ok(None);
            }
            Ok(Some((
                f.substitute(self.var, self.upper, budget)?,
                f.substitute(self.var, self.lower, budget)?,
            )))
        })
    }

    /// Whether the integral has a symbol besides the variable, `pi` and `e`.
    fn parameters(&self, budget: &mut Budget) -> Result<bool, TooLarge> {
        for e in [self.integrand, self.lower, self.upper] {
            if has_parameters(e, self.var, budget)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether `f` is shown finite and continuous on the whole interval, and the integrand
    /// on it but at finitely many points ([`defined_but_at_finitely_many`]), by ball
    /// evaluations over it: over the whole, or else over its halves, and so on where a piece
    /// fails, down to a `2^−CONTINUITY_DEPTH` of it, in at most `CONTINUITY_SPLITS` halvings
    /// (a ball over a wide interval is coarse: `sin` over `[0, 3/2]` spans `[−0.07, 1.43]`,
    /// and `√(1 − sin²x/2)` would seem to leave its domain; near a pole just outside, only the
    /// pieces beside it need to be small: `1/(1 + cos x)` up to 3, 0.14 from π).
    /// The bounds and both expressions may contain no symbol but the variable, `pi` and `e` (a
    /// parameter's sample value proves nothing about the claim).
    fn continuous(&self, f: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        if self.parameters(budget)? || has_parameters(f, self.var, budget)? {
            return Ok(false);
        }
        let none = Bindings::new();
        let mut evaluator = Evaluator::new(128, &none);
        // Exact ends let a monotone root be taken at them (`√tan x` from 0, where a ball of
        // `tan` over `[0, h]` reaches below 0): [`Evaluator::over_exactly`].
        let ends = match (exact_value(self.lower), exact_value(self.upper)) {
            (Some(a), Some(b)) => Ends::Exact(a, b),
            _ => match (
                evaluator.ball(self.lower, budget),
                evaluator.ball(self.upper, budget),
            ) {
                (Ok(a), Ok(b)) => Ends::Balls(a, b),
                _ => return Ok(false),
            },
        };
        let mut splits = CONTINUITY_SPLITS;
        self.covered(
            &mut evaluator,
            f,
            ends,
            CONTINUITY_DEPTH,
            &mut splits,
            budget,
        )
    }

    fn covered(
        &self,
        evaluator: &mut Evaluator<'_>,
        f: &Expr,
        ends: Ends,
        depth: u32,
        splits: &mut u32,
        budget: &mut Budget,
    ) -> Result<bool, TooLarge> {
        let set = match &ends {
            Ends::Exact(a, b) => evaluator.over_exactly(self.var, a, b, budget).is_ok(),
            Ends::Balls(a, b) => {
                evaluator.over(self.var, a, b);
                true
            }
        };
        if set
            && evaluator.ball(f, budget).is_ok()
            && defined_but_at_finitely_many(evaluator, self.integrand, self.var, budget)?
        {
            return Ok(true);
        }
        budget.step()?;
        if depth == 0 || *splits == 0 {
            return Ok(false);
        }
        *splits -= 1;
        let Some((low, high)) = ends.halves(evaluator) else {
            return Ok(false);
        };
        Ok(self.covered(evaluator, f, low, depth - 1, splits, budget)?
            && self.covered(evaluator, f, high, depth - 1, splits, budget)?)
    }
}

/// What [`DefiniteIntegral::each_exact`] asks of each exact antiderivative: an answer, or
/// `None` to go on to the next.
type Take<'a, T> = dyn FnMut(&Expr, &mut Budget) -> Result<Option<T>, TooLarge> + 'a;

/// The ends of a piece of [`DefiniteIntegral::continuous`]'s interval.
enum Ends {
    /// Both exact: halved exactly.
    Exact(BigRational, BigRational),
    /// Balls (a bound such as `pi/2`): halved at an f64 point, which both halves share, so
    /// that together they cover the piece.
    Balls(Ball<BigFloat>, Ball<BigFloat>),
}

impl Ends {
    /// The two halves; `None` when the f64 middle is not finite.
    fn halves(self, evaluator: &mut Evaluator<'_>) -> Option<(Ends, Ends)> {
        Some(match self {
            Ends::Exact(a, b) => {
                let m = (&a + &b) / BigRational::from_integer(2.into());
                (Ends::Exact(a, m.clone()), Ends::Exact(m, b))
            }
            Ends::Balls(a, b) => {
                let middle = 0.5 * (a.approx() + b.approx());
                if !middle.is_finite() {
                    return None;
                }
                let m = evaluator.exactly(middle);
                (Ends::Balls(a, m.clone()), Ends::Balls(m, b))
            }
        })
    }
}

/// Whether `e` is shown defined and continuous on the evaluator's interval but at finitely
/// many points: by its ball over the interval, or, term by term, factor by factor, through
/// natural powers and entire functions, with each negative integer power of a polynomial in
/// `var` with exact coefficients, not identically zero, left out (it is undefined only at
/// that polynomial's roots). So
/// `sin(x)/x` qualifies on `[−1, 1]`, where its ball cannot, and so does a negative integer
/// power of a function such as `sin` of such a polynomial ([`vanishes_at_finitely_many`]):
/// an antiderivative continuous on
/// the closed interval then gives the integral across those points, as an improper integral
/// between each two of them (`Si(1) − Si(−1)`); a pole that is not integrable leaves the
/// antiderivative discontinuous there (`−1/x` for `1/x²`), and that ball fails.
fn defined_but_at_finitely_many(
    evaluator: &mut Evaluator<'_>,
    e: &Expr,
    var: &str,
    budget: &mut Budget,
) -> Result<bool, TooLarge> {
    budget.step()?;
    if evaluator.ball(e, budget).is_ok() {
        return Ok(true);
    }
    match e {
        Expr::Add(xs) | Expr::Mul(xs) => {
            for x in xs.iter() {
                if !defined_but_at_finitely_many(evaluator, x, var, budget)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Expr::Pow(_) => match integer_power(e) {
            Some((base, n)) if n < 0 => Ok(numeric_polynomial(&base, var, budget)?
                .is_some_and(|p| p.iter().any(|c| !c.is_zero()))
                || vanishes_at_finitely_many(&base, var, budget)?),
            Some((base, n)) if n > 0 => defined_but_at_finitely_many(evaluator, &base, var, budget),
            _ => Ok(false),
        },
        // (an entire function of such an argument: `exp(sin(x)/x)`)
        Expr::Call(h, xs) if h.entire() && xs.len() == 1 => {
            defined_but_at_finitely_many(evaluator, &xs[0], var, budget)
        }
        _ => Ok(false),
    }
}

/// Whether `e` is `h(u)` for a function `h` defined and continuous on the whole line
/// ([`Func::entire`]: `sin`, `exp`, `erf`, `abs`, ...) and a polynomial `u` in `var` with
/// exact coefficients and a degree of at least 1: so 0 at finitely many points of any bounded
/// interval (each function of that list but `abs` is analytic and not constant, so its zeros
/// are isolated, finitely many in the bounded range of `u` there; `abs` has the one zero 0;
/// and `u` takes each value at most its degree times). `1/sin(x)` lacks a value at those
/// points only: `sin(x)/sin(x)` across π.
fn vanishes_at_finitely_many(e: &Expr, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
    let Expr::Call(h, xs) = e else {
        return Ok(false);
    };
    let [u] = &xs[..] else {
        return Ok(false);
    };
    Ok(h.entire()
        && numeric_polynomial(u, var, budget)?
            .is_some_and(|p| p.iter().skip(1).any(|c| !c.is_zero())))
}

/// The most points inside an interval at which [`DefiniteIntegral::ends`] splits it.
const MOST_INNER_POINTS: usize = 4;

/// The bases of powers that are not natural numbers and the arguments of functions that are
/// not entire, in `e` (those that contain `var`).
fn gather_domain_parts(
    e: &Expr,
    var: &str,
    out: &mut Vec<Expr>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    budget.step()?;
    if !e.contains(var, budget)? {
        return Ok(());
    }
    match e {
        Expr::Pow(p) if !natural(&p.1) => out.push(p.0.clone()),
        Expr::Call(h, xs) if !h.entire() => out.extend(xs.iter().cloned()),
        _ => {}
    }
    for x in e.children() {
        gather_domain_parts(x, var, out, budget)?;
    }
    Ok(())
}

/// How often [`DefiniteIntegral::continuous`] may halve a piece of the interval (down to a
/// 4096th of it).
const CONTINUITY_DEPTH: u32 = 12;
/// How many halvings [`DefiniteIntegral::continuous`] may make in all (as many as 32 even
/// pieces take).
const CONTINUITY_SPLITS: u32 = 31;

/// The value at `c` of `e` when `e` is a polynomial in `var` with exact coefficients.
pub fn polynomial_value_at(
    e: &Expr,
    var: &str,
    c: &BigRational,
    budget: &mut Budget,
) -> Result<Option<BigRational>, TooLarge> {
    let Some(coefficients) = numeric_polynomial(e, var, budget)? else {
        return Ok(None);
    };
    Ok(Some(pf::value_at(&coefficients, c)))
}

/// A non-integrable pole inside the closed interval, proved: the integrand is
/// `g(x)·(ax + b)^(−n)` with n ≥ 1, the root `c = −b/a` lies within exact numeric bounds, and
/// a ball evaluation shows `|g| ≥ m > 0` on a neighbourhood of `c`. Then `|f| ≥ m/|a(x−c)|^n`
/// there, of constant sign on each side, and the integral does not exist. Or the integrand is
/// a sum with such a term and the other terms bounded on a neighbourhood of its `c` (a ball
/// of them exists there): `|f| ≥ m/|a(x−c)|^n − M`, and so too (`1/x − 1/(1 − x)` on
/// `[0, 1]`, whose two halves quadrature would cancel). A root of a polynomial base that is not
/// rational is shown by a sign change, isolated between two rationals `r1 < r2`: there
/// `|p(x)| ≤ M·|x − c|` with `M` a ball bound of `|p'|` over `[r1, r2]`, so `|f| ≥ m/(M|x − c|)^n`
/// with `|g| ≥ m` over it (`x/(x² − 2)` on `[−2, 2]`). Returns the pole.
pub fn divergent_pole(
    integral: &DefiniteIntegral,
    budget: &mut Budget,
) -> Result<Option<Pole>, TooLarge> {
    let (Some(lower), Some(upper)) = (exact_value(integral.lower), exact_value(integral.upper))
    else {
        return Ok(None);
    };
    if lower == upper {
        // An integral over a single point is 0, whatever the integrand does there.
        return Ok(None);
    }
    let bounds = if lower <= upper {
        (lower, upper)
    } else {
        (upper, lower)
    };
    let mut terms = Vec::new();
    spread_terms(integral.integrand, integral.var, &mut terms, budget)?;
    for (i, term) in terms.iter().enumerate() {
        let Some(pole) = product_pole(term, integral.var, &bounds, budget)? else {
            continue;
        };
        let mut rest = terms.clone();
        rest.remove(i);
        if bounded_near(integral.var, &pole.around, &rest, budget)? {
            return Ok(Some(pole));
        }
    }
    grouped_pole(&terms, integral.var, &bounds, budget)
}

/// The most bases [`grouped_pole`] tries.
const MOST_GROUPED_BASES: usize = 8;

/// A pole shared by several terms: those with a negative power of one base `h`,
/// `Σ gᵢ·h^(−mᵢ)`, written `h^(−n)·Σ gᵢ·h^(n − mᵢ)` with `n` the largest `mᵢ`, a term
/// [`product_pole`] can read (its cofactor is `g` of the highest order at the root, the
/// others vanishing there), beside the other terms bounded around the root
/// (`tan³x − 3·tan x + 3·tan x`, as the table writes `∫ 3·tan²x·(tan²x + 1)`, on `[1/2, 2]`).
fn grouped_pole(
    terms: &[Expr],
    var: &str,
    bounds: &(BigRational, BigRational),
    budget: &mut Budget,
) -> Result<Option<Pole>, TooLarge> {
    let factored = terms
        .iter()
        .map(|t| t.power_factors(budget))
        .collect::<Result<Vec<_>, _>>()?;
    let mut bases: Vec<&Expr> = Vec::new();
    for (h, k) in factored.iter().flatten() {
        if *k < 0 && h.contains(var, budget)? {
            let mut seen = false;
            for b in &bases {
                seen |= b.identical(h, budget)?;
            }
            if !seen && bases.len() < MOST_GROUPED_BASES {
                bases.push(h);
            }
        }
    }
    for h in bases {
        // Each term's power of h, and its other factors.
        let mut group = Vec::new();
        let mut rest = Vec::new();
        for (term, factors) in terms.iter().zip(&factored) {
            let (mut m, mut others) = (0i64, Vec::new());
            for (f, k) in factors {
                if f.identical(h, budget)? {
                    m += k;
                } else {
                    others.push(Expr::pow(f.clone(), Expr::int(*k)));
                }
            }
            if m < 0 {
                group.push((-m, others));
            } else {
                rest.push(term.clone());
            }
        }
        if group.len() < 2 {
            continue;
        }
        let n = group.iter().map(|(m, _)| *m).max().unwrap_or(1);
        let cofactor = Expr::add(
            group
                .into_iter()
                .map(|(m, mut others)| {
                    others.push(Expr::pow(h.clone(), Expr::int(n - m)));
                    Expr::mul(others)
                })
                .collect(),
        );
        let term = Expr::mul(vec![cofactor, Expr::pow(h.clone(), Expr::int(-n))]);
        if let Some(pole) = product_pole(&term, var, bounds, budget)?
            && bounded_near(var, &pole.around, &rest, budget)?
        {
            return Ok(Some(pole));
        }
    }
    Ok(None)
}

/// The terms of `e`, with factors free of `var` multiplied into a sum they stand beside:
/// `(1/x + 1) + 2` is three terms, `3·(1/x + 1)` two (`3/x` and `3`), so that a pole of one
/// is seen beside the others.
fn spread_terms(
    e: &Expr,
    var: &str,
    out: &mut Vec<Expr>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    budget.step()?;
    match e {
        Expr::Add(xs) => {
            for x in xs.iter() {
                spread_terms(x, var, out, budget)?;
            }
        }
        Expr::Mul(_) => {
            let mut xs = Vec::new();
            e.flat_factors(&mut xs);
            let sums: Vec<usize> = (0..xs.len())
                .filter(|&k| matches!(xs[k], Expr::Add(_)))
                .collect();
            let mut constant = true;
            for (k, x) in xs.iter().enumerate() {
                if sums.first() != Some(&k) && x.contains(var, budget)? {
                    constant = false;
                }
            }
            match sums.first() {
                Some(&k) if constant => {
                    let mut inner = Vec::new();
                    spread_terms(&xs[k], var, &mut inner, budget)?;
                    for t in inner {
                        let mut factors = xs.clone();
                        factors[k] = t;
                        out.push(Expr::mul(factors));
                    }
                }
                _ => out.push(e.clone()),
            }
        }
        _ => out.push(e.clone()),
    }
    Ok(())
}

/// Whether the sum of `terms` is shown bounded over `around` where it is defined: a ball of it,
/// or, term by term, of each factor but those that are bounded functions (`|atan| < π/2`:
/// `atan(tan x)` beside the pole of `tan x`).
fn bounded_near(
    var: &str,
    around: &(BigRational, BigRational),
    terms: &[Expr],
    budget: &mut Budget,
) -> Result<bool, TooLarge> {
    if terms.is_empty() || over_interval(var, around, &Expr::add(terms.to_vec()), budget).is_some()
    {
        return Ok(true);
    }
    for term in terms {
        budget.step()?;
        if over_interval(var, around, term, budget).is_some() {
            continue;
        }
        let mut factors = Vec::new();
        term.flat_factors(&mut factors);
        for factor in &factors {
            let bounded = matches!(factor, Expr::Call(f, _) if f.bounded())
                || over_interval(var, around, factor, budget).is_some();
            if !bounded {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Why an integral does not exist: a non-integrable pole of the integrand
/// ([`divergent_pole`]), or one of an exact antiderivative ([`unbounded_antiderivative`]).
#[derive(Debug)]
pub enum Divergence {
    /// The integrand's pole.
    Integrand(Pole),
    /// The antiderivative's pole.
    Antiderivative(Pole),
}

/// The first of [`divergent_pole`] and [`unbounded_antiderivative`] that proves the integral
/// does not exist; the integrand's pole is looked for again with `tan u` read as
/// `sin u·cos(u)^−1` where it has a tangent (`∫_0^2 tan x dx`, `∫_0^2 2(tan²x + 1) tan x dx`,
/// whose poles at π/2 are those of a negative power of `cos x`; alkahest: `ok` for the second,
/// from the antiderivative's values at the ends).
pub fn divergence(
    integral: &DefiniteIntegral,
    budget: &mut Budget,
) -> Result<Option<Divergence>, TooLarge> {
    if let Some(pole) = divergent_pole(integral, budget)? {
        return Ok(Some(Divergence::Integrand(pole)));
    }
    if has_tangent(integral.integrand, integral.var, budget)? {
        let written = tangents_as_quotients(integral.integrand, budget)?;
        let as_quotients =
            DefiniteIntegral::new(&written, integral.var, integral.lower, integral.upper);
        if let Some(pole) = divergent_pole(&as_quotients, budget)? {
            return Ok(Some(Divergence::Integrand(pole)));
        }
        // Multiplied out by the exact test (`(2 tan²x + 2)·tan x` is
        // `(2 sin³x + 2 sin x cos²x)·cos(x)^−3`), which equals the integrand wherever the
        // integrand is defined: for one built from functions defined on the whole line, powers
        // of integers and tangents, that is everywhere but at isolated poles, so a pole the
        // form shows non-integrable is the integrand's.
        if defined_but_at_poles(&written, budget)? {
            let expanded = canon::reduced_expression_in(&written, Some(integral.var), budget);
            if let Ok(Some(expanded)) = expanded {
                let as_expanded =
                    DefiniteIntegral::new(&expanded, integral.var, integral.lower, integral.upper);
                if let Some(pole) = divergent_pole(&as_expanded, budget)? {
                    return Ok(Some(Divergence::Integrand(pole)));
                }
            }
        }
    }
    // (on half the budget left: what it cannot afford it does not prove)
    let unbounded = budget.share(budget.left() / 2, |budget| {
        unbounded_antiderivative(integral, budget)
    });
    Ok(unbounded.unwrap_or(None).map(Divergence::Antiderivative))
}

/// A stretch `[from, to]` of the interval, of positive length, where the integrand has no
/// real value: the argument of `why` lies outside its domain at every point of it.
#[derive(Debug)]
pub struct NoRealValue {
    /// Where the stretch starts.
    pub from: BigRational,
    /// Where it ends.
    pub to: BigRational,
    /// Which operation has no real value there, in words (`"log of a negative number"`).
    pub why: String,
}

/// How many equal pieces [`no_real_value`] cuts the interval into.
const NO_VALUE_PIECES: i64 = 16;

/// A piece of the interval (of sixteen equal ones) where the integrand has no real
/// value: a call or fractional power in it whose argument, a ball over the whole piece shows,
/// lies outside the function's domain there (`atanh` of an argument above 1, `log` or `√` of
/// a negative one, ...). The integrand has a real value nowhere on that piece (an operation
/// without one leaves the whole expression without one, as the numeric rule evaluates it),
/// so its integral over the interval is no real number. That decides nothing: a complex
/// integral may still equal the value (`∫_{−1}^1 sqrt(x)^2 dx = 0`, or alkahest's `ok` from
/// an antiderivative's values at the ends, `∫_{−2}^{−1} asin(x) dx`), and this build does not
/// integrate complex values; it says why a claim stays undecided. Needs exact numeric bounds;
/// a point or an isolated boundary is never such a piece (the balls must lie strictly outside
/// the domain).
pub fn no_real_value(
    integral: &DefiniteIntegral,
    budget: &mut Budget,
) -> Result<Option<NoRealValue>, TooLarge> {
    let (Some(a), Some(b)) = (exact_value(integral.lower), exact_value(integral.upper)) else {
        return Ok(None);
    };
    if a == b {
        return Ok(None);
    }
    let mut limited = Vec::new();
    domain_limited(integral.integrand, &mut limited, budget)?;
    if limited.is_empty() {
        return Ok(None);
    }
    let step = (&b - &a) / BigInt::from(NO_VALUE_PIECES);
    for k in 0..NO_VALUE_PIECES {
        let from = &a + &step * BigInt::from(k);
        let to = &from + &step;
        for (argument, limit) in &limited {
            budget.step()?;
            let Some(ball) = super::ball::over_interval(integral.var, &from, &to, argument, budget)
            else {
                continue;
            };
            if limit.domain.excludes(&ball) {
                let (from, to) = if from <= to { (from, to) } else { (to, from) };
                return Ok(Some(NoRealValue {
                    from,
                    to,
                    why: limit.words(),
                }));
            }
        }
    }
    Ok(None)
}

/// An operation whose argument has a real value only on part of the line, as
/// [`no_real_value`] tests it: a call of `what`, or a fractional power, with a domain that
/// leaves a stretch out ([`RealDomain::stretch_left_out`]).
#[derive(Debug, Clone, Copy)]
struct DomainLimit {
    what: &'static str,
    domain: RealDomain,
}

impl DomainLimit {
    /// `"log of a negative number"`.
    fn words(self) -> String {
        let stretch = self
            .domain
            .stretch_left_out()
            .expect("only domains that leave a stretch out are collected");
        format!("{} {stretch}", self.what)
    }
}

/// The arguments of the calls and fractional powers in `e` that have a real value only on
/// part of the line, each with its domain ([`no_real_value`]); a constant one among them
/// (`asin(2)`) leaves the integrand no real value anywhere.
fn domain_limited<'e>(
    e: &'e Expr,
    out: &mut Vec<(&'e Expr, DomainLimit)>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    budget.step()?;
    let limited = match e {
        Expr::Call(f, xs) if xs.len() == 1 => {
            let domain = RealDomain::of(*f);
            domain.stretch_left_out().is_some().then(|| {
                let what = f.name();
                (&xs[0], DomainLimit { what, domain })
            })
        }
        Expr::Pow(p) if exact_value(&p.1).is_some_and(|n| !n.is_integer()) => Some((
            &p.0,
            DomainLimit {
                what: "a fractional power",
                domain: RealDomain::NonNegative,
            },
        )),
        _ => None,
    };
    out.extend(limited);
    for x in e.children() {
        domain_limited(x, out, budget)?;
    }
    Ok(())
}

/// A pole of an exact antiderivative inside the interval, proved as [`divergent_pole`] proves
/// one of an integrand, with `tan(u)` read as `sin(u)·cos(u)^−1` (and so `cot(u)`, which is
/// `tan(u)^−1`): `F = k·g·h^−n + R` with `R` bounded and `|g| ≥ m` near a root `c` of `h`, so
/// `F` is unbounded as `x → c`. Were the integrand integrable over the interval,
/// `∫_s^t f = F(t) − F(s)` for `s < t < c` near `c` (the roots of `h` are isolated, and `F`
/// differentiable between them) would stay bounded: the integral does not exist
/// (`∫_1^2 (tan(x)^2 + 1) dx = tan 2 − tan 1`, `∫_{1/2}^2 3x²(tan(x³)^2 + 1) dx`; alkahest:
/// `ok`, from the antiderivative's values at the ends). Needs exact numeric bounds.
pub fn unbounded_antiderivative(
    integral: &DefiniteIntegral,
    budget: &mut Budget,
) -> Result<Option<Pole>, TooLarge> {
    if exact_value(integral.lower).is_none()
        || exact_value(integral.upper).is_none()
        || !transcendental_pole_source(integral.integrand, integral.var, budget)?
    {
        return Ok(None);
    }
    integral.each_exact(budget, &mut |f, budget| {
        let written = tangents_as_quotients(f, budget)?;
        let as_integrand =
            DefiniteIntegral::new(&written, integral.var, integral.lower, integral.upper);
        divergent_pole(&as_integrand, budget)
    })
}

/// Whether `e` has what an antiderivative with a pole no rational names comes from: a
/// tangent (`tan u`, and `cot u`, its reciprocal), or a negative power of a base in `var` that
/// is no polynomial (`sec u`, `1/(1 + cos x)`). Without one, [`unbounded_antiderivative`] does
/// not look (the antiderivatives of polynomials and their reciprocals are the integrand proof's,
/// and finding them again at every sample point was the most of a second a hostile recipe
/// costs).
fn transcendental_pole_source(e: &Expr, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
    budget.step()?;
    Ok(match e {
        Expr::Call(Func::Tan, xs) => xs[0].contains(var, budget)?,
        Expr::Pow(p)
            if exact_value(&p.1).is_some_and(|n| n.is_negative())
                && p.0.contains(var, budget)?
                && numeric_polynomial(&p.0, var, budget)?.is_none() =>
        {
            true
        }
        _ => {
            for x in e.children() {
                if transcendental_pole_source(x, var, budget)? {
                    return Ok(true);
                }
            }
            false
        }
    })
}

/// Whether `e` has a real value everywhere but at isolated points: built from numbers,
/// symbols, sums, products, integer powers (whose negative ones have poles at the isolated
/// roots of their bases, none of which is identically 0 in a recipe that has a value) and
/// functions defined on the whole line.
fn defined_but_at_poles(e: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
    budget.step()?;
    let here = match e {
        Expr::Call(f, _) => f.entire(),
        Expr::Pow(p) => exact_value(&p.1).is_some_and(|n| n.is_integer()),
        _ => true,
    };
    if !here {
        return Ok(false);
    }
    for x in e.children() {
        if !defined_but_at_poles(x, budget)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `e` has a tangent of an argument in `var`.
fn has_tangent(e: &Expr, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
    let mut found = false;
    each_call(e, budget, &mut |call, budget| {
        if let Expr::Call(Func::Tan, xs) = call
            && !found
        {
            found = xs[0].contains(var, budget)?;
        }
        Ok(())
    })?;
    Ok(found)
}

/// `e` with every `tan(u)` written `sin(u)·cos(u)^−1`, so that its poles are those of a
/// negative power ([`unbounded_antiderivative`]).
fn tangents_as_quotients(e: &Expr, budget: &mut Budget) -> Result<Expr, TooLarge> {
    budget.step()?;
    let each = |xs: &[Expr], budget: &mut Budget| {
        xs.iter()
            .map(|x| tangents_as_quotients(x, budget))
            .collect::<Result<Vec<_>, _>>()
    };
    Ok(match e {
        Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) | Expr::Sym(_) => e.clone(),
        Expr::Add(xs) => Expr::add(each(xs, budget)?),
        Expr::Mul(xs) => Expr::mul(each(xs, budget)?),
        Expr::Pow(p) => Expr::pow(
            tangents_as_quotients(&p.0, budget)?,
            tangents_as_quotients(&p.1, budget)?,
        ),
        Expr::Call(Func::Tan, xs) => {
            let u = tangents_as_quotients(&xs[0], budget)?;
            Expr::mul(vec![
                Expr::call(Func::Sin, u.clone()),
                Expr::recip(Expr::call(Func::Cos, u)),
            ])
        }
        Expr::Call(f, xs) => Expr::Call(*f, each(xs, budget)?.into()),
    })
}

/// A non-integrable pole ([`divergent_pole`]).
#[derive(Debug)]
pub struct Pole {
    /// Where: the root, or the midpoint of the interval isolating it.
    pub at: BigRational,
    /// Its order, or a lower bound of it.
    pub order: i64,
    /// Whether `order` is the order itself (not a lower bound).
    pub order_known: bool,
    /// Whether `at` is the root itself.
    pub exact: bool,
    /// An interval around the root over which the bounds were shown.
    around: (BigRational, BigRational),
}

/// A pole of order `n ≥ 1` at `c` within `bounds` of the product `term` = `g(x)·(ax + b)^(−n)`
/// with `|g|` bounded away from 0 near `c` ([`divergent_pole`]).
fn product_pole(
    term: &Expr,
    var: &str,
    (lo, hi): &(BigRational, BigRational),
    budget: &mut Budget,
) -> Result<Option<Pole>, TooLarge> {
    // (x·(x − 1))^(−1) is x^(−1)·(x − 1)^(−1); the last factors first, so that of two poles
    // the one named is the last written (`(2x − 1)/(x·(x − 1))`: x = 1)
    let factors: Vec<Expr> = term
        .power_factors(budget)?
        .into_iter()
        .rev()
        .map(|(e, k)| {
            if k == 1 {
                e
            } else {
                Expr::pow(e, Expr::int(k))
            }
        })
        .collect();
    for (i, factor) in factors.iter().enumerate() {
        let Some((base, n)) = integer_power(factor) else {
            continue;
        };
        if n > -1 {
            continue;
        }
        // The roots of the base in the interval: of a linear one, or the rational roots of a
        // polynomial (x² − 1 at ±1), each with the rest of the base as part of g.
        let roots = match (
            linear(&base, var, budget)?,
            numeric_polynomial(&base, var, budget)?,
        ) {
            (Some((a, b)), _) => vec![(-b / &a, 1, Expr::int(1))],
            (None, Some(p)) => {
                let (roots, _) = pf::rational_roots(&p, &[lo, hi], budget)?;
                roots
                    .into_iter()
                    .map(|(c, m)| {
                        let mut q = p.clone();
                        for _ in 0..m {
                            q = pf::divide(&q, &[-c.clone(), BigRational::one()]).0;
                        }
                        (
                            c,
                            m as i64,
                            Expr::pow(pf::expression(&q, var), Expr::int(n)),
                        )
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        for (c, m, cofactor) in roots {
            if &c < lo || &c > hi {
                continue;
            }
            let mut rest = factors.clone();
            rest.remove(i);
            rest.push(cofactor);
            let around = neighbourhood(&c);
            if over_interval(var, &around, &Expr::mul(rest), budget)
                .is_some_and(|b| away_from_zero(&b))
            {
                return Ok(Some(Pole {
                    at: c,
                    order: -n * m,
                    order_known: true,
                    exact: true,
                    around,
                }));
            }
        }
        // Any other base h that the exact test shows 0 at an end, or where a linear argument
        // of one of its functions vanishes (sin(x) at 0, sin(1 − x) at 1) or that of a
        // logarithm is 1 (log(x) at 1), with balls of h and h' around it: |h(x)| ≤ M·|x − c|
        // by the mean value theorem.
        if numeric_polynomial(&base, var, budget)?.is_none() {
            let Ok(slope) = derivative(&base, var, budget) else {
                continue;
            };
            let mut rest = factors.clone();
            rest.remove(i);
            let root = RootOfBase {
                base: &base,
                n,
                slope,
                cofactor: Expr::mul(rest),
                var,
                lo,
                hi,
            };
            if let Some(pole) = root.named(budget)? {
                return Ok(Some(pole));
            }
            // (a scan of balls, on a quarter of the budget: what it cannot afford it does not
            // prove)
            let scanned = budget.share(budget.left() / 4, |budget| root.by_sign_change(budget));
            if let Ok(Some(pole)) = scanned {
                return Ok(Some(pole));
            }
            continue;
        }
        // A root that is not rational, where the polynomial changes sign.
        let Some(p) = numeric_polynomial(&base, var, budget)? else {
            continue;
        };
        let slope = pf::expression(&pf::derivative(&p), var);
        let mut rest = factors.clone();
        rest.remove(i);
        let g = Expr::mul(rest);
        for around in sign_changes(&p, lo, hi, budget)? {
            let steep = over_interval(var, &around, &slope, budget);
            if steep.is_some_and(|b| b.upper().abs().max(b.lower().abs()).is_finite())
                && over_interval(var, &around, &g, budget).is_some_and(|b| away_from_zero(&b))
            {
                let at = (&around.0 + &around.1) / BigRational::from_integer(2.into());
                return Ok(Some(Pole {
                    at,
                    order: -n,
                    order_known: false,
                    exact: false,
                    around,
                }));
            }
        }
    }
    Ok(None)
}

/// A factor `base^n` of a term (`n ≤ −1`, `base` no polynomial), the product of the term's
/// other factors, and the interval, for the two ways a root of `base` is shown
/// ([`product_pole`]).
struct RootOfBase<'a> {
    base: &'a Expr,
    n: i64,
    /// `base'`.
    slope: Expr,
    /// The term's other factors, multiplied.
    cofactor: Expr,
    var: &'a str,
    lo: &'a BigRational,
    hi: &'a BigRational,
}

impl RootOfBase<'_> {
    /// A pole at a rational `c` in `[lo, hi]` where `base` is exactly 0: an end, or where a
    /// linear argument of one of its functions vanishes (or that of a logarithm is 1).
    fn named(&self, budget: &mut Budget) -> Result<Option<Pole>, TooLarge> {
        let RootOfBase {
            base,
            n,
            ref slope,
            cofactor: ref g,
            var,
            lo,
            hi,
        } = *self;
        let mut candidates = vec![lo.clone(), hi.clone()];
        // (the arguments of its one-argument functions, at most 16: where one vanishes, and
        // where that of a logarithm is 1, `log(x)` at 1)
        let mut calls = Vec::new();
        each_call(base, budget, &mut |call, _| {
            if let Expr::Call(f, xs) = call
                && xs.len() == 1
                && calls.len() < 16
            {
                calls.push((*f, xs[0].clone()));
            }
            Ok(())
        })?;
        for (f, u) in calls {
            if let Some((a, b)) = linear(&u, var, budget)?
                && !a.is_zero()
            {
                if f == Func::Log {
                    candidates.push((BigRational::one() - &b) / &a);
                }
                candidates.push(-b / a);
            }
        }
        for c in candidates {
            if &c < lo || &c > hi {
                continue;
            }
            let at_c = base.substitute(var, &number(&c), budget)?;
            if canon::constant_value_in(&at_c, Some(var), budget) != Ok(Some(BigRational::zero())) {
                continue;
            }
            let around = neighbourhood(&c);
            if over_interval(var, &around, base, budget).is_some()
                && over_interval(var, &around, slope, budget).is_some()
                && over_interval(var, &around, g, budget).is_some_and(|b| away_from_zero(&b))
            {
                return Ok(Some(Pole {
                    at: c,
                    order: -n,
                    order_known: false,
                    exact: true,
                    around,
                }));
            }
        }
        Ok(None)
    }

    /// A pole at a root of `base` inside `(lo, hi)` shown by a change of sign: balls of `base`
    /// of opposite signs at the ends of a piece of a grid of 64, the piece halved (at most 40
    /// times) until a ball of `base'` over it excludes 0, so that `base` is strictly monotone
    /// there and its root `c` the only one, and a ball of the other factors over it is away
    /// from 0. Then `|base(x)| ≤ M·|x − c|` on the piece (the mean value theorem, `M` the
    /// ball's bound of `|base'|`) and `|term| ≥ m/(M·|x − c|)^(−n)`: `1/cos(x)` on `[1, 2]`,
    /// whose root π/2 no rational names.
    fn by_sign_change(&self, budget: &mut Budget) -> Result<Option<Pole>, TooLarge> {
        const PIECES: i64 = 64;
        let (base, var, slope, g) = (self.base, self.var, &self.slope, &self.cofactor);
        let (lo, hi) = (self.lo, self.hi);
        let at = |k: i64| lo + (hi - lo) * BigRational::new(k.into(), PIECES.into());
        let sign = |x: &BigRational, budget: &mut Budget| {
            budget.step()?;
            Ok::<_, TooLarge>(
                over_interval(var, &(x.clone(), x.clone()), base, budget).map_or(0, |b| b.sign()),
            )
        };
        let mut previous = (at(0), sign(&at(0), budget)?);
        for k in 1..=PIECES {
            let (x, sx) = (at(k), sign(&at(k), budget)?);
            let (a, sa) = std::mem::replace(&mut previous, (x.clone(), sx));
            if sa == 0 || sx == 0 || sa == sx {
                continue;
            }
            let (mut a, mut b) = (a, x);
            for _ in 0..40 {
                let around = (a.clone(), b.clone());
                if over_interval(var, &around, slope, budget).is_some_and(|d| d.sign() != 0)
                    && over_interval(var, &around, base, budget).is_some()
                    && over_interval(var, &around, g, budget).is_some_and(|b| away_from_zero(&b))
                {
                    // (the root placed more closely for the detail: 30 halvings more, while
                    // a ball tells the sign)
                    let (mut a, mut b) = (a, b);
                    for _ in 0..30 {
                        let m = (&a + &b) / BigRational::from_integer(2.into());
                        match sign(&m, budget)? {
                            0 => break,
                            s if s == sa => a = m,
                            _ => b = m,
                        }
                    }
                    let at = (a + b) / BigRational::from_integer(2.into());
                    return Ok(Some(Pole {
                        at,
                        order: -self.n,
                        order_known: false,
                        exact: false,
                        around,
                    }));
                }
                let m = (&a + &b) / BigRational::from_integer(2.into());
                match sign(&m, budget)? {
                    0 => break,
                    s if s == sa => a = m,
                    _ => b = m,
                }
            }
        }
        Ok(None)
    }
}

/// Whether the ball shows its value bounded away from 0.
fn away_from_zero(b: &Ball<BigFloat>) -> bool {
    b.lower() > 0.0 || b.upper() < 0.0
}

/// `c ± 10^-6·(1 + |c|)`, as exact rationals.
fn neighbourhood(c: &BigRational) -> (BigRational, BigRational) {
    let delta = (BigRational::one() + c.abs()) / BigRational::from_integer(1_000_000.into());
    (c - &delta, c + &delta)
}

/// Intervals `[r1, r2]` inside `(lo, hi)` of width below 10^-9·(hi − lo) at whose ends `p`
/// has opposite signs (each holds a root), found on a grid of 64 pieces and bisected exactly.
fn sign_changes(
    p: &[BigRational],
    lo: &BigRational,
    hi: &BigRational,
    budget: &mut Budget,
) -> Result<Vec<(BigRational, BigRational)>, TooLarge> {
    const PIECES: i64 = 64;
    if p.len() < 3 || p.len() > MAX_DEGREE + 1 {
        return Ok(Vec::new());
    }
    let at = |k: i64| lo + (hi - lo) * BigRational::new(k.into(), PIECES.into());
    let sign = |x: &BigRational| pf::value_at(p, x).signum();
    let mut found = Vec::new();
    for k in 0..PIECES {
        budget.step()?;
        let (mut a, mut b) = (at(k), at(k + 1));
        let (sa, sb) = (sign(&a), sign(&b));
        if sa.is_zero() || sb.is_zero() || sa == sb {
            continue;
        }
        // (30 halvings: 64·2^30 pieces)
        for _ in 0..30 {
            budget.step()?;
            let m = (&a + &b) / BigRational::from_integer(2.into());
            let sm = sign(&m);
            if sm.is_zero() {
                break;
            }
            if sm == sa {
                a = m;
            } else {
                b = m;
            }
        }
        // (a rational root met on the way is the other rule's)
        if !sign(&a).is_zero() && !sign(&b).is_zero() {
            found.push((a, b));
        }
    }
    Ok(found)
}

/// A ball of `e` with `var` over the exact interval `around` ([`super::ball::over_interval`]).
fn over_interval(
    var: &str,
    around: &(BigRational, BigRational),
    e: &Expr,
    budget: &mut Budget,
) -> Option<Ball<BigFloat>> {
    super::ball::over_interval(var, &around.0, &around.1, e, budget)
}

/// `(u, n)` for `u^n` or `(u^m)^k` with integer `n = m·k`.
pub(super) fn integer_power(e: &Expr) -> Option<(Expr, i64)> {
    let Expr::Pow(p) = e else {
        return None;
    };
    let n = exact_value(&p.1)
        .filter(BigRational::is_integer)?
        .to_integer()
        .to_i64()?;
    match integer_power(&p.0) {
        Some((u, m)) => Some((u, m.checked_mul(n)?)),
        None => Some((p.0.clone(), n)),
    }
}

/// Whether the symbol `s` is a parameter: not `var`, `pi` or `e`.
pub(super) fn is_parameter(s: &str, var: &str) -> bool {
    s != var && constant(s).is_none()
}

/// Whether `e` has a symbol besides `var`, `pi` and `e`: a parameter, which has no ball.
pub(super) fn has_parameters(e: &Expr, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
    budget.step()?;
    if let Expr::Sym(s) = e {
        return Ok(is_parameter(s, var));
    }
    for x in e.children() {
        if has_parameters(x, var, budget)? {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    #[test]
    fn coefficients_of_powers_of_sums_are_numbers_not_trees() {
        // `x − 1` parses as `x + (−1)·1`: unfolded, the coefficients of its 22nd power were
        // trees of millions of leaves (an integrand with `(x − 1)^22` took minutes)
        let e = parse("(x-1)^22 + x + 1", &mut Default::default()).unwrap();
        let p = polynomial(&e, "x", &mut Budget::standard())
            .unwrap()
            .unwrap();
        assert_eq!(p.len(), 23);
        for c in &p {
            assert!(matches!(c, Expr::Int(_) | Expr::Rat(_)), "{c:?}");
        }
        assert_eq!(
            exact_value(&p[11]),
            Some(BigRational::from_integer((-705432).into()))
        );
    }

    #[test]
    fn numeric_coefficients_are_the_polynomials_exact_ones() {
        // polynomial_in(&Numbers) is polynomial() computed on numbers: the same coefficients
        // (lengths included) where each is exact, and a refusal where one is not
        let through_trees = |e: &Expr| {
            polynomial(e, "x", &mut Budget::standard())
                .unwrap()
                .and_then(|p| p.iter().map(exact_value).collect::<Option<Vec<_>>>())
        };
        for s in [
            "(x-1)^22 + x + 1",
            "3*x^2 + 2*x",
            "x - x",
            "(x + 1/2)^3*(2 - x)",
            "x^2 + 2^10",
            "(x + y)^0*x",
            "(x + sqrt(2))^0 + x",
            "x*y",
            "x + sqrt(2)",
            "(x + y) - y",
            "x^(1/2)",
            "sin(x)",
            "x^40",
            "(x^20 + 1)*(x^20 - 1)",
        ] {
            let e = parse(s, &mut Default::default()).unwrap();
            let fast = numeric_polynomial(&e, "x", &mut Budget::standard()).unwrap();
            assert_eq!(fast, through_trees(&e), "{s}");
        }
    }

    fn antiderivative(f: &str, a: &str, b: &str) -> Option<String> {
        let p = |s: &str| parse(s, &mut Default::default()).unwrap();
        let (f, a, b) = (p(f), p(a), p(b));
        let d = DefiniteIntegral::new(&f, "x", &a, &b);
        d.antiderivative(&mut Budget::standard())
            .unwrap()
            .map(|f| f.to_string())
    }

    #[test]
    fn polynomial_coefficients_are_numbers() {
        let f = parse("3*(x+1)^6 - 2*x", &mut Default::default()).unwrap();
        let p = polynomial(&f, "x", &mut Budget::standard())
            .unwrap()
            .unwrap();
        let texts: Vec<String> = p.iter().map(ToString::to_string).collect();
        assert_eq!(texts, ["3", "16", "45", "60", "45", "18", "3"]);
        // The antiderivative has one term per nonzero coefficient.
        let f = parse("3*x^2 + 2*x", &mut Default::default()).unwrap();
        let candidates = candidates(&f, "x", &mut Budget::standard()).unwrap();
        assert_eq!(candidates.len(), 1);
        let Expr::Add(terms) = &candidates[0] else {
            panic!("{}", candidates[0]);
        };
        assert_eq!(terms.len(), 2, "{}", candidates[0]);
    }

    #[test]
    fn the_table_and_its_verification() {
        for f in [
            "3*x^2 + a*x",
            "x*(x+1)^3",
            "exp(2*x)*x",
            "x*exp(x)",
            "cos(x)^2",
            "sin(3*x)^2",
            "sin(x)*cos(x)",
            "cos(2*x)*cos(x)",
            "x^2*sin(x)",
            "log(x+1)",
            "atan(x)",
            "1/(x^2+1)",
            "1/(2*x^2+3)",
            "(2*x+1)^(-1/2)",
            "1/(x+2)",
            "tan(x)",
            "cosh(x)*x",
            "1 + tan(x/2)^2",
            "1 - tanh(x)^2",
            "tan(x)^2",
            "tanh(3*x+1)^2",
            "sec(x)^2",
            "1/cos(x/2)^2",
            "sech(x)^2",
            // the chain rule read backwards
            "2*x*exp(x^2)",
            "(1 + tan(x)^2)*cos(tan(x))",
            "cos(x)*exp(sin(x))",
            "3*x^2*cosh(x^3+1)",
            "x*sin(x^2)/2",
            "2*x + x*cos(x^2)",
            "tan(x)^2*sinh(tan(x)) + sinh(tan(x))",
        ] {
            assert!(antiderivative(f, "0", "1").is_some(), "{f}");
        }
        assert!(antiderivative("sqrt(x)", "1", "4").is_some());
        // A domain boundary at an exact bound: a monotone root there is the hull of its values
        // at the ends (sqrt at 0, √tan at 0, where a ball of tan reaches below 0); past it,
        // nothing is continuous.
        assert!(antiderivative("sqrt(x)", "0", "1").is_some());
        assert!(antiderivative("sqrt(tan(x))", "0", "1").is_some());
        assert!(antiderivative("sqrt(tan(2*x+1))", "-1/2", "0").is_some());
        assert!(antiderivative("sqrt(x)", "-1/1000", "1").is_none());
        assert!(antiderivative("sqrt(tan(x))", "-1/1000", "1").is_none());
        // (tan 4 > 0, but the pole at π/2 lies between)
        assert!(antiderivative("sqrt(tan(x))", "0", "4").is_none());
    }

    #[test]
    fn a_pole_or_a_jump_in_the_interval_rules_the_antiderivative_out() {
        assert_eq!(antiderivative("1/x^2", "-1", "1"), None);
        assert_eq!(antiderivative("1/x^3", "-1", "1"), None);
        assert_eq!(antiderivative("1/(x-1)^2", "0", "2"), None);
        assert_eq!(antiderivative("1/x^2", "-2", "1"), None);
        assert_eq!(antiderivative("1/x", "-1", "1"), None);
        assert_eq!(
            antiderivative("tan(x)", "0", "2"),
            None,
            "cos crosses 0 at pi/2"
        );
        assert_eq!(antiderivative("1 + tan(x)^2", "0", "2"), None, "tan's pole");
        assert_eq!(antiderivative("sec(x)^2", "1", "2"), None, "sec's pole");
        assert_eq!(
            antiderivative("(1 + tan(x)^2)*cos(tan(x))", "0", "4"),
            None,
            "tan's pole inside the substitution"
        );
        // (not c·h(u)·u' for a constant c: no candidate)
        assert_eq!(antiderivative("x^2*exp(x^2)", "0", "1"), None);
        assert_eq!(
            antiderivative("log(x)", "0", "1"),
            None,
            "log is undefined at 0"
        );
        // Away from the pole the same integrands are fine, with log(-x) where x < 0.
        assert!(antiderivative("1/x^2", "1", "2").is_some());
        assert!(antiderivative("1/x", "-2", "-1").is_some());
    }

    #[test]
    fn non_integrable_poles_are_proved() {
        let pole = |f: &str, a: &str, b: &str| {
            let p = |s: &str| parse(s, &mut Default::default()).unwrap();
            let (f, a, b) = (p(f), p(a), p(b));
            let d = DefiniteIntegral::new(&f, "x", &a, &b);
            divergent_pole(&d, &mut Budget::standard())
                .unwrap()
                .map(|p| format!("{} {}", p.at, p.order))
        };
        assert_eq!(pole("1/x^2", "-1", "1"), Some("0 2".into()));
        assert_eq!(pole("1/x^3", "-1", "1"), Some("0 3".into()));
        assert_eq!(pole("1/(x-1)^2", "0", "2"), Some("1 2".into()));
        assert_eq!(pole("1/x^2", "-2", "1"), Some("0 2".into()));
        assert_eq!(
            pole("exp(x)/x", "0", "1"),
            Some("0 1".into()),
            "a pole at a bound"
        );
        assert_eq!(pole("1/x^2", "1", "2"), None, "outside");
        assert_eq!(
            pole("1/x^2", "0", "0"),
            None,
            "an integral over one point is 0"
        );
        assert_eq!(
            pole("x/x", "-1", "1"),
            None,
            "g vanishes at the pole: nothing proved"
        );
        assert_eq!(pole("1/(x-a)", "0", "1"), None, "a parameter");
    }

    #[test]
    fn parameters_need_an_entire_antiderivative() {
        assert!(
            antiderivative("1/(x+a)", "0", "1").is_none(),
            "a sample value of a proves nothing"
        );
        assert!(antiderivative("a*x^2", "0", "b").is_some());
        // a line's slope free of x: over it, continuous wherever it is defined
        assert!(antiderivative("sin(a*x)", "0", "1").is_some());
    }
}
