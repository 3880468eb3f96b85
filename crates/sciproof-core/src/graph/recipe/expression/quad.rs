//! Adaptive Gauss–Kronrod quadrature, for definite integrals without an antiderivative that is
//! known to be continuous on the interval (see [`super::integrate`]). It gives at most
//! `numeric_ok`, never `ok`.

use super::ball::Evaluator;
use super::eval::{Bindings, EvalError, evaluate};
use super::expr::{Budget, Expr};

/// A quadrature result: the value and an estimate of its error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quadrature {
    /// The integral.
    pub value: f64,
    /// The estimated absolute error.
    pub error: f64,
}

/// Why quadrature gave no value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QuadError {
    /// The integrand has no finite value at this point of the interval.
    Singular(f64),
    /// The estimate did not settle (a pole or a violent oscillation): no value.
    NoConvergence,
    /// The integrand could not be evaluated (a function this build cannot evaluate there).
    Evaluation(EvalError),
}

const NODES: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
const KRONROD: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_2,
    0.140_653_259_715_525_9,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_728_8,
];
const GAUSS: [f64; 4] = [
    0.129_484_966_168_869_7,
    0.279_705_391_489_276_7,
    0.381_830_050_505_118_9,
    0.417_959_183_673_469_4,
];

/// The integral of `integrand` in `var` from `a` to `b` at `bindings`, to an absolute accuracy
/// of about `accuracy`.
pub fn integrate(
    integrand: &Expr,
    var: &str,
    a: f64,
    b: f64,
    bindings: &Bindings,
    accuracy: f64,
    budget: &mut Budget,
) -> Result<Quadrature, QuadError> {
    let mut point = bindings.clone();
    let step = (b - a).abs() * 2f64.powi(-30);
    let mut f = |t: f64| -> Result<f64, QuadError> {
        point.insert(var.to_string(), t);
        match evaluate(integrand, &point, budget) {
            Ok(v) => Ok(v),
            Err(EvalError::Domain | EvalError::NotFinite) => {
                limit(integrand, var, t, step, &point, budget).ok_or(QuadError::Singular(t))
            }
            Err(e) => Err(QuadError::Evaluation(e)),
        }
    };
    // The whole interval is never taken on its own estimate: a Gauss–Kronrod rule is symmetric
    // about the centre, so an integrand odd about it (`tan x` on [−π/2, π/2], `1/x − 1/(1 − x)`
    // on [0, 1]) cancels to 0 with an error estimate of 0 even where the integral does not
    // exist. Its halves each have an end where the integrand is finite (the centre, evaluated
    // here), so such cancellation cannot repeat, and a half that diverges never settles.
    let middle = 0.5 * (a + b);
    let mut pieces = if a == b {
        vec![kronrod(&mut f, a, b)?]
    } else if strictly_between(middle, a, b) {
        f(middle)?;
        vec![kronrod(&mut f, a, middle)?, kronrod(&mut f, middle, b)?]
    } else {
        return Err(QuadError::NoConvergence);
    };
    for _ in 0..2000 {
        let (value, error): (f64, f64) = pieces
            .iter()
            .fold((0.0, 0.0), |(v, e), p| (v + p.1, e + p.2));
        if error <= accuracy.max(1e-13 * value.abs()) {
            // Rounding in the sum itself is part of the error.
            let magnitude: f64 = pieces.iter().map(|p| p.3).sum();
            return Ok(Quadrature {
                value,
                error: error + 64.0 * f64::EPSILON * magnitude,
            });
        }
        let (worst, _) = pieces
            .iter()
            .enumerate()
            .max_by(|x, y| x.1.2.total_cmp(&y.1.2))
            .expect("a piece");
        let (lo, _, _, _, hi) = pieces.swap_remove(worst);
        let mid = 0.5 * (lo + hi);
        if !strictly_between(mid, lo, hi) {
            return Err(QuadError::NoConvergence);
        }
        pieces.push(kronrod(&mut f, lo, mid)?);
        pieces.push(kronrod(&mut f, mid, hi)?);
    }
    Err(QuadError::NoConvergence)
}

/// The value the integrand tends to at `t`, where it has none (`sin(x)/x` at 0, a node of every
/// interval symmetric about 0): its 128-bit balls at `t ± δ` and `t ± 2δ` (`δ` = `step`, the
/// interval's width over 2^30), when all four agree to a relative 10^-6, and their mean at
/// `t ± δ` (whose first-order terms cancel). A pole (`1/x`, `1/x²`: the values at δ and 2δ
/// differ by a factor), a jump (`sign`) or a logarithm (`log |x|`) disagrees, and stays a point
/// with no value. This is numeric evidence as the rest of quadrature is; the validated
/// enclosure bounds such a point on its own terms ([`super::enclosure`]).
fn limit(
    integrand: &Expr,
    var: &str,
    t: f64,
    step: f64,
    bindings: &Bindings,
    budget: &mut Budget,
) -> Option<f64> {
    let mut point = bindings.clone();
    let mut at = |x: f64| -> Option<f64> {
        if !x.is_finite() || x == t {
            return None;
        }
        // (a point binding, not `Evaluator::over`, whose ball of a point is as wide as a
        // relative 10^-15: the 1 − cos x of `(1 − cos x)/x²` then loses every digit)
        point.insert(var.to_string(), x);
        let v = Evaluator::new(128, &point).ball(integrand, budget).ok()?;
        (v.radius() <= 1e-9 * (1.0 + v.approx().abs())).then_some(v.approx())
    };
    let values = [
        at(t + step)?,
        at(t - step)?,
        at(t + 2.0 * step)?,
        at(t - 2.0 * step)?,
    ];
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (high - low <= 1e-6 * (1.0 + largest)).then_some(0.5 * (values[0] + values[1]))
}

/// Whether `m` lies strictly between `a` and `b`, in either order (an upper bound below the
/// lower one integrates backwards).
fn strictly_between(m: f64, a: f64, b: f64) -> bool {
    a.min(b) < m && m < a.max(b)
}

/// One Gauss–Kronrod 7–15 step on `[a, b]`: (a, K15, |K15 − G7|, ∫|f|, b).
fn kronrod(
    f: &mut impl FnMut(f64) -> Result<f64, QuadError>,
    a: f64,
    b: f64,
) -> Result<(f64, f64, f64, f64, f64), QuadError> {
    let (c, h) = (0.5 * (a + b), 0.5 * (b - a));
    let centre = f(c)?;
    let (mut k, mut g, mut abs) = (
        KRONROD[7] * centre,
        GAUSS[3] * centre,
        KRONROD[7] * centre.abs(),
    );
    for i in 0..7 {
        let (x1, x2) = (f(c - h * NODES[i])?, f(c + h * NODES[i])?);
        k += KRONROD[i] * (x1 + x2);
        abs += KRONROD[i] * (x1.abs() + x2.abs());
        if i % 2 == 1 {
            g += GAUSS[i / 2] * (x1 + x2);
        }
    }
    Ok((a, k * h, ((k - g) * h).abs(), abs * h.abs(), b))
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    fn quad(f: &str, a: f64, b: f64) -> Result<Quadrature, QuadError> {
        let e = parse(f, &mut Default::default()).unwrap();
        integrate(
            &e,
            "x",
            a,
            b,
            &Bindings::new(),
            1e-12,
            &mut Budget::standard(),
        )
    }

    #[test]
    fn smooth_integrals_converge() {
        let q = quad("1/(2+cos(x))", 0.0, 2.0 * std::f64::consts::PI).unwrap();
        assert!(
            (q.value - 2.0 * std::f64::consts::PI / 3f64.sqrt()).abs() < 1e-12,
            "{q:?}"
        );
        let q = quad("x^2", 0.0, 3.0).unwrap();
        assert!((q.value - 9.0).abs() < 1e-13);
    }

    #[test]
    fn a_point_with_a_limit_but_no_value_takes_the_limit() {
        for (f, a, b, value) in [
            ("(1-cos(x))/x^2", -1.0, 1.0, 0.972_770_752_470_645_5),
            ("(exp(x)-1)/x", -1.0, 1.0, 2.114_501_750_751_457),
            ("log(1+x)/x", -0.5, 0.5, 1.030_654_733_388_658_7),
        ] {
            let q = quad(f, a, b).unwrap_or_else(|e| panic!("{f}: {e:?}"));
            assert!((q.value - value).abs() < 1e-12, "{f}: {q:?}");
        }
    }

    #[test]
    fn poles_inside_give_no_value() {
        for (f, a, b) in [
            ("1/x^2", -1.0, 1.0),
            ("1/x^3", -1.0, 1.0),
            ("1/(x-1)^2", 0.0, 2.0),
            ("1/x^2", -2.0, 1.0),
        ] {
            assert!(quad(f, a, b).is_err(), "{f} on [{a}, {b}]");
        }
    }

    #[test]
    fn odd_integrands_with_poles_at_the_ends_do_not_cancel_to_a_value() {
        let half_pi = std::f64::consts::FRAC_PI_2;
        for (f, a, b) in [
            ("tan(x)", -half_pi, half_pi),
            ("1/x - 1/(1-x)", 0.0, 1.0),
            ("x/(1-x^2)", -1.0, 1.0),
            ("1/(1-x) - 1/(1+x)", -1.0, 1.0),
        ] {
            assert!(quad(f, a, b).is_err(), "{f} on [{a}, {b}]");
        }
        // Their bounded odd twins still do.
        for (f, a, b, value) in [
            ("x^3", -1.0, 1.0, 0.0),
            ("sin(x)", -half_pi, half_pi, 0.0),
            ("x*cos(x)^2", -2.0, 2.0, 0.0),
        ] {
            let q = quad(f, a, b).unwrap();
            assert!((q.value - value).abs() <= 1e-9, "{f}: {q:?}");
        }
    }

    #[test]
    fn backward_intervals_subdivide_like_forward_ones() {
        // (each needs pieces smaller than the whole interval)
        for (f, a, b) in [("sqrt(x)", 0.0, 1.0), ("sin(30*x)*x^x", 0.0, 2.0)] {
            let forward = quad(f, a, b).unwrap();
            let backward = quad(f, b, a).unwrap();
            assert!(
                (forward.value + backward.value).abs() <= 1e-12,
                "{f}: {forward:?} {backward:?}"
            );
        }
        assert!(quad("1/(x-1/3)^2", 1.0, 0.0).is_err());
        assert_eq!(quad("x^x", 1.0, 1.0).unwrap().value, 0.0);
    }
}
