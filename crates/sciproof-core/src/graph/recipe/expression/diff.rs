//! Symbolic differentiation (for the `derivative` and `antiderivative` recipes): the sum,
//! product, power and chain rules, and a rule for every function alkahest can differentiate.
//! The result is not simplified; the exact test and the evaluator take it as it is.

use super::expr::{Budget, Expr, Func, TooLarge};

/// Why a derivative could not be taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffError {
    /// The function has no derivative rule (alkahest has none either).
    NoRule(&'static str),
    /// The expression is too large.
    TooLarge,
}

impl From<TooLarge> for DiffError {
    fn from(_: TooLarge) -> DiffError {
        DiffError::TooLarge
    }
}

/// d`e`/d`var`.
pub fn derivative(e: &Expr, var: &str, budget: &mut Budget) -> Result<Expr, DiffError> {
    budget.step()?;
    if !e.contains(var, budget)? {
        return Ok(Expr::int(0));
    }
    Ok(match e {
        Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) => Expr::int(0),
        Expr::Sym(_) => Expr::int(1), // it contains var, so it is var
        Expr::Add(xs) => Expr::add(
            xs.iter()
                .map(|x| derivative(x, var, budget))
                .collect::<Result<_, _>>()?,
        ),
        Expr::Mul(xs) => {
            let mut terms = Vec::new();
            for (i, x) in xs.iter().enumerate() {
                if !x.contains(var, budget)? {
                    continue;
                }
                let mut factors: Vec<Expr> = xs.to_vec();
                factors[i] = derivative(x, var, budget)?;
                terms.push(Expr::mul(factors));
            }
            Expr::add(terms)
        }
        Expr::Pow(p) => {
            let (base, exponent) = (&p.0, &p.1);
            if !exponent.contains(var, budget)? {
                // n·u^(n−1)·u'
                let n1 = Expr::add(vec![exponent.clone(), Expr::int(-1)]);
                Expr::mul(vec![
                    exponent.clone(),
                    Expr::pow(base.clone(), n1),
                    derivative(base, var, budget)?,
                ])
            } else {
                // u^v·(v'·log u + v·u'/u)
                let du = derivative(base, var, budget)?;
                let dv = derivative(exponent, var, budget)?;
                Expr::mul(vec![
                    e.clone(),
                    Expr::add(vec![
                        Expr::mul(vec![dv, Expr::call(Func::Log, base.clone())]),
                        Expr::mul(vec![exponent.clone(), du, Expr::recip(base.clone())]),
                    ]),
                ])
            }
        }
        Expr::Call(Func::Atan2, xs) => {
            // d atan2(y, x) = (x·y' − y·x') / (x² + y²)
            let (y, x) = (&xs[0], &xs[1]);
            let (dy, dx) = (derivative(y, var, budget)?, derivative(x, var, budget)?);
            Expr::mul(vec![
                Expr::minus(
                    Expr::mul(vec![x.clone(), dy]),
                    Expr::mul(vec![y.clone(), dx]),
                ),
                Expr::recip(Expr::add(vec![square(x), square(y)])),
            ])
        }
        Expr::Call(f @ (Func::EllipticE | Func::EllipticF | Func::EllipticPi), xs)
            if xs.len() >= 2 =>
        {
            // the chain rule through each argument's partial derivative
            let mut terms = Vec::new();
            for (arg, partial) in xs.iter().zip(elliptic_partials(*f, xs)) {
                if arg.contains(var, budget)? {
                    terms.push(Expr::mul(vec![partial, derivative(arg, var, budget)?]));
                }
            }
            Expr::add(terms)
        }
        Expr::Call(f, xs) if xs.len() == 1 => {
            let u = &xs[0];
            let outer = outer(*f, u)?;
            Expr::mul(vec![outer, derivative(u, var, budget)?])
        }
        Expr::Call(f, _) => return Err(DiffError::NoRule(f.name())),
    })
}

pub(super) fn square(x: &Expr) -> Expr {
    Expr::pow(x.clone(), Expr::int(2))
}

fn half_power(x: Expr, p: i64) -> Expr {
    Expr::pow(x, Expr::rat(p, 2))
}

/// The partial derivatives of the incomplete elliptic integrals `F(φ, m)`, `E(φ, m)` and
/// `Π(n, φ, m)` in the order of their arguments (DLMF 19.4.i, in the forms alkahest gives),
/// with `Δ = √(1 − m sin²φ)`.
fn elliptic_partials(f: Func, xs: &[Expr]) -> Vec<Expr> {
    let (n, phi, m) = match f {
        Func::EllipticPi => (Some(&xs[0]), &xs[1], &xs[2]),
        _ => (None, &xs[0], &xs[1]),
    };
    let sin2 = || square(&Expr::call(Func::Sin, phi.clone()));
    let delta = || {
        let inner = Expr::minus(Expr::int(1), Expr::mul(vec![m.clone(), sin2()]));
        half_power(inner, 1)
    };
    let two_phi = || Expr::call(Func::Sin, Expr::mul(vec![Expr::int(2), phi.clone()]));
    let one_minus_m = || Expr::minus(Expr::int(1), m.clone());
    let incomplete = |g: Func| Expr::Call(g, vec![phi.clone(), m.clone()].into());
    let over = |numerator: Expr, denominator: Vec<Expr>| {
        Expr::mul(vec![numerator, Expr::recip(Expr::mul(denominator))])
    };
    match (f, n) {
        (Func::EllipticF, _) => vec![
            Expr::recip(delta()),
            Expr::add(vec![
                over(
                    incomplete(Func::EllipticE),
                    vec![Expr::int(2), m.clone(), one_minus_m()],
                ),
                Expr::negated(over(
                    incomplete(Func::EllipticF),
                    vec![Expr::int(2), m.clone()],
                )),
                Expr::negated(over(two_phi(), vec![Expr::int(4), one_minus_m(), delta()])),
            ]),
        ],
        (Func::EllipticE, _) => vec![
            delta(),
            over(
                Expr::minus(incomplete(Func::EllipticE), incomplete(Func::EllipticF)),
                vec![Expr::int(2), m.clone()],
            ),
        ],
        (_, Some(n)) => {
            let pi = Expr::Call(Func::EllipticPi, xs.to_vec().into());
            let one_minus_n_sin2 = || Expr::minus(Expr::int(1), Expr::mul(vec![n.clone(), sin2()]));
            let m_minus_n = || Expr::minus(m.clone(), n.clone());
            let d_n = over(
                Expr::add(vec![
                    incomplete(Func::EllipticE),
                    over(
                        Expr::mul(vec![m_minus_n(), incomplete(Func::EllipticF)]),
                        vec![n.clone()],
                    ),
                    over(
                        Expr::mul(vec![Expr::minus(square(n), m.clone()), pi.clone()]),
                        vec![n.clone()],
                    ),
                    Expr::negated(over(
                        Expr::mul(vec![n.clone(), delta(), two_phi()]),
                        vec![Expr::int(2), one_minus_n_sin2()],
                    )),
                ]),
                vec![
                    Expr::int(2),
                    m_minus_n(),
                    Expr::minus(n.clone(), Expr::int(1)),
                ],
            );
            let d_phi = Expr::recip(Expr::mul(vec![delta(), one_minus_n_sin2()]));
            let d_m = over(
                Expr::add(vec![
                    incomplete(Func::EllipticE),
                    Expr::negated(Expr::mul(vec![one_minus_m(), pi])),
                    Expr::negated(over(
                        Expr::mul(vec![m.clone(), two_phi()]),
                        vec![Expr::int(2), delta()],
                    )),
                ]),
                vec![Expr::int(2), one_minus_m(), m_minus_n()],
            );
            vec![d_n, d_phi, d_m]
        }
        _ => unreachable!("an incomplete elliptic integral"),
    }
}

/// f'(u) for a one-argument function.
fn outer(f: Func, arg: &Expr) -> Result<Expr, DiffError> {
    let u = || arg.clone();
    let call = |g: Func| Expr::call(g, u());
    let one_minus_u2 = || Expr::minus(Expr::int(1), square(&u()));
    Ok(match f {
        Func::Sin => call(Func::Cos),
        Func::Cos => Expr::negated(call(Func::Sin)),
        Func::Tan => Expr::add(vec![Expr::int(1), square(&call(Func::Tan))]),
        Func::Sinh => call(Func::Cosh),
        Func::Cosh => call(Func::Sinh),
        Func::Tanh => Expr::minus(Expr::int(1), square(&call(Func::Tanh))),
        Func::Asin => half_power(one_minus_u2(), -1),
        Func::Acos => Expr::negated(half_power(one_minus_u2(), -1)),
        Func::Atan => Expr::recip(Expr::add(vec![Expr::int(1), square(&u())])),
        Func::Asinh => half_power(Expr::add(vec![square(&u()), Expr::int(1)]), -1),
        Func::Acosh => Expr::mul(vec![
            half_power(Expr::add(vec![u(), Expr::int(-1)]), -1),
            half_power(Expr::add(vec![u(), Expr::int(1)]), -1),
        ]),
        Func::Atanh => Expr::recip(one_minus_u2()),
        Func::Exp => call(Func::Exp),
        Func::Log => Expr::recip(u()),
        Func::Sqrt => Expr::mul(vec![Expr::rat(1, 2), half_power(u(), -1)]),
        Func::Erf | Func::Erfc => {
            let sign = if f == Func::Erf { 2 } else { -2 };
            Expr::mul(vec![
                Expr::int(sign),
                half_power(Expr::sym("pi"), -1),
                Expr::call(Func::Exp, Expr::negated(square(&u()))),
            ])
        }
        Func::Gamma => Expr::mul(vec![call(Func::Gamma), call(Func::Digamma)]),
        Func::Digamma => call(Func::Trigamma),
        Func::LambertW => {
            // W / (u·(1 + W))
            let w = call(Func::LambertW);
            Expr::mul(vec![
                w.clone(),
                Expr::recip(Expr::mul(vec![u(), Expr::add(vec![Expr::int(1), w])])),
            ])
        }
        Func::BesselJ0 => Expr::negated(call(Func::BesselJ1)),
        Func::BesselJ1 => Expr::minus(
            call(Func::BesselJ0),
            Expr::mul(vec![call(Func::BesselJ1), Expr::recip(u())]),
        ),
        Func::EllipticK => {
            // (E(m) − (1−m)·K(m)) / (2m(1−m))
            let one_minus = Expr::minus(Expr::int(1), u());
            Expr::mul(vec![
                Expr::minus(
                    call(Func::EllipticE),
                    Expr::mul(vec![one_minus.clone(), call(Func::EllipticK)]),
                ),
                Expr::recip(Expr::mul(vec![Expr::int(2), u(), one_minus])),
            ])
        }
        Func::EllipticE => Expr::mul(vec![
            Expr::minus(call(Func::EllipticE), call(Func::EllipticK)),
            Expr::recip(Expr::mul(vec![Expr::int(2), u()])),
        ]),
        Func::Ei => Expr::mul(vec![call(Func::Exp), Expr::recip(u())]),
        Func::Li => Expr::recip(call(Func::Log)),
        Func::Si => Expr::mul(vec![call(Func::Sin), Expr::recip(u())]),
        Func::Ci => Expr::mul(vec![call(Func::Cos), Expr::recip(u())]),
        Func::Shi => Expr::mul(vec![call(Func::Sinh), Expr::recip(u())]),
        Func::Chi => Expr::mul(vec![call(Func::Cosh), Expr::recip(u())]),
        Func::FresnelS | Func::FresnelC => {
            let g = if f == Func::FresnelS {
                Func::Sin
            } else {
                Func::Cos
            };
            Expr::call(
                g,
                Expr::mul(vec![Expr::rat(1, 2), Expr::sym("pi"), square(&u())]),
            )
        }
        Func::Dilog => Expr::mul(vec![
            Expr::int(-1),
            Expr::call(Func::Log, Expr::minus(Expr::int(1), u())),
            Expr::recip(u()),
        ]),
        Func::Abs
        | Func::Sign
        | Func::Floor
        | Func::Ceil
        | Func::Round
        | Func::Trigamma
        | Func::Atan2
        | Func::EllipticF
        | Func::EllipticPi => return Err(DiffError::NoRule(f.name())),
    })
}

#[cfg(test)]
mod tests {
    use super::super::canon::is_zero;
    use super::super::parse::parse;
    use super::*;

    fn check(f: &str, df: &str) {
        let e = parse(f, &mut Default::default()).unwrap();
        let d = derivative(&e, "x", &mut Budget::standard()).unwrap();
        let want = parse(df, &mut Default::default()).unwrap();
        let residual = Expr::minus(d.clone(), want);
        assert!(
            is_zero(&residual, &mut Budget::standard()).unwrap(),
            "d/dx {f} = {d}, not {df}"
        );
    }

    #[test]
    fn rules() {
        check("x^3 + 2*x", "3*x^2 + 2");
        check("sin(x)*cos(x)", "cos(x)^2 - sin(x)^2");
        check("exp(2*x)", "2*exp(2*x)");
        check("log(x^2+1)", "2*x/(x^2+1)");
        check("1/x", "-x^(-2)");
        check("sqrt(x)", "x^(-1/2)/2");
        check("tan(x)", "1 + tan(x)^2");
        check("atan(x)", "1/(1+x^2)");
        check("y^2", "0");
        check("Si(x)", "sin(x)/x");
        check("erf(x)", "2/sqrt(pi)*exp(-x^2)");
    }

    /// Each partial derivative of the incomplete elliptic integrals against a central
    /// difference quotient of the f64 evaluator, on both sides of φ = π/2 and for negative
    /// parameters.
    #[test]
    fn incomplete_elliptic_partials_match_difference_quotients() {
        use super::super::eval::{Bindings, evaluate};
        let points = [(0.7, 0.3, -0.4), (2.1, -1.5, 0.6), (-0.4, 2.5, 0.2)];
        for text in ["EllipticF(x, y)", "EllipticE(x, y)", "EllipticPi(z, x, y)"] {
            let e = parse(text, &mut Default::default()).unwrap();
            for (x, y, z) in points {
                let at = |dx: f64, dy: f64, dz: f64, e: &Expr| {
                    let b: Bindings = [("x", x + dx), ("y", y + dy), ("z", z + dz)]
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect();
                    evaluate(e, &b, &mut Budget::standard()).unwrap()
                };
                let h = 1e-5;
                for (var, step) in [
                    ("x", (h, 0.0, 0.0)),
                    ("y", (0.0, h, 0.0)),
                    ("z", (0.0, 0.0, h)),
                ] {
                    let d = derivative(&e, var, &mut Budget::standard()).unwrap();
                    let (a, b, c) = step;
                    let quotient = (at(a, b, c, &e) - at(-a, -b, -c, &e)) / (2.0 * h);
                    let exact = at(0.0, 0.0, 0.0, &d);
                    assert!(
                        (exact - quotient).abs() <= 1e-7 * exact.abs().max(1.0),
                        "d/d{var} {text} at {x}, {y}, {z}: {exact} vs {quotient}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_rule_is_an_error() {
        let e = parse("abs(x)", &mut Default::default()).unwrap();
        assert_eq!(
            derivative(&e, "x", &mut Budget::standard()).err(),
            Some(DiffError::NoRule("abs"))
        );
    }
}
