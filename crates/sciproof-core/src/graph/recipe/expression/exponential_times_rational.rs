//! `∫ exp(ax + b)·R(x) dx` for a rational function `R` with exact coefficients, when the
//! antiderivative is `exp(ax + b)·S(x)` with `S` rational: `S' + a·S = R` (the Risch
//! differential equation of an exponential, solved over the rationals). `x·e^x/(x + 1)^2` is
//! `(e^x/(x + 1))'`, as alkahest integrates it.
//!
//! With `R = N/D` in lowest terms, a pole of `S` of order `k` is one of `S' + aS` of order
//! `k + 1`, so `S = P/G` with `G = gcd(D, D')` (each pole of `D` one order lower) and a
//! polynomial `P` of degree `deg N − deg D + deg G` (`a ≠ 0`: the leading terms of `aS` and
//! `R` meet). `P`'s coefficients solve the linear system `(P'G − PG' + aPG)·D = N·G²`, which
//! has more equations than unknowns: a solution is kept only when it satisfies all of them,
//! and even then only proposed (the caller differentiates every candidate exactly).

use super::expr::{Budget, Expr, Func, TooLarge};
use super::integrate::{linear, rational_function};
use super::partial_fractions::{self as pf, Poly};
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The highest degree of `P` tried.
const MAX_DEGREE: usize = 16;

/// `exp(ax + b)·P/G` for the product `factors`, one of which is `exp(ax + b)` (`a ≠ 0`) and
/// the rest a rational function of `var` with a denominator, when `S = P/G` solves
/// `S' + aS = R` as the module documentation says; `None` otherwise.
pub fn antiderivative(
    factors: &[Expr],
    var: &str,
    budget: &mut Budget,
) -> Result<Option<Expr>, TooLarge> {
    let mut exponential = None;
    let mut rest = Vec::with_capacity(factors.len());
    for f in factors {
        match f {
            Expr::Call(Func::Exp, xs) if exponential.is_none() => {
                let Some((a, _)) = linear(&xs[0], var, budget)? else {
                    return Ok(None);
                };
                if a.is_zero() {
                    return Ok(None);
                }
                exponential = Some((f.clone(), a));
            }
            _ => rest.push(f.clone()),
        }
    }
    let Some((exponential, a)) = exponential else {
        return Ok(None);
    };
    let Some((n, d)) = rational_function(&Expr::mul(rest), var, budget)? else {
        return Ok(None);
    };
    if n.is_empty() || d.len() < 2 {
        // (a polynomial times exp: the table's P·exp rule)
        return Ok(None);
    }
    budget.steps((n.len() * d.len()) as u64)?;
    let common = pf::gcd(&n, &d);
    let (n, d) = (pf::divide(&n, &common).0, pf::divide(&d, &common).0);
    let g = pf::gcd(&d, &pf::derivative(&d));
    let Some(degree) = (n.len() + g.len()).checked_sub(d.len() + 1) else {
        return Ok(None);
    };
    if degree > MAX_DEGREE || g.len() < 2 {
        // (a denominator with simple poles only leaves S without one: no solution)
        return Ok(None);
    }
    // The column of unknown p_j: (j·x^(j−1)·G − x^j·G' + a·x^j·G)·D.
    let dg = pf::derivative(&g);
    let monomial = |k: usize, c: BigRational| -> Poly {
        let mut p = vec![BigRational::zero(); k];
        p.push(c);
        p
    };
    let columns: Vec<Poly> = (0..=degree)
        .map(|j| {
            let power = monomial(j, BigRational::one());
            let mut inner = pf::sub(
                &pf::mul(&power, &pf::mul(std::slice::from_ref(&a), &g)),
                &pf::mul(&power, &dg),
            );
            if j > 0 {
                inner = pf::add(
                    &inner,
                    &pf::mul(&monomial(j - 1, BigRational::from_integer(j.into())), &g),
                );
            }
            pf::mul(&inner, &d)
        })
        .collect();
    let rhs = pf::mul(&n, &pf::mul(&g, &g));
    let rows = columns
        .iter()
        .map(Vec::len)
        .chain([rhs.len()])
        .max()
        .unwrap_or(0);
    budget.steps((rows * columns.len() * columns.len()) as u64)?;
    let Some(p) = pf::solve(&columns, &rhs, rows) else {
        return Ok(None);
    };
    Ok(Some(Expr::mul(vec![
        exponential,
        pf::expression(&p, var),
        Expr::pow(pf::expression(&g, var), Expr::int(-1)),
    ])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::recipe::expression::parse::parse;

    fn found(factors: &[&str]) -> Option<String> {
        let factors: Vec<Expr> = factors
            .iter()
            .map(|f| parse(f, &mut Default::default()).unwrap())
            .collect();
        antiderivative(&factors, "x", &mut Budget::standard())
            .unwrap()
            .map(|f| f.to_string())
    }

    #[test]
    fn the_rational_part_solves_the_differential_equation() {
        // x·e^x/(x + 1)^2 = (e^x/(x + 1))'
        assert!(found(&["x", "exp(x)", "(x+1)^-2"]).is_some());
        // e^(2x)·(2x − 1)/x^2 = (e^(2x)/x)'
        assert!(found(&["exp(2*x)", "(2*x - 1)", "x^-2"]).is_some());
        // e^x/x has no elementary antiderivative (Ei), e^x/(x + 1)^2 neither
        assert!(found(&["exp(x)", "x^-1"]).is_none());
        assert!(found(&["exp(x)", "(x+1)^-2"]).is_none());
        // no exponential of a linear argument
        assert!(found(&["exp(x^2)", "x^-2"]).is_none());
    }
}
