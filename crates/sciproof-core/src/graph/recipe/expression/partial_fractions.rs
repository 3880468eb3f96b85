//! Antiderivatives of rational functions with exact rational coefficients, by partial fractions
//! over the rationals.
//!
//! `N/D` is divided (`N = S·D + R`), `D` is factored into `(x − r)^m` for its rational roots
//! (the rational root theorem, over the divisors of its integer form's end coefficients) and
//! powers of quadratics `q` without real roots and with rational coefficients (square-free
//! parts by Yun's algorithm, each part's roots in f64 paired with their conjugates, every
//! quadratic rounded to the rationals it must have and divided out exactly), and `R/D` is
//! written as `Σ A/(x − r)^k + Σ (Bx + C)/q^j` by solving the linear system of its
//! coefficients. Then `∫ A/(x − r) = A·log(±(x − r))`, `∫ A/(x − r)^k = A·(x − r)^(1−k)/(1 − k)`
//! and `∫ (Bx + C)/(x² + βx + γ) = (B/2)·log(x² + βx + γ) + (2C − Bβ)/√Δ·atan((2x + β)/√Δ)`
//! with `Δ = 4γ − β² > 0` (higher powers of such a quadratic by the reduction formula). A
//! quadratic factor with two irrational real roots (`x² − 2`, not a power of one) gives
//! `(B/2)·log|q| + (C − Bβ/2)/√Δ'·log|(2x + β − √Δ')/(2x + β + √Δ')|`, `Δ' = β² − 4γ`. A
//! square-free factor `P` that is no product of these (`x⁴ + 1`, irreducible over the
//! rationals) is given one unknown only, a term `c·P'/P` that integrates to `c·log|P|`; the
//! system then has more equations than unknowns and a solution is kept only when all hold
//! (`1/(x(x⁴ + 1))`, not `1/(x⁴ + 1)`). A repeated such factor gives nothing.
//!
//! Written here rather than taken from a computer-algebra crate: the coefficients must stay
//! exact `BigRational`s and the result an [`Expr`] of the re-checker's own grammar, and the
//! caller never trusts it as proposed (the exact test differentiates it first).

use super::expr::{Budget, Expr, Func, TooLarge};
use super::integrate::number;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A polynomial: coefficients from the constant term up, without trailing zeros (the zero
/// polynomial is empty).
pub type Poly = Vec<BigRational>;

/// The highest degree of a denominator factored here.
const MAX_DEGREE: usize = 16;
/// The most coefficients of a numerator: it is only divided by the denominator (about its
/// length times the denominator's degree in steps), so it may be as long as the longest
/// polynomial integrand ([`super::integrate::MOST_INTEGRAND_DEGREE`]: `x^65/(x + 1)`).
const MOST_NUMERATOR_TERMS: usize = super::integrate::MOST_INTEGRAND_DEGREE + 1;
/// The largest end coefficient (of the denominator's integer form) whose divisors are tried as
/// rational roots.
const MAX_END_COEFFICIENT: u64 = 1_000_000;

/// `p` without its zero leading coefficients (the zero polynomial is empty).
pub fn trimmed(mut p: Poly) -> Poly {
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
    p
}

/// `a + b`.
pub fn add(a: &[BigRational], b: &[BigRational]) -> Poly {
    let mut out = vec![BigRational::zero(); a.len().max(b.len())];
    for (i, c) in a.iter().enumerate() {
        out[i] += c;
    }
    for (i, c) in b.iter().enumerate() {
        out[i] += c;
    }
    trimmed(out)
}

/// The budget steps [`mul`] of `a` and `b` costs: for each product of coefficients, a step
/// and more for their size, `w + w²/16` for `w` 64-bit words of the largest of each. Exact
/// arithmetic on large numbers costs with their size (the products with `w`, the reductions'
/// gcds with `w²`): counting each product as one step let `(x + 1)^199·(x + 11)^199·(x + 1)`
/// as an integrand, whose coefficients reach 711 bits, take 4.4 s where its budget allows
/// about one (0.34 s now).
pub fn mul_steps(a: &[BigRational], b: &[BigRational]) -> u64 {
    let bits = |p: &[BigRational]| {
        p.iter()
            .map(|c| c.numer().bits() + c.denom().bits())
            .max()
            .unwrap_or(0)
    };
    // (w 64-bit words: the products grow with w, the reductions' gcds with w²)
    let w = (bits(a) + bits(b)) / 64;
    (a.len() as u64)
        .saturating_mul(b.len() as u64)
        .saturating_mul(1 + w + w * w / 16)
}

/// `a·b`.
pub fn mul(a: &[BigRational], b: &[BigRational]) -> Poly {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![BigRational::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    trimmed(out)
}

/// `(q, r)` with `a = q·b + r` and `deg r < deg b`, for `b ≠ 0`.
pub fn divide(a: &[BigRational], b: &[BigRational]) -> (Poly, Poly) {
    let mut r = trimmed(a.to_vec());
    let lead = b.last().expect("a nonzero divisor");
    if r.len() < b.len() {
        return (Vec::new(), r);
    }
    let mut q = vec![BigRational::zero(); r.len() - b.len() + 1];
    while r.len() >= b.len() {
        let shift = r.len() - b.len();
        let c = r.last().expect("nonempty") / lead;
        for (i, bc) in b.iter().enumerate() {
            r[shift + i] -= &c * bc;
        }
        q[shift] = c;
        r = trimmed(r);
    }
    (trimmed(q), r)
}

/// `x^j` as coefficients.
pub fn monomial(j: usize) -> Poly {
    let mut p = vec![BigRational::zero(); j + 1];
    p[j] = BigRational::one();
    p
}

/// `p` as an expression in `var` (its nonzero terms; `0` for the zero polynomial).
pub fn expression(p: &[BigRational], var: &str) -> Expr {
    let terms: Vec<Expr> = p
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_zero())
        .map(|(k, c)| {
            // (as written by hand: no x^0, x^1 or factor 1, which a rule matching forms
            // would have to see through)
            let power = match k {
                0 => return number(c),
                1 => Expr::sym(var),
                _ => Expr::pow(Expr::sym(var), Expr::Int(std::rc::Rc::new(BigInt::from(k)))),
            };
            if c.is_one() {
                power
            } else {
                Expr::mul(vec![number(c), power])
            }
        })
        .collect();
    if terms.is_empty() {
        Expr::int(0)
    } else {
        Expr::add(terms)
    }
}

/// `∫p` with constant term 0.
pub fn integral(p: &[BigRational]) -> Poly {
    let mut out = vec![BigRational::zero()];
    out.extend(
        p.iter()
            .enumerate()
            .map(|(k, c)| c / BigRational::from_integer(BigInt::from(k + 1))),
    );
    trimmed(out)
}

/// `p'`.
pub fn derivative(p: &[BigRational]) -> Poly {
    trimmed(
        p.iter()
            .enumerate()
            .skip(1)
            .map(|(k, c)| c * BigRational::from_integer(BigInt::from(k)))
            .collect(),
    )
}

/// The monic greatest common divisor of `a` and `b` (Euclid's algorithm over the rationals;
/// empty when both are zero).
pub fn gcd(a: &[BigRational], b: &[BigRational]) -> Poly {
    let (mut a, mut b) = (trimmed(a.to_vec()), trimmed(b.to_vec()));
    while !b.is_empty() {
        let r = divide(&a, &b).1;
        (a, b) = (b, r);
    }
    match a.last().cloned() {
        Some(lead) => a.iter().map(|c| c / &lead).collect(),
        None => a,
    }
}

/// `p(x)`, by Horner's rule.
pub fn value_at(p: &[BigRational], x: &BigRational) -> BigRational {
    p.iter()
        .rev()
        .fold(BigRational::zero(), |acc, c| acc * x + c)
}

/// The positive divisors of `n` (`n ≥ 1`), or `None` past [`MAX_END_COEFFICIENT`].
fn divisors(n: &BigInt) -> Option<Vec<u64>> {
    let n = n
        .abs()
        .to_u64()
        .filter(|n| (1..=MAX_END_COEFFICIENT).contains(n))?;
    let mut out = Vec::new();
    let mut d = 1;
    while d * d <= n {
        if n % d == 0 {
            out.push(d);
            if d * d != n {
                out.push(n / d);
            }
        }
        d += 1;
    }
    Some(out)
}

/// A factor of the denominator.
enum Factor {
    /// `(x − r)^m`.
    Root(BigRational, usize),
    /// `(x² + βx + γ)^m` (monic) with `4γ − β² > 0`.
    Quadratic(BigRational, BigRational, usize),
    /// `x² + βx + γ` (monic) with two irrational real roots: `β² − 4γ > 0` and no square.
    RealPair(BigRational, BigRational),
    /// A monic square-free factor of degree three or more that is no product of the above
    /// (`x⁴ + 1`), not repeated: its term is tried as `c·P'/P` only.
    Irreducible(Poly),
}

/// The rational roots of `p` (of degree at most `MAX_DEGREE`) that the rational root theorem
/// finds, and `extra` numbers that are roots too, each with its multiplicity and `p` with every
/// such root divided out. Roots it cannot reach (`p` with an irrational root or a factor of
/// degree four or more irreducible over the rationals, or end coefficients past
/// `MAX_END_COEFFICIENT`) are missing, the `extra` ones aside.
pub fn rational_roots(
    p: &[BigRational],
    extra: &[&BigRational],
    budget: &mut Budget,
) -> Result<(Vec<(BigRational, usize)>, Poly), TooLarge> {
    let p = trimmed(p.to_vec());
    if p.len() < 2 || p.len() > MAX_DEGREE + 1 {
        return Ok((Vec::new(), p));
    }
    let lead = p.last().expect("nonempty").clone();
    let monic: Poly = p.iter().map(|c| c / &lead).collect();
    let mut candidates: Vec<BigRational> = factored(&monic, budget)?
        .unwrap_or_default()
        .into_iter()
        .filter_map(|f| match f {
            Factor::Root(r, _) => Some(r),
            Factor::Quadratic(..) | Factor::RealPair(..) | Factor::Irreducible(..) => None,
        })
        .collect();
    candidates.extend(extra.iter().map(|&r| r.clone()));
    let (mut rest, mut roots) = (p, Vec::new());
    for r in candidates {
        let mut factors = Vec::new();
        take_root(&mut rest, &r, &mut factors);
        if let Some(Factor::Root(r, m)) = factors.pop() {
            roots.push((r, m));
        }
    }
    Ok((roots, rest))
}

/// Divides `(x − r)` out of `rest` as often as it goes, and records the factor.
fn take_root(rest: &mut Poly, r: &BigRational, factors: &mut Vec<Factor>) {
    let mut m = 0;
    loop {
        let (q, remainder) = divide(rest, &[-r.clone(), BigRational::one()]);
        if !remainder.is_empty() {
            break;
        }
        *rest = q;
        m += 1;
    }
    if m > 0 {
        factors.push(Factor::Root(r.clone(), m));
    }
}

/// The monic factors of `d` (not zero), if it factors into rational roots and powers of
/// quadratics without real roots ([`from_roots`]).
fn factored(d: &[BigRational], budget: &mut Budget) -> Result<Option<Vec<Factor>>, TooLarge> {
    let Some(lead) = d.last().filter(|c| !c.is_zero()) else {
        return Ok(None);
    };
    let mut rest: Poly = d.iter().map(|c| c / lead).collect();
    let mut factors: Vec<Factor> = Vec::new();
    take_root(&mut rest, &BigRational::zero(), &mut factors);
    if rest.len() > 2 {
        // The integer form: denominators cleared.
        let lcm = rest.iter().fold(BigInt::one(), |l, c| l.lcm(c.denom()));
        let integers: Vec<BigInt> = rest.iter().map(|c| (c * &lcm).to_integer()).collect();
        // (past MAX_END_COEFFICIENT no divisor is tried: the roots are then found in f64,
        // [`from_roots`])
        let (first, last) = match (
            divisors(&integers[0]),
            divisors(integers.last().expect("nonempty")),
        ) {
            (Some(first), Some(last)) => (first, last),
            _ => (Vec::new(), Vec::new()),
        };
        // Every root lies within Cauchy's bound 1 + max |a_k/a_n|; a candidate is tried
        // exactly only when f64 puts it near a root (|P(r)| within 10^-6 of the size of its
        // terms, far above the rounding of a true root), so that the divisors of end
        // coefficients such as 720720 cost f64 work, not rational.
        let lead = integers.last().expect("nonempty");
        let bound = integers
            .iter()
            .map(|a| (BigRational::new(a.clone(), lead.clone())).abs())
            .max()
            .and_then(|m| m.to_f64())
            .unwrap_or(f64::INFINITY)
            + 1.0;
        let approximate: Vec<f64> = integers
            .iter()
            .map(|a| a.to_f64().unwrap_or(f64::INFINITY))
            .collect();
        'search: for p in &first {
            for q in &last {
                let size = *p as f64 / *q as f64;
                if size > bound * (1.0 + 1e-9) {
                    continue;
                }
                for sign in [1.0, -1.0] {
                    if rest.len() <= 3 {
                        break 'search;
                    }
                    budget.ticks(approximate.len() as u64)?;
                    let x = sign * size;
                    let (value, scale) = approximate
                        .iter()
                        .rev()
                        .fold((0.0f64, 0.0f64), |(v, m), a| {
                            (v * x + a, m * x.abs() + a.abs())
                        });
                    if value.abs() > 1e-6 * scale && scale.is_finite() {
                        continue;
                    }
                    let r = BigRational::new(BigInt::from(*p) * sign as i64, BigInt::from(*q));
                    if r.denom() != &BigInt::from(*q) {
                        // (not in lowest terms: met already)
                        continue;
                    }
                    budget.steps(rest.len() as u64)?;
                    if value_at(&rest, &r).is_zero() {
                        take_root(&mut rest, &r, &mut factors);
                    }
                }
            }
        }
    }
    match rest.len() {
        1 => {}
        2 => {
            // x + c
            let r = -&rest[0] / &rest[1];
            factors.push(Factor::Root(r, 1));
        }
        // (rest is monic: x² + βx + γ; with real roots, rational ones or none)
        3 if !discriminant(&rest[1], &rest[0]).is_negative() => {
            let (beta, gamma) = (rest[1].clone(), rest[0].clone());
            let Some(root) = exact_square_root(&discriminant(&beta, &gamma)) else {
                factors.push(Factor::RealPair(beta, gamma));
                return Ok(Some(factors));
            };
            let two = BigRational::from_integer(2.into());
            for r in [(-&beta + &root) / &two, (-&beta - &root) / &two] {
                if !factors
                    .iter()
                    .any(|f| matches!(f, Factor::Root(s, _) if *s == r))
                {
                    take_root(&mut rest, &r, &mut factors);
                }
            }
        }
        _ => match from_roots(&rest, budget)? {
            Some(found) => factors.extend(found),
            None => return Ok(None),
        },
    }
    Ok(Some(factors))
}

/// `β² − 4γ`, the discriminant of `x² + βx + γ`.
fn discriminant(beta: &BigRational, gamma: &BigRational) -> BigRational {
    beta * beta - BigRational::from_integer(4.into()) * gamma
}

/// `p − q`.
pub fn sub(p: &[BigRational], q: &[BigRational]) -> Poly {
    let negated: Poly = q.iter().map(|c| -c).collect();
    add(p, &negated)
}

/// The monic `rest` (degree at least 2) as powers of `x − r` for rational `r` and of
/// quadratics without real roots and with rational coefficients, if it is such a product:
/// `(x² + 1)^3`, `(x² + 1)(x² + 4)`, `(x − 3)(x² − x + 24)^3` (whose end coefficients have too
/// many divisors to try). Its square-free parts come from Yun's algorithm (exact); a quadratic
/// part is taken as it is, a larger one has its roots found in f64: a real root is rounded to
/// the only rational it can be, a complex one paired with its conjugate, and that pair's
/// quadratic `x² − 2·Re z·x + |z|²` rounded to the only rationals it can have (over the common
/// denominator `L` of `rest`'s coefficients, `r·L`, `β·L` and `γ·L²` are integers by Gauss's
/// lemma). f64 only proposes: a factor is kept only when it divides exactly.
fn from_roots(rest: &[BigRational], budget: &mut Budget) -> Result<Option<Vec<Factor>>, TooLarge> {
    let common = rest.iter().fold(BigInt::one(), |l, c| l.lcm(c.denom()));
    let mut out = Vec::new();
    for (part, m) in square_free_parts(rest, budget)? {
        if part.len() == 3 && discriminant(&part[1], &part[0]).is_negative() {
            // (a quadratic part is exact as it is)
            out.push(Factor::Quadratic(part[1].clone(), part[0].clone(), m));
            continue;
        }
        if part.len() == 3
            && m == 1
            && exact_square_root(&discriminant(&part[1], &part[0])).is_none()
        {
            // (two irrational real roots: x² − 2)
            out.push(Factor::RealPair(part[1].clone(), part[0].clone()));
            continue;
        }
        match roots_of_part(part.clone(), m, &common, budget)? {
            Some(found) => out.extend(found),
            // (a part of no such factors, not repeated: its term is tried as c·P'/P)
            None if m == 1 => out.push(Factor::Irreducible(part)),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// The square-free `part` (of multiplicity `m`) as rational roots and quadratics, by its f64
/// roots as [`from_roots`] says; `None` when they are not all so.
fn roots_of_part(
    mut part: Poly,
    m: usize,
    common: &BigInt,
    budget: &mut Budget,
) -> Result<Option<Vec<Factor>>, TooLarge> {
    let Some(scale) = common.to_f64().filter(|l| *l < 1e6) else {
        return Ok(None);
    };
    let approximate: Vec<f64> = part
        .iter()
        .map(|c| c.to_f64().unwrap_or(f64::NAN))
        .collect();
    budget.ticks((ROOT_ITERATIONS * approximate.len() * approximate.len()) as u64)?;
    let Some(roots) = complex_roots(&approximate) else {
        return Ok(None);
    };
    let round = |v: f64, power: u32| {
        let scaled = (v * scale.powi(power as i32)).round();
        (scaled.abs() < 1e15)
            .then(|| BigRational::new(BigInt::from(scaled as i64), common.pow(power)))
    };
    let mut out = Vec::new();
    for (re, im) in roots {
        budget.steps(part.len() as u64)?;
        if im.abs() <= 1e-6 * (1.0 + re.abs()) {
            // a real root: rational, or the part is not a product of such factors
            let Some(r) = round(re, 1) else {
                return Ok(None);
            };
            let (q, remainder) = divide(&part, &[-r.clone(), BigRational::one()]);
            if !remainder.is_empty() {
                return Ok(None);
            }
            part = q;
            out.push(Factor::Root(r, m));
        } else if im > 0.0 {
            // β = −2·Re z, γ = |z|²
            let (Some(beta), Some(gamma)) = (round(-2.0 * re, 1), round(re * re + im * im, 2))
            else {
                return Ok(None);
            };
            let (q, r) = divide(&part, &[gamma.clone(), beta.clone(), BigRational::one()]);
            if !r.is_empty() || !discriminant(&beta, &gamma).is_negative() {
                return Ok(None);
            }
            part = q;
            out.push(Factor::Quadratic(beta, gamma, m));
        }
    }
    // (a pair that does not divide leaves part)
    Ok((part.len() == 1).then_some(out))
}

/// The square-free parts of the monic `f` with their multiplicities (Yun's algorithm):
/// `f = Π a_i^i`, each `a_i` monic and square-free, the constant ones left out.
fn square_free_parts(
    f: &[BigRational],
    budget: &mut Budget,
) -> Result<Vec<(Poly, usize)>, TooLarge> {
    let degree = f.len() as u64;
    budget.steps(degree.pow(3))?;
    let df = derivative(f);
    let a = gcd(f, &df);
    let mut b = divide(f, &a).0;
    let mut d = sub(&divide(&df, &a).0, &derivative(&b));
    let mut out = Vec::new();
    let mut i = 1;
    while b.len() > 1 {
        budget.steps(degree.pow(2))?;
        let a = gcd(&b, &d);
        b = divide(&b, &a).0;
        d = sub(&divide(&d, &a).0, &derivative(&b));
        if a.len() > 1 {
            out.push((a, i));
        }
        i += 1;
    }
    Ok(out)
}

/// How many Durand–Kerner sweeps [`complex_roots`] makes at most.
const ROOT_ITERATIONS: usize = 500;

/// The complex roots `(re, im)` of the monic `p` (coefficients from the constant term up), by
/// Durand–Kerner iteration in f64; `None` when it does not settle. Approximations only: the
/// caller checks what it makes of them exactly.
fn complex_roots(p: &[f64]) -> Option<Vec<(f64, f64)>> {
    let n = p.len().checked_sub(1).filter(|&n| n > 0)?;
    if p.iter().any(|c| !c.is_finite()) {
        return None;
    }
    let mul = |(a, b): (f64, f64), (c, d): (f64, f64)| (a * c - b * d, a * d + b * c);
    let bound = 1.0 + p[..n].iter().fold(0.0f64, |m, c| m.max(c.abs()));
    // (starting points on a circle, turned off the real axis)
    let mut z: Vec<(f64, f64)> = (0..n)
        .map(|k| {
            let angle = 0.4 + std::f64::consts::TAU * k as f64 / n as f64;
            (bound * angle.cos(), bound * angle.sin())
        })
        .collect();
    for _ in 0..ROOT_ITERATIONS {
        let mut largest = 0.0f64;
        for k in 0..n {
            let value = p.iter().rev().fold((0.0, 0.0), |acc, &c| {
                let (re, im) = mul(acc, z[k]);
                (re + c, im)
            });
            let mut below = (1.0, 0.0);
            for j in (0..n).filter(|&j| j != k) {
                below = mul(below, (z[k].0 - z[j].0, z[k].1 - z[j].1));
            }
            let size = below.0 * below.0 + below.1 * below.1;
            if size == 0.0 {
                return None;
            }
            // value / below
            let step = mul(value, (below.0 / size, -below.1 / size));
            z[k] = (z[k].0 - step.0, z[k].1 - step.1);
            largest = largest.max(step.0.hypot(step.1));
        }
        if largest <= 1e-14 * bound {
            return z
                .iter()
                .all(|w| w.0.is_finite() && w.1.is_finite())
                .then_some(z);
        }
    }
    None
}

/// `√r` when it is rational (`r ≥ 0`).
pub fn exact_square_root(r: &BigRational) -> Option<BigRational> {
    if r.is_negative() {
        return None;
    }
    let (n, d) = (r.numer(), r.denom());
    let (sn, sd) = (n.sqrt(), d.sqrt());
    (&sn * &sn == *n && &sd * &sd == *d).then(|| BigRational::new(sn, sd))
}

/// `P` with `P² = p` and a positive leading coefficient, when `p` is the square of a polynomial
/// with rational coefficients (its coefficients found from the top down, the square checked).
pub fn square_root(p: &[BigRational]) -> Option<Poly> {
    let p = trimmed(p.to_vec());
    if p.is_empty() || p.len().is_multiple_of(2) {
        return None;
    }
    let d = (p.len() - 1) / 2;
    let mut root = vec![BigRational::zero(); d + 1];
    root[d] = exact_square_root(p.last().expect("nonempty"))?;
    let twice_lead = &root[d] * BigRational::from_integer(2.into());
    for k in (0..d).rev() {
        // the coefficient of x^(d + k) in P² has 2·P_d·P_k and products of higher ones
        let known: BigRational = (k + 1..d).map(|i| &root[i] * &root[d + k - i]).sum();
        root[k] = (&p[d + k] - known) / &twice_lead;
    }
    (mul(&root, &root) == p).then_some(root)
}

/// The `x` with `Σ x_j·columns[j] = rhs` in each of the `rows` coefficients, when there is
/// exactly one (Gaussian elimination on the rectangular system, every equation checked).
pub fn solve(columns: &[Poly], rhs: &[BigRational], rows: usize) -> Option<Vec<BigRational>> {
    let at = |p: &[BigRational], i: usize| p.get(i).cloned().unwrap_or_default();
    let unknowns = columns.len();
    let mut matrix: Vec<Vec<BigRational>> = (0..rows)
        .map(|i| {
            let mut row: Vec<BigRational> = columns.iter().map(|c| at(c, i)).collect();
            row.push(at(rhs, i));
            row
        })
        .collect();
    let mut pivot_row = 0;
    for col in 0..unknowns {
        let pivot = (pivot_row..rows).find(|&r| !matrix[r][col].is_zero())?;
        matrix.swap(pivot_row, pivot);
        let lead = matrix[pivot_row][col].clone();
        for v in matrix[pivot_row].iter_mut() {
            *v = &*v / &lead;
        }
        let pivot_values = matrix[pivot_row].clone();
        for (r, row) in matrix.iter_mut().enumerate() {
            if r != pivot_row && !row[col].is_zero() {
                let f = row[col].clone();
                for (v, p) in row.iter_mut().zip(&pivot_values) {
                    *v -= &f * p;
                }
            }
        }
        pivot_row += 1;
    }
    // (the equations left over must hold as they are: 0 = 0)
    if matrix[pivot_row..]
        .iter()
        .any(|row| !row[unknowns].is_zero())
    {
        return None;
    }
    Some((0..unknowns).map(|i| matrix[i][unknowns].clone()).collect())
}

/// Logarithms whose arguments share one sign that is not known in advance: `Σ c·log(±u)` for
/// each `(c, u)`, written for either sign (the term of a [`Factor::RealPair`] or of a
/// [`Factor::Irreducible`]).
type SignedLogarithms = Vec<(Expr, Expr)>;

/// Antiderivatives of `num/den` in `var`: one per placement of the variable among the real
/// roots of `den` (left of all, between two, right of all), which decides the sign inside each
/// `log`. Empty when `den` does not factor as the module documentation says.
pub fn antiderivatives(
    num: &[BigRational],
    den: &[BigRational],
    var: &str,
    budget: &mut Budget,
) -> Result<Vec<Expr>, TooLarge> {
    let (mut num, mut den) = (trimmed(num.to_vec()), trimmed(den.to_vec()));
    if den.len() < 2 || den.len() > MAX_DEGREE + 1 || num.len() > MOST_NUMERATOR_TERMS {
        return Ok(Vec::new());
    }
    // A factor common to both is cancelled first (a substitution leaves `(1 + t²)` above and
    // below the line), so that the denominator factors as this module can.
    budget.steps((num.len() * den.len()) as u64)?;
    let common = gcd(&num, &den);
    if common.len() > 1 {
        num = divide(&num, &common).0;
        den = divide(&den, &common).0;
        if let [c] = den.as_slice() {
            let quotient: Poly = num.iter().map(|n| n / c).collect();
            return Ok(vec![expression(&integral(&quotient), var)]);
        }
    }
    // (the division and the elimination below: about deg² and deg³ steps)
    let degree = den.len() as u64;
    budget.steps(num.len() as u64 * degree + degree.pow(3))?;
    let lead = den.last().expect("nonempty").clone();
    let den: Poly = den.iter().map(|c| c / &lead).collect();
    let num: Poly = num.iter().map(|c| c / &lead).collect();
    let (whole, remainder) = divide(&num, &den);
    let Some(factors) = factored(&den, budget)? else {
        return Ok(Vec::new());
    };
    // One unknown per term A/(x − r)^k and two (B, C) for the quadratic; each term's
    // polynomial is den divided by its own denominator.
    let mut basis: Vec<Poly> = Vec::new();
    for f in &factors {
        match f {
            Factor::Root(r, m) => {
                let linear = [-r.clone(), BigRational::one()];
                let mut power = vec![BigRational::one()];
                for _ in 0..*m {
                    power = mul(&power, &linear);
                    basis.push(divide(&den, &power).0);
                }
            }
            Factor::RealPair(beta, gamma) => {
                let cofactor = divide(&den, &[gamma.clone(), beta.clone(), BigRational::one()]).0;
                basis.push(mul(&cofactor, &[BigRational::zero(), BigRational::one()]));
                basis.push(cofactor);
            }
            // c·P'/P: one unknown, so the system has more equations than unknowns
            Factor::Irreducible(p) => basis.push(mul(&derivative(p), &divide(&den, p).0)),
            Factor::Quadratic(beta, gamma, m) => {
                let q = [gamma.clone(), beta.clone(), BigRational::one()];
                let mut power = vec![BigRational::one()];
                for _ in 0..*m {
                    power = mul(&power, &q);
                    let cofactor = divide(&den, &power).0;
                    basis.push(mul(&cofactor, &[BigRational::zero(), BigRational::one()]));
                    basis.push(cofactor);
                }
            }
        }
    }
    let n = den.len() - 1;
    let irreducible = factors.iter().any(|f| matches!(f, Factor::Irreducible(_)));
    if basis.len() > n || (basis.len() < n && !irreducible) {
        return Ok(Vec::new());
    }
    let Some(coefficients) = solve(&basis, &remainder, n) else {
        return Ok(Vec::new());
    };
    let x = || Expr::sym(var);
    // ∫ whole
    let mut fixed = vec![expression(&integral(&whole), var)];
    // The simple poles, whose logs take the sign of x − r where the variable lies.
    let mut logs: Vec<(BigRational, BigRational)> = Vec::new();
    // (Bx + C)/q with irrational real roots r1 > r2 of q: (B/2)·log|q| +
    // (C − Bβ/2)/√Δ'·log|(2x + β − √Δ')/(2x + β + √Δ')|, Δ' = β² − 4γ; both arguments have
    // the sign of (x − r1)(x − r2): one term for either sign.
    let mut signed_logarithms: Vec<SignedLogarithms> = Vec::new();
    let mut next = coefficients.iter();
    for f in &factors {
        match f {
            Factor::Irreducible(p) => {
                let c = next.next().expect("c");
                if !c.is_zero() {
                    signed_logarithms.push(vec![(number(c), expression(p, var))]);
                }
            }
            Factor::RealPair(beta, gamma) => {
                let b = next.next().expect("B").clone();
                let c = next.next().expect("C").clone();
                let two = BigRational::from_integer(2.into());
                let root = Expr::pow(number(&discriminant(beta, gamma)), Expr::rat(1, 2));
                let s = || Expr::add(vec![Expr::mul(vec![number(&two), x()]), number(beta)]);
                let q = Expr::add(vec![
                    Expr::pow(x(), Expr::int(2)),
                    Expr::mul(vec![number(beta), x()]),
                    number(gamma),
                ]);
                let ratio = Expr::mul(vec![
                    Expr::minus(s(), root.clone()),
                    Expr::pow(Expr::add(vec![s(), root.clone()]), Expr::int(-1)),
                ]);
                let (half_b, k) = (&b / &two, &c - &b * beta / &two);
                let mut both = Vec::with_capacity(2);
                if !half_b.is_zero() {
                    both.push((number(&half_b), q));
                }
                if !k.is_zero() {
                    both.push((
                        Expr::mul(vec![number(&k), Expr::pow(root, Expr::int(-1))]),
                        ratio,
                    ));
                }
                signed_logarithms.push(both);
            }
            Factor::Root(r, m) => {
                let shifted = || Expr::add(vec![x(), number(&-r)]);
                for k in 1..=*m {
                    let a = next.next().expect("one per term").clone();
                    if a.is_zero() {
                        continue;
                    }
                    if k == 1 {
                        logs.push((r.clone(), a));
                    } else {
                        let e = BigRational::from_integer(BigInt::from(1 - k as i64));
                        fixed.push(Expr::mul(vec![
                            number(&(a / &e)),
                            Expr::pow(shifted(), number(&e)),
                        ]));
                    }
                }
            }
            Factor::Quadratic(beta, gamma, m) => {
                let two = BigRational::from_integer(2.into());
                let q = || {
                    Expr::add(vec![
                        Expr::pow(x(), Expr::int(2)),
                        Expr::mul(vec![number(beta), x()]),
                        number(gamma),
                    ])
                };
                let delta = BigRational::from_integer(4.into()) * gamma - beta * beta;
                let s = || Expr::add(vec![Expr::mul(vec![number(&two), x()]), number(beta)]);
                // (Dx + E)/q^j = (D/2)·(2x + β)/q^j + E'/q^j with E' = E − Dβ/2; the first
                // part integrates to (D/2)·log q (j = 1) or (D/2)·q^(1−j)/(1 − j), the second
                // to E'·I_j by the reduction formula (Δ = 4γ − β²):
                // I_1 = 2Δ^(−1/2)·atan((2x + β)/√Δ),
                // I_j = (2x + β)/((j − 1)Δ·q^(j−1)) + 2(2j − 3)/((j − 1)Δ)·I_(j−1).
                // `over[i]` gathers the coefficient of (2x + β)/q^i, `at` that of
                // Δ^(−1/2)·atan(...).
                let mut over = vec![BigRational::zero(); *m];
                let mut at = BigRational::zero();
                for j in 1..=*m {
                    let d = next.next().expect("D").clone();
                    let e = next.next().expect("E").clone() - &d * beta / &two;
                    if j == 1 && !d.is_zero() {
                        fixed.push(Expr::mul(vec![
                            number(&(&d / &two)),
                            Expr::call(Func::Log, q()),
                        ]));
                    } else if !d.is_zero() {
                        let e = BigRational::from_integer(BigInt::from(1 - j as i64));
                        fixed.push(Expr::mul(vec![
                            number(&(&d / &two / &e)),
                            Expr::pow(q(), number(&e)),
                        ]));
                    }
                    let mut factor = e;
                    for i in (2..=j).rev() {
                        let below = BigRational::from_integer(BigInt::from(i - 1)) * &delta;
                        over[i - 1] += &factor / &below;
                        factor =
                            factor * BigRational::from_integer(BigInt::from(4 * i - 6)) / below;
                    }
                    at += &two * factor;
                }
                for (i, c) in over.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
                    fixed.push(Expr::mul(vec![
                        number(c),
                        s(),
                        Expr::pow(q(), Expr::int(-(i as i64))),
                    ]));
                }
                if !at.is_zero() {
                    fixed.push(Expr::mul(vec![
                        number(&at),
                        Expr::pow(number(&delta), Expr::rat(-1, 2)),
                        Expr::call(
                            Func::Atan,
                            // (1/√Δ written so: the form alkahest's values have, `sqrt(3)^-1`)
                            Expr::mul(vec![
                                s(),
                                Expr::pow(
                                    Expr::pow(number(&delta), Expr::rat(1, 2)),
                                    Expr::int(-1),
                                ),
                            ]),
                        ),
                    ]));
                }
            }
        }
    }
    // (each group doubles the candidates: at most two groups)
    if signed_logarithms.len() > 2 {
        return Ok(Vec::new());
    }
    let mut signed = vec![fixed];
    for group in &signed_logarithms {
        let mut next = Vec::with_capacity(2 * signed.len());
        for terms in &signed {
            for sign in [1, -1] {
                let mut terms = terms.clone();
                for (c, u) in group {
                    let inside = Expr::mul(vec![Expr::int(sign), u.clone()]);
                    terms.push(Expr::mul(vec![c.clone(), Expr::call(Func::Log, inside)]));
                }
                next.push(terms);
            }
        }
        signed = next;
    }
    logs.sort_by(|a, b| a.0.cmp(&b.0));
    Ok((0..=logs.len())
        .flat_map(|right_of| signed.iter().map(move |fixed| (right_of, fixed)))
        .map(|(right_of, fixed)| {
            let mut terms = fixed.clone();
            for (i, (r, a)) in logs.iter().enumerate() {
                // x − r where the variable is right of r, r − x where it is left of it
                let inside = if i < right_of {
                    Expr::add(vec![x(), number(&-r)])
                } else {
                    Expr::add(vec![Expr::negated(x()), number(r)])
                };
                terms.push(Expr::mul(vec![number(a), Expr::call(Func::Log, inside)]));
            }
            Expr::add(terms)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b() -> Budget {
        Budget::standard()
    }

    fn p(cs: &[i64]) -> Poly {
        cs.iter()
            .map(|&c| BigRational::from_integer(c.into()))
            .collect()
    }

    #[test]
    fn a_product_costs_more_steps_as_its_coefficients_grow() {
        // (x + 11)^199 has coefficients of up to 711 bits; (x + 1)^2 of two.
        let big = (0..199).fold(p(&[1]), |acc, _| mul(&acc, &p(&[11, 1])));
        let small = p(&[1, 2, 1]);
        let cheap = mul_steps(&small, &small);
        assert_eq!(cheap, 9, "one step a product of small coefficients");
        let dear = mul_steps(&big, &big);
        // (200² products, 22 words of coefficients, 712 bits a side: 1 + 22 + 30 steps each)
        assert_eq!(dear, 200 * 200 * 53, "{dear}");
    }

    #[test]
    fn denominators_factor_into_rational_roots_and_one_quadratic() {
        // x^3 + 1 = (x + 1)(x^2 − x + 1)
        let f = factored(&p(&[1, 0, 0, 1]), &mut b())
            .unwrap()
            .expect("factors");
        assert!(
            matches!(&f[..], [Factor::Root(r, 1), Factor::Quadratic(..)] if *r == -BigRational::one())
        );
        // x^2 − 4 = (x − 2)(x + 2); (x − 1)^2 (x + 1)
        assert_eq!(
            factored(&p(&[-4, 0, 1]), &mut b())
                .unwrap()
                .expect("factors")
                .len(),
            2
        );
        let f = factored(&p(&[1, -1, -1, 1]), &mut b())
            .unwrap()
            .expect("factors");
        assert!(
            f.iter()
                .any(|f| matches!(f, Factor::Root(r, 2) if r.is_one()))
        );
        // x^2 − 2 has two irrational roots, a pair; x^4 + 1 two quadratics over Q(√2) only,
        // and (x^2 − 2)(x^2 + 1) is taken apart only as its square-free parts are: not here
        assert!(matches!(
            factored(&p(&[-2, 0, 1]), &mut b()).unwrap().as_deref(),
            Some([Factor::RealPair(..)])
        ));
        // (x^2 − 2)^2: no power of a pair, nor of an irreducible part
        assert!(factored(&p(&[4, 0, -4, 0, 1]), &mut b()).unwrap().is_none());
        // x^4 + 1 and (x^2 − 2)(x^2 + 1): one part left whole (c·P'/P only)
        for d in [p(&[1, 0, 0, 0, 1]), p(&[-2, 0, -1, 0, 1])] {
            assert!(matches!(
                factored(&d, &mut b()).unwrap().as_deref(),
                Some([Factor::Irreducible(_)])
            ));
        }
    }

    #[test]
    fn several_quadratics_and_their_powers_are_factors() {
        let quadratics = |d: &Poly| -> Vec<(BigRational, BigRational, usize)> {
            let mut out: Vec<_> = factored(d, &mut b())
                .unwrap()
                .expect("factors")
                .into_iter()
                .map(|f| match f {
                    Factor::Quadratic(beta, gamma, m) => (beta, gamma, m),
                    Factor::Root(..) | Factor::RealPair(..) | Factor::Irreducible(..) => {
                        panic!("no real root")
                    }
                })
                .collect();
            out.sort();
            out
        };
        let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        // (x^2 + 1)^3
        let cube = mul(&mul(&p(&[1, 0, 1]), &p(&[1, 0, 1])), &p(&[1, 0, 1]));
        assert_eq!(quadratics(&cube), [(r(0, 1), r(1, 1), 3)]);
        // (x^2 + 1)(x^2 + 4)
        assert_eq!(
            quadratics(&p(&[4, 0, 5, 0, 1])),
            [(r(0, 1), r(1, 1), 1), (r(0, 1), r(4, 1), 1)]
        );
        // (x^2 + x + 1)^2·(x^2 + 1/4)
        let d = mul(
            &mul(&p(&[1, 1, 1]), &p(&[1, 1, 1])),
            &[r(1, 4), r(0, 1), r(1, 1)],
        );
        assert_eq!(
            quadratics(&d),
            [(r(0, 1), r(1, 4), 1), (r(1, 1), r(1, 1), 2)]
        );
        // (x − 3/2)(x^2 − x + 24)^3 (x^2 + 5x + 30)^2: end coefficients past
        // MAX_END_COEFFICIENT, so the rational root is found in f64 too
        let q = p(&[24, -1, 1]);
        let mut d = mul(&[r(-3, 2), r(1, 1)], &mul(&mul(&q, &q), &q));
        d = mul(&d, &mul(&p(&[30, 5, 1]), &p(&[30, 5, 1])));
        let mut f = factored(&d, &mut b()).unwrap().expect("factors");
        f.sort_by_key(|f| matches!(f, Factor::Quadratic(..)));
        assert!(matches!(&f[0], Factor::Root(x, 1) if *x == r(3, 2)));
        assert!(
            matches!(&f[1..], [Factor::Quadratic(_, g, 3), Factor::Quadratic(_, h, 2)]
            | [Factor::Quadratic(_, h, 2), Factor::Quadratic(_, g, 3)]
            if *g == r(24, 1) && *h == r(30, 1))
        );
        // x^6 + 1 = (x^2 + 1)(x^4 − x^2 + 1), the second irreducible over Q: left whole
        assert!(matches!(
            factored(&p(&[1, 0, 0, 0, 0, 0, 1]), &mut b())
                .unwrap()
                .as_deref(),
            Some([Factor::Irreducible(_)])
        ));
    }

    #[test]
    fn end_coefficients_with_many_divisors_cost_little_budget() {
        // 720720 has 240 divisors: 115,200 candidate roots, each one tried in f64 first
        let mut d = p(&[720720, 0, 0, 0, 0, 3]);
        d.extend(std::iter::repeat_n(BigRational::zero(), 10));
        d.push(BigRational::from_integer(720720.into()));
        let mut budget = Budget::of_steps(200_000);
        assert!(matches!(
            factored(&d, &mut budget).unwrap().as_deref(),
            Some([Factor::Irreducible(_)])
        ));
        // a root among many candidates is still found: (2x − 3)·(5040x² + 1)
        let d = mul(&p(&[-3, 2]), &p(&[1, 0, 5040]));
        let f = factored(&d, &mut Budget::of_steps(200_000))
            .unwrap()
            .expect("factors");
        assert!(f.iter().any(
            |f| matches!(f, Factor::Root(r, 1) if *r == BigRational::new(3.into(), 2.into()))
        ));
    }

    #[test]
    fn an_irreducible_factor_takes_a_multiple_of_its_derivative() {
        // 1/(x(x^4 + 1)) = 1/x − x^3/(x^4 + 1): log|x| − log(x^4 + 1)/4, for either sign of
        // each (x^4 + 1 > 0, so two of the four are continuous somewhere)
        let found = antiderivatives(&p(&[1]), &p(&[0, 1, 0, 0, 0, 1]), "x", &mut b()).unwrap();
        assert_eq!(found.len(), 4);
        assert!(found[0].to_string().contains("-1/4"), "{}", found[0]);
        // 1/(x^4 + 1) is no such multiple: nothing
        assert!(
            antiderivatives(&p(&[1]), &p(&[1, 0, 0, 0, 1]), "x", &mut b())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn squares_have_their_roots_and_nothing_else_has_one() {
        let q = |c: &[i64]| -> Poly {
            c.iter()
                .map(|&n| BigRational::from_integer(n.into()))
                .collect()
        };
        assert_eq!(square_root(&q(&[0, 0, 1])), Some(q(&[0, 1])));
        assert_eq!(square_root(&q(&[1, 0, 2, 0, 1])), Some(q(&[1, 0, 1])));
        // (x − 1/2)², written 1/4 − x + x²; (2x³ − x + 3)²
        let half = BigRational::new(1.into(), 2.into());
        let p = vec![-half.clone(), BigRational::one()];
        assert_eq!(square_root(&mul(&p, &p)), Some(p));
        let p = q(&[3, -1, 0, 2]);
        assert_eq!(square_root(&mul(&p, &p)), Some(p));
        for not in [
            &[1, 0, 1][..],
            &[0, 1],
            &[2, 0, 2],
            &[1, 2, 2],
            &[0, 0, -1],
            &[],
        ] {
            assert_eq!(square_root(&q(not)), None, "{not:?}");
        }
    }

    #[test]
    fn one_candidate_per_gap_between_the_real_poles() {
        // 1/(x(x + 1)): left of −1, between, right of 0
        assert_eq!(
            antiderivatives(&p(&[1]), &p(&[0, 1, 1]), "x", &mut b())
                .unwrap()
                .len(),
            3
        );
        // 1/(x^2 + 1): no real pole
        let only = antiderivatives(&p(&[1]), &p(&[1, 0, 1]), "x", &mut b()).unwrap();
        assert_eq!(only.len(), 1);
        assert!(only[0].to_string().contains("atan"), "{}", only[0]);
        // 1/(x^2 − 2): one for either sign of x^2 − 2
        assert_eq!(
            antiderivatives(&p(&[1]), &p(&[-2, 0, 1]), "x", &mut b())
                .unwrap()
                .len(),
            2
        );
    }
}
