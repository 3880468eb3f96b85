//! The expression tree the recipes work on: what alkahest's parser builds, without its pool.
//!
//! Children are shared (`Rc`), so a derivative that mentions a subexpression twice does not
//! copy it. Every walk over a tree is bounded by a [`Budget`], because sharing makes a tree of
//! a few thousand nodes able to stand for exponentially many.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::fmt;
use std::rc::Rc;

/// A decimal literal (`1.5`, `2e-3`): the text as written, its exact value when it has a
/// reasonable size, and its f64 value (what alkahest's evaluator uses).
#[derive(Debug)]
pub struct Literal {
    /// The literal as written.
    pub text: String,
    /// The exact decimal value, or `None` for an exponent too large to expand exactly.
    pub exact: Option<BigRational>,
    /// The value rounded to f64 (may be infinite or zero for extreme exponents).
    pub value: f64,
}

impl Literal {
    /// The literal of an f64 (written as Python's `repr` writes it).
    pub fn from_f64(value: f64) -> Literal {
        Literal {
            text: sciproof_json::pyfmt::float_repr(value),
            exact: num_rational::BigRational::from_float(value),
            value,
        }
    }
}

/// A node.
#[derive(Debug, Clone)]
pub enum Expr {
    /// An integer literal.
    Int(Rc<BigInt>),
    /// An exact rational (from `cbrt` and the derivative rules, never from the parser).
    Rat(Rc<BigRational>),
    /// A decimal literal.
    Float(Rc<Literal>),
    /// A symbol (`pi`, `e` and `I` included: they are symbols to the parser).
    Sym(Rc<str>),
    /// A sum.
    Add(Rc<[Expr]>),
    /// A product.
    Mul(Rc<[Expr]>),
    /// A power.
    Pow(Rc<(Expr, Expr)>),
    /// A function call.
    Call(Func, Rc<[Expr]>),
}

macro_rules! functions {
    ($($variant:ident $name:literal $lo:literal $hi:literal),* $(,)?) => {
        /// The functions alkahest's parser knows (after desugaring `sec`, `csc`, `cot`, `sech`,
        /// `csch`, `coth` and `cbrt`, which never appear in a tree).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Func { $($variant),* }

        impl Func {
            /// Every function, in declaration order.
            pub const ALL: &'static [Func] = &[$(Func::$variant),*];

            /// The name as written.
            pub fn name(self) -> &'static str {
                match self { $(Func::$variant => $name),* }
            }

            /// The fewest and most arguments.
            pub fn arity(self) -> (usize, usize) {
                match self { $(Func::$variant => ($lo, $hi)),* }
            }
        }
    };
}

functions! {
    Sin "sin" 1 1, Cos "cos" 1 1, Tan "tan" 1 1,
    Sinh "sinh" 1 1, Cosh "cosh" 1 1, Tanh "tanh" 1 1,
    Asin "asin" 1 1, Acos "acos" 1 1, Atan "atan" 1 1,
    Asinh "asinh" 1 1, Acosh "acosh" 1 1, Atanh "atanh" 1 1,
    Atan2 "atan2" 2 2, Exp "exp" 1 1, Log "log" 1 1, Sqrt "sqrt" 1 1,
    Abs "abs" 1 1, Sign "sign" 1 1, Floor "floor" 1 1, Ceil "ceil" 1 1, Round "round" 1 1,
    Erf "erf" 1 1, Erfc "erfc" 1 1, Gamma "gamma" 1 1, LambertW "lambert_w" 1 1,
    Digamma "digamma" 1 1, Trigamma "trigamma" 1 1, BesselJ0 "bessel_j0" 1 1,
    BesselJ1 "bessel_j1" 1 1, EllipticK "EllipticK" 1 1, EllipticE "EllipticE" 1 2,
    EllipticF "EllipticF" 2 2, EllipticPi "EllipticPi" 3 3,
    Ei "Ei" 1 1, Li "li" 1 1, Si "Si" 1 1, Ci "Ci" 1 1, Shi "Shi" 1 1, Chi "Chi" 1 1,
    FresnelS "fresnels" 1 1, FresnelC "fresnelc" 1 1, Dilog "dilog" 1 1,
}

impl Func {
    /// The function named `name`, if the parser knows it.
    pub fn named(name: &str) -> Option<Func> {
        Func::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// Whether it is elementary (trigonometric, hyperbolic, their inverses, `exp`, `log`,
    /// `sqrt`, or a step such as `abs` and `floor`) rather than a special function.
    pub fn elementary(self) -> bool {
        use Func::*;
        matches!(
            self,
            Sin | Cos
                | Tan
                | Sinh
                | Cosh
                | Tanh
                | Asin
                | Acos
                | Atan
                | Asinh
                | Acosh
                | Atanh
                | Atan2
                | Exp
                | Log
                | Sqrt
                | Abs
                | Sign
                | Floor
                | Ceil
                | Round
        )
    }

    /// Whether it is defined and continuous on the whole real line.
    pub fn entire(self) -> bool {
        matches!(
            self,
            Func::Exp
                | Func::Sin
                | Func::Cos
                | Func::Sinh
                | Func::Cosh
                | Func::Tanh
                | Func::Atan
                | Func::Asinh
                | Func::Abs
                | Func::Erf
                | Func::Erfc
                | Func::Si
                | Func::Shi
                | Func::FresnelS
                | Func::FresnelC
                | Func::BesselJ0
                | Func::BesselJ1
        )
    }

    /// Whether `f` is 0 at 0, increasing through it with `f'(0) > 0` and Lipschitz about it
    /// (`m·|u| ≤ |f(u)| ≤ C·|u|` for small `u`, of the sign of `u`): what the limit rules ask of
    /// a function of a vanishing argument.
    pub fn increasing_through_0(self) -> bool {
        matches!(
            self,
            Func::Sin
                | Func::Tan
                | Func::Sinh
                | Func::Tanh
                | Func::Asin
                | Func::Atan
                | Func::Asinh
                | Func::Atanh
                | Func::Erf
                | Func::Si
                | Func::Shi
        )
    }

    /// Whether it is bounded on the real line (where it is defined): `|sin| ≤ 1`,
    /// `|atan| < π/2`, `0 < erfc < 2`, `|Si| < 1.86`, the Fresnel integrals and the Bessel
    /// functions `J0`, `J1` of the first kind.
    pub fn bounded(self) -> bool {
        matches!(
            self,
            Func::Sin
                | Func::Cos
                | Func::Tanh
                | Func::Atan
                | Func::Asin
                | Func::Acos
                | Func::Erf
                | Func::Erfc
                | Func::Si
                | Func::FresnelS
                | Func::FresnelC
                | Func::BesselJ0
                | Func::BesselJ1
        )
    }
}

/// A limit on the work a re-check may do; work that runs out of it gives up (never guesses).
///
/// It is counted in steps, each about half a microsecond of work: a node of a symbolic walk
/// (the exact test, a derivative, an antiderivative) or of 128-bit ball arithmetic is one;
/// a function value at high precision costs what it was measured to cost
/// ([`super::ball`]). A node of f64 arithmetic, some thirty times cheaper, is a tick, a
/// thirty-second of a step. Counting work rather than time keeps every outcome the same on
/// every machine.
///
/// It also bounds how deeply a rule that calls the antiderivative table again may nest in
/// itself ([`Budget::deeper`]): such a cycle makes no progress, and its depth, unlike its
/// steps, is paid for in stack.
#[derive(Debug)]
pub struct Budget {
    ticks: u64,
    /// The levels of [`Budget::deeper`] entered and not left.
    depth: u32,
}

/// The ticks in a step.
const TICKS_PER_STEP: u64 = 32;

/// The walk ran out of its [`Budget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

impl Budget {
    /// The budget of one recipe's whole re-check: far more than any expression a person writes
    /// needs (the heaviest honest recipe met in testing, the exact test of a large rational
    /// function, takes a third of it), small enough that a hostile one ends within about a
    /// second (measured: 0.2 to 0.6 us a step at worst in each part of the work).
    pub fn standard() -> Budget {
        Budget::of_steps(2_000_000)
    }

    /// A budget of `n` steps.
    pub fn of_steps(n: u64) -> Budget {
        Budget {
            ticks: n.saturating_mul(TICKS_PER_STEP),
            depth: 0,
        }
    }

    /// The whole steps left.
    pub fn left(&self) -> u64 {
        self.ticks / TICKS_PER_STEP
    }

    /// Runs `work` on at most `most` of the steps left (a part of the work that must not take
    /// them all); what it used is counted here.
    pub fn share<T>(&mut self, most: u64, work: impl FnOnce(&mut Budget) -> T) -> T {
        let mut own = Budget {
            ticks: self.ticks.min(most.saturating_mul(TICKS_PER_STEP)),
            depth: self.depth,
        };
        let granted = own.ticks;
        let result = work(&mut own);
        self.ticks -= granted - own.ticks;
        result
    }

    /// Runs `work` one level deeper in a recursion bounded to `most` levels; `None` (and
    /// nothing run) at that depth.
    pub fn deeper<T>(&mut self, most: u32, work: impl FnOnce(&mut Budget) -> T) -> Option<T> {
        if self.depth >= most {
            return None;
        }
        self.depth += 1;
        let result = work(self);
        self.depth -= 1;
        Some(result)
    }

    /// Counts `n` steps.
    pub fn steps(&mut self, n: u64) -> Result<(), TooLarge> {
        self.ticks(n.saturating_mul(TICKS_PER_STEP))
    }

    /// Counts one step.
    pub fn step(&mut self) -> Result<(), TooLarge> {
        self.ticks(TICKS_PER_STEP)
    }

    /// Counts `n` ticks (f64 work).
    pub fn ticks(&mut self, n: u64) -> Result<(), TooLarge> {
        if self.ticks < n {
            self.ticks = 0;
            return Err(TooLarge);
        }
        self.ticks -= n;
        Ok(())
    }
}

impl Expr {
    /// An integer.
    pub fn int(n: i64) -> Expr {
        Expr::Int(Rc::new(BigInt::from(n)))
    }

    /// The rational `p/q`.
    pub fn rat(p: i64, q: i64) -> Expr {
        Expr::Rat(Rc::new(BigRational::new(p.into(), q.into())))
    }

    /// A sum (one term is itself).
    pub fn add(mut terms: Vec<Expr>) -> Expr {
        match terms.len() {
            // (no `Add` is ever empty: the evaluators read a sum's first term)
            0 => Expr::int(0),
            1 => terms.pop().expect("one term"),
            _ => Expr::Add(terms.into()),
        }
    }

    /// A product (one factor is itself).
    pub fn mul(mut factors: Vec<Expr>) -> Expr {
        match factors.len() {
            0 => Expr::int(1),
            1 => factors.pop().expect("one factor"),
            _ => Expr::Mul(factors.into()),
        }
    }

    /// `base^exponent`.
    pub fn pow(base: Expr, exponent: Expr) -> Expr {
        Expr::Pow(Rc::new((base, exponent)))
    }

    /// `-x`, as `(-1) * x`.
    pub fn negated(x: Expr) -> Expr {
        Expr::mul(vec![Expr::int(-1), x])
    }

    /// `a - b`.
    pub fn minus(a: Expr, b: Expr) -> Expr {
        Expr::add(vec![a, Expr::negated(b)])
    }

    /// `1 / x`.
    pub fn recip(x: Expr) -> Expr {
        Expr::pow(x, Expr::int(-1))
    }

    /// `f(x)`.
    pub fn call(f: Func, x: Expr) -> Expr {
        Expr::Call(f, vec![x].into())
    }

    /// The symbol `name`.
    pub fn sym(name: &str) -> Expr {
        Expr::Sym(name.into())
    }

    /// The factors of a product with nested products taken apart, appended to `out` (any
    /// other expression is its one factor).
    pub fn flat_factors(&self, out: &mut Vec<Expr>) {
        match self {
            Expr::Mul(xs) => xs.iter().for_each(|x| x.flat_factors(out)),
            _ => out.push(self.clone()),
        }
    }

    /// The terms of a sum with nested sums taken apart, appended to `out` (any other
    /// expression is its one term).
    pub fn flat_terms(&self, out: &mut Vec<Expr>) {
        match self {
            Expr::Add(xs) => xs.iter().for_each(|x| x.flat_terms(out)),
            _ => out.push(self.clone()),
        }
    }

    /// The subtrees one level down: terms, factors, arguments, or a power's base and exponent.
    pub fn children(&self) -> impl Iterator<Item = &Expr> {
        let (list, pair): (&[Expr], Option<&(Expr, Expr)>) = match self {
            Expr::Add(xs) | Expr::Mul(xs) | Expr::Call(_, xs) => (xs, None),
            Expr::Pow(p) => (&[], Some(p)),
            Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) | Expr::Sym(_) => (&[], None),
        };
        list.iter()
            .chain(pair.into_iter().flat_map(|p| [&p.0, &p.1]))
    }

    /// The factors of the product with their integer powers, products and integer powers
    /// (up to 2^20) taken apart: `(x·y^2)^-1·z` is `x^-1`, `y^-2`, `z`.
    pub fn power_factors(&self, budget: &mut Budget) -> Result<Vec<(Expr, i64)>, TooLarge> {
        fn gather(
            e: &Expr,
            n: i64,
            out: &mut Vec<(Expr, i64)>,
            budget: &mut Budget,
        ) -> Result<(), TooLarge> {
            budget.step()?;
            let power = match e {
                Expr::Pow(p) => exact_value(&p.1)
                    .filter(BigRational::is_integer)
                    .and_then(|m| m.to_integer().to_i64())
                    .and_then(|m| m.checked_mul(n))
                    .filter(|m| m.abs() <= 1 << 20),
                _ => None,
            };
            match (e, power) {
                (Expr::Mul(xs), _) => {
                    for x in xs.iter() {
                        gather(x, n, out, budget)?;
                    }
                }
                (Expr::Pow(p), Some(m)) => gather(&p.0, m, out, budget)?,
                (e, _) => out.push((e.clone(), n)),
            }
            Ok(())
        }
        let mut out = Vec::new();
        gather(self, 1, &mut out, budget)?;
        Ok(out)
    }

    /// Whether the two trees are the same, node for node (numbers by value, decimals as
    /// written).
    pub fn identical(&self, other: &Expr, budget: &mut Budget) -> Result<bool, TooLarge> {
        budget.step()?;
        let all = |xs: &[Expr], ys: &[Expr], budget: &mut Budget| -> Result<bool, TooLarge> {
            if xs.len() != ys.len() {
                return Ok(false);
            }
            for (x, y) in xs.iter().zip(ys) {
                if !x.identical(y, budget)? {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        Ok(match (self, other) {
            (Expr::Int(a), Expr::Int(b)) => a == b,
            (Expr::Rat(a), Expr::Rat(b)) => a == b,
            (Expr::Float(a), Expr::Float(b)) => a.text == b.text,
            (Expr::Sym(a), Expr::Sym(b)) => a == b,
            (Expr::Add(xs), Expr::Add(ys)) | (Expr::Mul(xs), Expr::Mul(ys)) => all(xs, ys, budget)?,
            (Expr::Pow(p), Expr::Pow(q)) => {
                p.0.identical(&q.0, budget)? && p.1.identical(&q.1, budget)?
            }
            (Expr::Call(f, xs), Expr::Call(g, ys)) => f == g && all(xs, ys, budget)?,
            _ => false,
        })
    }

    /// Whether `var` occurs in the tree.
    pub fn contains(&self, var: &str, budget: &mut Budget) -> Result<bool, TooLarge> {
        budget.step()?;
        Ok(match self {
            Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) => false,
            Expr::Sym(s) => &**s == var,
            Expr::Add(xs) | Expr::Mul(xs) | Expr::Call(_, xs) => {
                for x in xs.iter() {
                    if x.contains(var, budget)? {
                        return Ok(true);
                    }
                }
                false
            }
            Expr::Pow(p) => p.0.contains(var, budget)? || p.1.contains(var, budget)?,
        })
    }

    /// The tree with the symbol `var` replaced by `by`.
    pub fn substitute(&self, var: &str, by: &Expr, budget: &mut Budget) -> Result<Expr, TooLarge> {
        budget.step()?;
        let all = |xs: &[Expr], budget: &mut Budget| -> Result<Rc<[Expr]>, TooLarge> {
            xs.iter().map(|x| x.substitute(var, by, budget)).collect()
        };
        Ok(match self {
            Expr::Sym(s) if &**s == var => by.clone(),
            Expr::Int(_) | Expr::Rat(_) | Expr::Float(_) | Expr::Sym(_) => self.clone(),
            Expr::Add(xs) => Expr::Add(all(xs, budget)?),
            Expr::Mul(xs) => Expr::Mul(all(xs, budget)?),
            Expr::Call(f, xs) => Expr::Call(*f, all(xs, budget)?),
            Expr::Pow(p) => Expr::pow(
                p.0.substitute(var, by, budget)?,
                p.1.substitute(var, by, budget)?,
            ),
        })
    }
}

/// The exact value of an expression made of numbers only (`2 + -1`, `1/2`, `1.5`); `None`
/// when it has a symbol or a function, or a power that is not a small integer one.
pub fn exact_value(e: &Expr) -> Option<BigRational> {
    Some(match e {
        Expr::Int(n) => BigRational::from_integer((**n).clone()),
        Expr::Rat(r) => (**r).clone(),
        Expr::Float(l) => l.exact.clone()?,
        Expr::Add(xs) => xs.iter().map(exact_value).sum::<Option<BigRational>>()?,
        Expr::Mul(xs) => xs
            .iter()
            .map(exact_value)
            .product::<Option<BigRational>>()?,
        Expr::Pow(p) => {
            let base = exact_value(&p.0)?;
            let n = exact_value(&p.1)?;
            if !n.is_integer()
                || n.abs() > BigRational::from_integer(64.into())
                || (base.is_zero() && n.is_negative())
            {
                return None;
            }
            let k = n.to_integer().to_i32()?;
            if base.numer().bits().max(base.denom().bits()) * u64::from(k.unsigned_abs()) > 1 << 16
            {
                return None;
            }
            num_traits::pow::Pow::pow(&base, k)
        }
        _ => return None,
    })
}

impl fmt::Display for Expr {
    /// A readable form for details (`(x + 1)^2`); not alkahest's printer, whose output depends
    /// on its pool.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Int(n) => write!(f, "{n}"),
            Expr::Rat(r) => write!(f, "{}/{}", r.numer(), r.denom()),
            Expr::Float(l) => f.write_str(&l.text),
            Expr::Sym(s) => f.write_str(s),
            Expr::Add(xs) => list(f, xs, " + "),
            Expr::Mul(xs) => list(f, xs, " * "),
            Expr::Pow(p) => {
                let atomic = |e: &Expr| {
                    matches!(
                        e,
                        Expr::Sym(_) | Expr::Call(..) | Expr::Add(_) | Expr::Mul(_)
                    ) || matches!(e, Expr::Int(n) if n.sign() != num_bigint::Sign::Minus)
                };
                if atomic(&p.0) {
                    write!(f, "{}", p.0)?;
                } else {
                    write!(f, "({})", p.0)?;
                }
                f.write_str("^")?;
                if atomic(&p.1) || matches!(p.1, Expr::Int(_)) {
                    write!(f, "{}", p.1)
                } else {
                    write!(f, "({})", p.1)
                }
            }
            Expr::Call(func, xs) => {
                f.write_str(func.name())?;
                f.write_str("(")?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

fn list(f: &mut fmt::Formatter<'_>, xs: &[Expr], sep: &str) -> fmt::Result {
    f.write_str("(")?;
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write!(f, "{x}")?;
    }
    f.write_str(")")
}

#[cfg(test)]
mod tests {
    use super::{Budget, Expr};
    use crate::graph::recipe::expression::{ball, eval};

    #[test]
    fn empty_sums_and_products_are_numbers() {
        // Every evaluator reads a sum's first term: an empty one must never be built.
        let point = eval::Bindings::new();
        for (e, v) in [(Expr::add(Vec::new()), 0.0), (Expr::mul(Vec::new()), 1.0)] {
            assert_eq!(eval::evaluate(&e, &point, &mut Budget::standard()), Ok(v));
            let b = ball::Evaluator::new(128, &point)
                .ball(&e, &mut Budget::standard())
                .unwrap();
            assert!(
                b.lower() <= v && v <= b.upper() && b.radius() < 1e-290,
                "{b:?}"
            );
        }
    }

    #[test]
    fn a_share_of_the_budget_is_bounded_and_counted() {
        let mut budget = Budget::of_steps(100);
        let taken = budget.share(30, |b| (0..50).take_while(|_| b.step().is_ok()).count());
        assert_eq!((taken, budget.left()), (30, 70));
        let taken = budget.share(30, |b| (0..10).take_while(|_| b.step().is_ok()).count());
        assert_eq!((taken, budget.left()), (10, 60));
        // (never more than is left)
        let mut budget = Budget::of_steps(5);
        let taken = budget.share(30, |b| (0..50).take_while(|_| b.step().is_ok()).count());
        assert_eq!((taken, budget.left()), (5, 0));
    }
}
