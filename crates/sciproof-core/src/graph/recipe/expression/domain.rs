//! Where each function of one argument has a real value: the one table that the evaluator at a
//! point ([`super::eval::call`]), the ball that shows a call defined
//! ([`super::ball::Evaluator::defined`]) and the integral over a stretch with no real value
//! ([`super::integrate::no_real_value`]) all read, so that they cannot disagree.

use super::ball::Ball;
use super::expr::Func;

/// The real domain of a function of one argument, as alkahest's numeric rule evaluates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RealDomain {
    /// The whole line: the entire functions and the steps (`abs`, `sign`, `floor`, ...).
    Line,
    /// `x > 0`: `log`, `Ci`, `Chi`.
    Positive,
    /// `x ≥ 0`: `sqrt` (and a fractional power's base).
    NonNegative,
    /// `x ≥ 0`, `x ≠ 1`: `li` (`li(0) = 0`, as alkahest evaluates it).
    NonNegativeButOne,
    /// `x ≠ 0`: `Ei`.
    NonZero,
    /// `−1 ≤ x ≤ 1`: `asin`, `acos`.
    ClosedUnit,
    /// `−1 < x < 1`: `atanh`.
    OpenUnit,
    /// `x ≥ 1`: `acosh`.
    FromOne,
    /// `x ≤ 1`: `dilog`.
    UpToOne,
    /// `x ≥ −1/e`: `lambert_w`, its principal branch.
    FromBranchPoint,
    /// Everywhere but the poles at 0, −1, −2, ...: `gamma`, `digamma`, `trigamma`.
    BesidePoles,
    /// Decided by the function's own evaluator: `tan` (its poles are never a float), `atan2`
    /// and the elliptic integrals (of more than one argument, or with their own limits).
    Own,
}

impl RealDomain {
    /// The domain of `f`.
    pub fn of(f: Func) -> RealDomain {
        use Func::*;
        match f {
            Sin | Cos | Sinh | Cosh | Tanh | Atan | Asinh | Exp | Abs | Sign | Floor | Ceil
            | Round | Erf | Erfc | BesselJ0 | BesselJ1 | Si | Shi | FresnelS | FresnelC => {
                RealDomain::Line
            }
            Log | Ci | Chi => RealDomain::Positive,
            Sqrt => RealDomain::NonNegative,
            Li => RealDomain::NonNegativeButOne,
            Ei => RealDomain::NonZero,
            Asin | Acos => RealDomain::ClosedUnit,
            Atanh => RealDomain::OpenUnit,
            Acosh => RealDomain::FromOne,
            Dilog => RealDomain::UpToOne,
            LambertW => RealDomain::FromBranchPoint,
            Gamma | Digamma | Trigamma => RealDomain::BesidePoles,
            Tan | Atan2 | EllipticK | EllipticE | EllipticF | EllipticPi => RealDomain::Own,
        }
    }

    /// Whether the point `x` lies in the domain (a NaN lies in none but the whole line and
    /// the poles' complement, where the value is then NaN as well).
    pub fn contains(self, x: f64) -> bool {
        match self {
            RealDomain::Line | RealDomain::Own => true,
            RealDomain::Positive => x > 0.0,
            RealDomain::NonNegative => x >= 0.0,
            RealDomain::NonNegativeButOne => x >= 0.0 && x != 1.0,
            RealDomain::NonZero => x != 0.0,
            RealDomain::ClosedUnit => (-1.0..=1.0).contains(&x),
            RealDomain::OpenUnit => x > -1.0 && x < 1.0,
            RealDomain::FromOne => x >= 1.0,
            RealDomain::UpToOne => x <= 1.0,
            RealDomain::FromBranchPoint => x >= -1.0 / std::f64::consts::E,
            RealDomain::BesidePoles => !(x <= 0.0 && x == x.floor()),
        }
    }

    /// Whether every value in `ball` lies outside the domain, for the domains that leave out
    /// a whole stretch of the line (false for the rest, which decide nothing here).
    pub fn excludes<M>(self, ball: &Ball<M>) -> bool {
        match self {
            RealDomain::Positive | RealDomain::NonNegative | RealDomain::NonNegativeButOne => {
                ball.below(0.0)
            }
            RealDomain::ClosedUnit | RealDomain::OpenUnit => ball.above(1.0) || ball.below(-1.0),
            RealDomain::FromOne => ball.below(1.0),
            RealDomain::UpToOne => ball.above(1.0),
            RealDomain::FromBranchPoint => ball.below(-1.0 / std::f64::consts::E),
            RealDomain::Line | RealDomain::NonZero | RealDomain::BesidePoles | RealDomain::Own => {
                false
            }
        }
    }

    /// The stretch [`RealDomain::excludes`] finds, in words after the function's name
    /// (`"of a negative number"`), for the domains that leave one out.
    pub fn stretch_left_out(self) -> Option<&'static str> {
        match self {
            RealDomain::Positive | RealDomain::NonNegative | RealDomain::NonNegativeButOne => {
                Some("of a negative number")
            }
            RealDomain::ClosedUnit | RealDomain::OpenUnit => Some("of a number beyond ±1"),
            RealDomain::FromOne => Some("of a number below 1"),
            RealDomain::UpToOne => Some("of a number above 1"),
            RealDomain::FromBranchPoint => Some("of a number below −1/e"),
            RealDomain::Line | RealDomain::NonZero | RealDomain::BesidePoles | RealDomain::Own => {
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_line_is_the_entire_functions_and_the_steps() {
        use Func::*;
        for &f in Func::ALL {
            let step = matches!(f, Sign | Floor | Ceil | Round);
            assert_eq!(
                RealDomain::of(f) == RealDomain::Line,
                f.entire() || step,
                "{f:?}"
            );
        }
    }

    #[test]
    fn points_at_the_edges() {
        let cases = [
            (Func::Log, 0.0, false),
            (Func::Sqrt, 0.0, true),
            (Func::Sqrt, -1e-300, false),
            (Func::Li, 0.0, true),
            (Func::Li, 1.0, false),
            (Func::Ei, 0.0, false),
            (Func::Asin, -1.0, true),
            (Func::Atanh, 1.0, false),
            (Func::Acosh, 1.0, true),
            (Func::Dilog, 1.0, true),
            (Func::Dilog, 1.0 + 1e-15, false),
            (Func::LambertW, -1.0 / std::f64::consts::E, true),
            (Func::LambertW, -0.37, false),
            (Func::Gamma, -2.0, false),
            (Func::Gamma, -2.5, true),
            (Func::Log, f64::NAN, false),
            (Func::Sin, f64::NAN, true),
        ];
        for (f, x, inside) in cases {
            assert_eq!(RealDomain::of(f).contains(x), inside, "{f:?} at {x}");
        }
    }
}
