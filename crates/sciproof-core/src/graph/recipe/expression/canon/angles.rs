//! Sums of angles given by inverse trigonometric functions of numbers and a multiple of π:
//! `Σ cᵢ·f aᵢ + r·π = 0` for `f` among `atan`, `asin` and `acos`.
//!
//! The arctangent of a number stays an atom keyed by its argument (only the tangents of
//! multiples of π/12 are written as their angles), so one angle written two ways is two
//! unknowns: `2·atan(3 + √8)` and `π/2 + atan √8`, which the bounds of `∫ sqrt(x² − 1)/x dx`
//! give when alkahest's antiderivative `sqrt(x² − 1) − 2·atan(x + sqrt(x² − 1))` meets ours;
//! or `asin(√2/4)` and `atan(1/√7)`.
//!
//! Each angle is the argument of a complex number with a positive modulus: `atan a` of
//! `1 + i·a` (its real part is positive), `asin a` of `√(1 − a²) + i·a` and `acos a` of
//! `a + i·√(1 − a²)` (for `|a| ≤ 1`, where they have a value), so the argument of
//! `Π zᵢ^nᵢ` is `Σ nᵢ·f aᵢ` up to a multiple of 2π. With the coefficients made coprime
//! integers `nᵢ` (the group scaled, its `r` with it) and scaled further until `t = −r` is a
//! multiple of π/12, the product turned back by `t·π` (times `1 − i` for each quarter turn and
//! `√3 − i` for each twelfth) is real exactly when `Σ nᵢ·f aᵢ − t·π` is a multiple of π; its
//! imaginary part is a number of the form, decided zero as any identity is. Which multiple a
//! ball settles: a rigorous enclosure of `Σ nᵢ·f aᵢ − t·π` below 3 in magnitude leaves only
//! 0 (an argument outside `[−1, 1]` has no ball, and nothing is shown). Nothing here is
//! numeric but that choice among the values the exact part has left possible; an argument
//! with a symbol in it (`pi` included) leaves the form as it was.

use super::logarithms::exponents;
use super::{Canon, Frac, NotExact, constant, negated};
use crate::graph::recipe::expression::ball::Evaluator;
use crate::graph::recipe::expression::eval::Bindings;
use crate::graph::recipe::expression::expr::{Expr, Func};
use crate::graph::recipe::expression::integrate::number;
use crate::graph::recipe::expression::rational::Q;
use num_integer::Integer;

/// The precision of the ball that picks the multiple of π.
const ANGLE_BITS: usize = 128;

/// The largest power of an angle's complex number multiplied out (after a group's coefficients
/// are made integers, and multiplied once more to bring its multiple of π to twelfths).
const MAX_ANGLE_POWER: i64 = 24;

impl Canon<'_> {
    /// Whether `Σ c·f a + pi·π = 0` for the atoms `angles` (each `atan`, `asin` or `acos` of a
    /// number) with their coefficients `c` (see the module documentation). `Ok(false)` means
    /// "not shown".
    pub(super) fn angles_cancel(&mut self, angles: &[(u32, Q)], pi: &Q) -> Result<bool, NotExact> {
        let Some((mut integers, scale)) = exponents(angles) else {
            return Ok(false);
        };
        // Σ n·f a (the sum scaled) must be t·π; when t is not a multiple of π/12, the sum
        // is scaled further until it is
        let mut t = -(pi * &scale);
        let Q::Small(_, d) = t else {
            return Ok(false);
        };
        let further = d / d.gcd(&12);
        if further > 1 {
            for (_, n) in &mut integers {
                *n *= further;
            }
            t = &t * &Q::int(further);
        }
        if integers.iter().any(|(_, n)| n.abs() > MAX_ANGLE_POWER) {
            return Ok(false);
        }
        let Q::Small(p, d) = &t * &Q::int(12) else {
            return Ok(false);
        };
        debug_assert_eq!(d, 1);
        // Π z^n turned back by t·π modulo π, as (real part, imaginary part)
        let mut product = self.turned_back(p.rem_euclid(12))?;
        let mut sum = Vec::with_capacity(integers.len() + 1);
        for &(angle, n) in &integers {
            let Some(func) = self.called(angle) else {
                return Ok(false);
            };
            let a = self.argument(angle);
            let Some(number) = self.frac_expr(&a) else {
                return Ok(false);
            };
            let cosine = || {
                let square = Expr::pow(number.clone(), Expr::int(2));
                Expr::call(Func::Sqrt, Expr::minus(Expr::int(1), square))
            };
            let (re, im) = match func {
                Func::Atan => (constant(Q::one()), a),
                Func::Asin => (self.frac(&cosine())?, a),
                Func::Acos => (a, self.frac(&cosine())?),
                _ => return Ok(false),
            };
            sum.push(Expr::mul(vec![Expr::int(n), Expr::call(func, number)]));
            // z^−1 points where its conjugate does, which keeps the product free of
            // denominators
            let z = (re, if n < 0 { negated(im) } else { im });
            for _ in 0..n.unsigned_abs() {
                product = self.complex_mul(product, z.clone())?;
            }
        }
        // real: Σ n·f a − t·π is a multiple of π, and it is 0 when it is below π
        if !self.number_is_zero(product.1)? {
            return Ok(false);
        }
        sum.push(Expr::mul(vec![number(&(-t).to_big()), Expr::sym("pi")]));
        let bindings = Bindings::new();
        let mut evaluator = Evaluator::new(ANGLE_BITS, &bindings);
        Ok(evaluator
            .ball(&Expr::add(sum), &mut *self.budget)
            .is_ok_and(|b| b.upper() < 3.0))
    }

    /// A complex number (with a positive modulus) whose argument is `−j·π/12`: `(1 − i)` for
    /// each quarter turn back and `(√3 − i)` for each twelfth of a turn back.
    fn turned_back(&mut self, j: i64) -> Result<(Frac, Frac), NotExact> {
        let quarter = (constant(Q::one()), constant(-Q::one()));
        let mut z = (constant(Q::one()), constant(Q::zero()));
        // j·π/12 = (j/3)·π/4, (j/2)·π/6, or π/4 + ((j − 3)/2)·π/6, modulo π (six sixths): for
        // j = 1, π/4 + 5·π/6 (a sixth forward is five back; turning back by π/4 alone took a
        // sum of π/4 for one of π/12)
        let (quarters, sixths) = match j {
            j if j % 3 == 0 => (j / 3, 0),
            j if j % 2 == 0 => (0, j / 2),
            j => (1, ((j - 3) / 2).rem_euclid(6)),
        };
        for _ in 0..quarters {
            z = self.complex_mul(z, quarter.clone())?;
        }
        if sixths > 0 {
            let root = self.frac(&Expr::call(Func::Sqrt, Expr::int(3)))?;
            let sixth = (root, constant(-Q::one()));
            for _ in 0..sixths {
                z = self.complex_mul(z, sixth.clone())?;
            }
        }
        Ok(z)
    }

    /// `(a + i·b)(c + i·d) = (ac − bd) + i(ad + bc)`.
    fn complex_mul(
        &mut self,
        (a, b): (Frac, Frac),
        (c, d): (Frac, Frac),
    ) -> Result<(Frac, Frac), NotExact> {
        let ac = self.frac_mul(a.clone(), c.clone())?;
        let bd = self.frac_mul(b.clone(), d.clone())?;
        let ad = self.frac_mul(a, d)?;
        let bc = self.frac_mul(b, c)?;
        Ok((self.frac_add(ac, negated(bd))?, self.frac_add(ad, bc)?))
    }
}
