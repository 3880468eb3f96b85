//! The exact zero test: an expression brought to one fraction of expanded polynomials with
//! exact rational coefficients over *atoms* (symbols, function applications with canonical
//! arguments, non-integer powers), like terms combined. No floating point is involved.
//!
//! Only identity-preserving rewrites are used (where both sides are defined): sums and
//! products are expanded, integer powers multiplied out, `x^(k+f)` split into `x^k·x^(1/f)`,
//! `sqrt(u)` read as `u^(1/2)`, and `sin(u)^2` replaced by `1 − cos(u)^2` (and `cosh(u)^2` by
//! `1 + sinh(u)^2`). Never `sqrt(x^2) → x`, `log(ab) → log a + log b` or `(a^b)^c → a^(bc)`.
//! Atoms are treated as independent unknowns, so a numerator that expands to the zero
//! polynomial is zero wherever the expression is defined: that, and only that, is `ok`.
//!
//! A form that would grow past a size limit is abandoned (the numeric rule decides instead).

use super::expr::{Budget, Expr, Func, TooLarge};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::{BTreeMap, HashMap};

/// The most terms a polynomial may have before the exact test gives up.
const MAX_TERMS: usize = 4096;
/// The largest integer power of a sum that is multiplied out.
const MAX_POWER: i64 = 64;

/// Why no canonical form was produced (the exact test then decides nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotExact {
    /// It would be too large.
    TooLarge,
    /// A division by something that is identically zero.
    Undefined,
}

impl From<TooLarge> for NotExact {
    fn from(_: TooLarge) -> NotExact {
        NotExact::TooLarge
    }
}

type Mono = Vec<(u32, i64)>;

#[derive(Debug, Clone, PartialEq, Default)]
struct Poly(BTreeMap<Mono, BigRational>);

#[derive(Debug, Clone)]
struct Frac {
    num: Poly,
    /// `None` stands for 1.
    den: Option<Poly>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trig {
    Sin,
    Cos,
    Sinh,
    Cosh,
}

struct Atom {
    key: String,
    /// For `B^(p/q)` with a one-term `B = c·m`: `(p, q, m, c)`, so that `a^q = B^p` can be used.
    root: Option<(i64, i64, Mono, BigRational)>,
    /// For `sin`/`cos`/`sinh`/`cosh` atoms: which, and the key of the argument.
    trig: Option<(Trig, String)>,
}

/// One canonicalisation: the table of atoms met so far, and a work budget.
pub struct Canon<'b> {
    atoms: Vec<Atom>,
    ids: HashMap<String, u32>,
    budget: &'b mut Budget,
}

/// Whether `expr` is identically zero by the exact test. `Ok(false)` means "not shown", not
/// "nonzero".
pub fn is_zero(expr: &Expr, budget: &mut Budget) -> Result<bool, NotExact> {
    let mut canon = Canon {
        atoms: Vec::new(),
        ids: HashMap::new(),
        budget,
    };
    let form = canon.frac(expr)?;
    let num = canon.pythagoras(form.num)?;
    let num = canon.radicals(num)?;
    Ok(num.0.is_empty())
}

impl Poly {
    fn constant(c: BigRational) -> Poly {
        let mut p = Poly::default();
        if !c.is_zero() {
            p.0.insert(Vec::new(), c);
        }
        p
    }

    fn monomial(m: Mono, c: BigRational) -> Poly {
        let mut p = Poly::default();
        p.0.insert(m, c);
        p
    }

    /// The value, if this is a constant.
    fn as_constant(&self) -> Option<BigRational> {
        match self.0.len() {
            0 => Some(BigRational::zero()),
            1 => self.0.get(&Vec::new()).cloned(),
            _ => None,
        }
    }

    fn add_term(&mut self, m: Mono, c: BigRational) {
        use std::collections::btree_map::Entry;
        match self.0.entry(m) {
            Entry::Vacant(v) => {
                if !c.is_zero() {
                    v.insert(c);
                }
            }
            Entry::Occupied(mut o) => {
                *o.get_mut() += c;
                if o.get().is_zero() {
                    o.remove();
                }
            }
        }
    }
}

fn mono_mul(a: &Mono, b: &Mono) -> Mono {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                // Exponents stay below 2^40 (see `frac_powi`), so the sum cannot overflow.
                let e = a[i].1 + b[j].1;
                if e != 0 {
                    out.push((a[i].0, e));
                }
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

impl Canon<'_> {
    fn add(&mut self, a: &Poly, b: &Poly) -> Result<Poly, NotExact> {
        let mut out = a.clone();
        for (m, c) in &b.0 {
            self.budget.step()?;
            out.add_term(m.clone(), c.clone());
        }
        if out.0.len() > MAX_TERMS {
            return Err(NotExact::TooLarge);
        }
        Ok(out)
    }

    fn mul(&mut self, a: &Poly, b: &Poly) -> Result<Poly, NotExact> {
        if a.0.len().saturating_mul(b.0.len()) > MAX_TERMS * 16 {
            return Err(NotExact::TooLarge);
        }
        let mut out = Poly::default();
        for (ma, ca) in &a.0 {
            for (mb, cb) in &b.0 {
                self.budget.step()?;
                out.add_term(mono_mul(ma, mb), ca * cb);
            }
        }
        if out.0.len() > MAX_TERMS {
            return Err(NotExact::TooLarge);
        }
        Ok(out)
    }

    fn frac_add(&mut self, a: Frac, b: Frac) -> Result<Frac, NotExact> {
        Ok(match (a.den, b.den) {
            (None, None) => Frac {
                num: self.add(&a.num, &b.num)?,
                den: None,
            },
            (Some(d), None) => {
                let bd = self.mul(&b.num, &d)?;
                Frac {
                    num: self.add(&a.num, &bd)?,
                    den: Some(d),
                }
            }
            (None, Some(d)) => {
                let ad = self.mul(&a.num, &d)?;
                Frac {
                    num: self.add(&ad, &b.num)?,
                    den: Some(d),
                }
            }
            (Some(da), Some(db)) if da == db => Frac {
                num: self.add(&a.num, &b.num)?,
                den: Some(da),
            },
            (Some(da), Some(db)) => {
                let x = self.mul(&a.num, &db)?;
                let y = self.mul(&b.num, &da)?;
                Frac {
                    num: self.add(&x, &y)?,
                    den: Some(self.mul(&da, &db)?),
                }
            }
        })
    }

    fn frac_mul(&mut self, a: Frac, b: Frac) -> Result<Frac, NotExact> {
        let num = self.mul(&a.num, &b.num)?;
        let den = match (a.den, b.den) {
            (None, d) | (d, None) => d,
            (Some(x), Some(y)) => Some(self.mul(&x, &y)?),
        };
        Ok(Frac { num, den })
    }

    /// `1 / f`, keeping a one-term denominator out of the denominator (as negative powers).
    fn frac_recip(&mut self, f: Frac) -> Result<Frac, NotExact> {
        if f.num.0.is_empty() {
            return Err(NotExact::Undefined);
        }
        let den = f.den.unwrap_or_else(|| Poly::constant(BigRational::one()));
        Ok(normalise(Frac {
            num: den,
            den: Some(f.num),
        }))
    }

    fn frac_powi(&mut self, f: Frac, n: i64) -> Result<Frac, NotExact> {
        if n < 0 {
            let p = self.frac_powi(f, -n)?;
            return self.frac_recip(p);
        }
        // A single term raises each exponent; a sum is multiplied out (up to a limit).
        if f.den.is_none() && f.num.0.len() == 1 {
            let (m, c) = f.num.0.into_iter().next().expect("one term");
            if n > 4096 && !c.abs().is_one() {
                return Err(NotExact::TooLarge);
            }
            let m: Mono = m
                .into_iter()
                .map(|(a, e)| {
                    e.checked_mul(n)
                        .filter(|e| e.abs() < 1 << 40)
                        .map(|e| (a, e))
                })
                .collect::<Option<_>>()
                .ok_or(NotExact::TooLarge)?;
            let c = num_traits::pow::Pow::pow(&c, n.unsigned_abs() as u32);
            return Ok(Frac {
                num: Poly::monomial(m, c),
                den: None,
            });
        }
        if n > MAX_POWER {
            return Err(NotExact::TooLarge);
        }
        let mut out = Frac {
            num: Poly::constant(BigRational::one()),
            den: None,
        };
        for _ in 0..n {
            out = self.frac_mul(out, f.clone())?;
        }
        Ok(out)
    }

    fn atom(&mut self, key: String, trig: Option<(Trig, String)>) -> Frac {
        let next = self.atoms.len() as u32;
        let id = *self.ids.entry(key.clone()).or_insert_with(|| next);
        if id == next {
            self.atoms.push(Atom {
                key,
                trig,
                root: None,
            });
        }
        Frac {
            num: Poly::monomial(vec![(id, 1)], BigRational::one()),
            den: None,
        }
    }

    fn frac(&mut self, e: &Expr) -> Result<Frac, NotExact> {
        self.budget.step()?;
        Ok(match e {
            Expr::Int(n) => constant(BigRational::from_integer((**n).clone())),
            Expr::Rat(r) => constant((**r).clone()),
            Expr::Float(l) => match &l.exact {
                Some(x) => constant(x.clone()),
                None => self.atom(format!("#{}", l.text), None),
            },
            Expr::Sym(s) => self.atom(s.to_string(), None),
            Expr::Add(xs) => {
                let mut acc = constant(BigRational::zero());
                for x in xs.iter() {
                    let f = self.frac(x)?;
                    acc = self.frac_add(acc, f)?;
                }
                acc
            }
            Expr::Mul(xs) => {
                let mut acc = constant(BigRational::one());
                for x in xs.iter() {
                    let f = self.frac(x)?;
                    acc = self.frac_mul(acc, f)?;
                }
                normalise(acc)
            }
            Expr::Pow(p) => {
                let base = self.frac(&p.0)?;
                let exponent = self.frac(&p.1)?;
                self.power(base, exponent)?
            }
            Expr::Call(Func::Sqrt, xs) => {
                let base = self.frac(&xs[0])?;
                self.power(base, constant(BigRational::new(1.into(), 2.into())))?
            }
            Expr::Call(func, xs) => {
                let mut keys = Vec::with_capacity(xs.len());
                let mut zero_arg = true;
                for x in xs.iter() {
                    let f = self.frac(x)?;
                    zero_arg &= f.den.is_none() && f.num.0.is_empty();
                    keys.push(self.key(&f));
                }
                if let Some(v) = at_zero(*func).filter(|_| zero_arg && xs.len() == 1) {
                    return Ok(constant(BigRational::from_integer(v.into())));
                }
                let trig = match func {
                    Func::Sin => Some(Trig::Sin),
                    Func::Cos => Some(Trig::Cos),
                    Func::Sinh => Some(Trig::Sinh),
                    Func::Cosh => Some(Trig::Cosh),
                    _ => None,
                };
                let key = format!("{}({})", func.name(), keys.join(","));
                self.atom(key, trig.map(|t| (t, keys.join(","))))
            }
        })
    }

    fn power(&mut self, base: Frac, exponent: Frac) -> Result<Frac, NotExact> {
        let constant_exponent = match exponent.den {
            None => exponent.num.as_constant(),
            Some(_) => None,
        };
        let Some(c) = constant_exponent else {
            let key = format!("pow({},{})", self.key(&base), self.key(&exponent));
            return Ok(self.atom(key, None));
        };
        if c.is_integer() {
            let n = c
                .to_integer()
                .to_i64()
                .filter(|n| n.abs() <= 1 << 20)
                .ok_or(NotExact::TooLarge)?;
            return self.frac_powi(base, n);
        }
        // x^(k + f) = x^k · x^f with 0 < f < 1: the fractional part is an atom.
        let k = c.floor();
        let f = &c - &k;
        let key = format!("pow({},{}/{})", self.key(&base), f.numer(), f.denom());
        let fractional = self.atom(key, None);
        if let (None, 1, Some(p), Some(q)) = (
            &base.den,
            base.num.0.len(),
            f.numer().to_i64(),
            f.denom().to_i64(),
        ) {
            let (m, c) = base.num.0.iter().next().expect("one term");
            let id = fractional.num.0.keys().next().expect("atom")[0].0;
            self.atoms[id as usize].root = Some((p, q, m.clone(), c.clone()));
        }
        let n = k
            .to_integer()
            .to_i64()
            .filter(|n| n.abs() <= 1 << 20)
            .ok_or(NotExact::TooLarge)?;
        let whole = self.frac_powi(base, n)?;
        self.frac_mul(whole, fractional)
    }

    /// A key that is the same for equal canonical forms, whatever order atoms were met in.
    fn key(&self, f: &Frac) -> String {
        let poly = |p: &Poly| {
            let mut terms: Vec<String> =
                p.0.iter()
                    .map(|(m, c)| {
                        let mut factors: Vec<String> = m
                            .iter()
                            .map(|(a, e)| format!("{}^{e}", self.atoms[*a as usize].key))
                            .collect();
                        factors.sort();
                        format!("{c}*{}", factors.join("*"))
                    })
                    .collect();
            terms.sort();
            format!("[{}]", terms.join("+"))
        };
        match &f.den {
            None => poly(&f.num),
            Some(d) => format!("{}/{}", poly(&f.num), poly(d)),
        }
    }

    /// Writes each power `a^e` of a root atom `a = B^(p/q)` with `0 <= e < q`, using
    /// `a^q = B^p` (for a one-term `B`), so that `sqrt(x)^2`, `x^(-1/2)` and `1/sqrt(x)` meet.
    fn radicals(&mut self, p: Poly) -> Result<Poly, NotExact> {
        let mut out = Poly::default();
        for (mono, c) in p.0 {
            self.budget.step()?;
            let mut factor = Poly::monomial(Vec::new(), c);
            let mut kept = Vec::new();
            for &(a, e) in &mono {
                match &self.atoms[a as usize].root {
                    Some((p, q, m, bc))
                        if !(0..*q).contains(&e)
                            && (e.div_euclid(*q) * p).abs() <= 4096
                            && !bc.is_zero() =>
                    {
                        let (t, r) = (e.div_euclid(*q), e.rem_euclid(*q));
                        let n = t * p;
                        if r != 0 {
                            kept.push((a, r));
                        }
                        let power: Mono = m.iter().map(|&(b, x)| (b, x * n)).collect();
                        let coefficient = if n >= 0 {
                            num_traits::pow::Pow::pow(bc, n as u32)
                        } else {
                            num_traits::pow::Pow::pow(&bc.recip(), (-n) as u32)
                        };
                        factor = self.mul(&factor, &Poly::monomial(power, coefficient))?;
                    }
                    _ => kept.push((a, e)),
                }
            }
            let kept = Poly::monomial(kept, BigRational::one());
            let term = self.mul(&factor, &kept)?;
            for (m, c) in term.0 {
                out.add_term(m, c);
            }
            if out.0.len() > MAX_TERMS {
                return Err(NotExact::TooLarge);
            }
        }
        Ok(out)
    }

    /// Replaces `sin(u)^2` by `1 − cos(u)^2` and `cosh(u)^2` by `1 + sinh(u)^2` until no term
    /// has either.
    fn pythagoras(&mut self, mut p: Poly) -> Result<Poly, NotExact> {
        loop {
            let found = p.0.iter().find_map(|(m, _)| {
                m.iter()
                    .find_map(|&(a, e)| match &self.atoms[a as usize].trig {
                        Some((t @ (Trig::Sin | Trig::Cosh), arg)) if e >= 2 => {
                            Some((m.clone(), a, *t, arg.clone()))
                        }
                        _ => None,
                    })
            });
            let Some((mono, atom, trig, arg)) = found else {
                return Ok(p);
            };
            let c = p.0.remove(&mono).expect("present");
            let (other, sign) = match trig {
                Trig::Sin => ("cos", -1),
                _ => ("sinh", 1),
            };
            let partner = self.atom(format!("{other}({arg})"), None);
            let partner_id = partner.num.0.keys().next().expect("atom")[0].0;
            if self.atoms[partner_id as usize].trig.is_none() {
                let t = if trig == Trig::Sin {
                    Trig::Cos
                } else {
                    Trig::Sinh
                };
                self.atoms[partner_id as usize].trig = Some((t, arg));
            }
            // mono = rest · atom^2: rest · (1 ± partner^2)
            let rest = mono_mul(&mono, &vec![(atom, -2)]);
            let mut replacement = Poly::monomial(rest.clone(), c.clone());
            replacement.add_term(
                mono_mul(&rest, &vec![(partner_id, 2)]),
                c * BigRational::from_integer(BigInt::from(sign)),
            );
            p = self.add(&p, &replacement)?;
        }
    }
}

fn constant(c: BigRational) -> Frac {
    Frac {
        num: Poly::constant(c),
        den: None,
    }
}

/// Moves a one-term denominator into the numerator as negative powers.
fn normalise(f: Frac) -> Frac {
    match f.den {
        Some(d) if d.0.len() == 1 => {
            let (m, c) = d.0.into_iter().next().expect("one term");
            let inverse: Mono = m.into_iter().map(|(a, e)| (a, -e)).collect();
            let ci = c.recip();
            let num = Poly(
                f.num
                    .0
                    .into_iter()
                    .map(|(mm, cc)| (mono_mul(&mm, &inverse), cc * &ci))
                    .filter(|(_, cc)| !cc.is_zero())
                    .collect(),
            );
            Frac { num, den: None }
        }
        Some(d)
            if d.as_constant()
                .is_some_and(|c| c.is_positive() || c.is_negative()) =>
        {
            let c = d.as_constant().expect("constant").recip();
            Frac {
                num: Poly(f.num.0.into_iter().map(|(m, x)| (m, x * &c)).collect()),
                den: None,
            }
        }
        den => Frac { num: f.num, den },
    }
}

/// `f(0)` for the functions whose value at zero is an integer.
fn at_zero(f: Func) -> Option<i64> {
    match f {
        Func::Sin
        | Func::Tan
        | Func::Sinh
        | Func::Tanh
        | Func::Asin
        | Func::Atan
        | Func::Asinh
        | Func::Atanh
        | Func::Erf => Some(0),
        Func::Cos | Func::Cosh | Func::Exp | Func::Erfc => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    fn zero(s: &str) -> bool {
        let e = parse(s, &mut Default::default()).unwrap();
        is_zero(&e, &mut Budget::standard()).unwrap_or(false)
    }

    #[test]
    fn identities_alkahest_misses_are_exact() {
        assert!(zero("(x+1)^2 - x^2 - 2*x - 1"));
        assert!(zero("exp(30)*(x+1) - exp(30)*x - exp(30)"));
        assert!(zero("(x+1)^2*exp(40) - (x^2+2*x+1)*exp(40)"));
        assert!(zero("sin(x)^2*10^12 - (1-cos(x)^2)*10^12"));
        assert!(zero("sin(x)^2 + cos(x)^2 - 1"));
        assert!(zero("cosh(x)^2 - sinh(x)^2 - 1"));
        assert!(zero("1/(x+1) + 1/(x-1) - 2*x/(x^2-1)"));
        assert!(zero("x^(3/2) - x*sqrt(x)"));
        assert!(zero("0.1 + 0.2 - 0.3"));
        assert!(zero("sin(x + y) - sin(y + x)"));
        assert!(zero("x/x - 1"));
        assert!(zero("sqrt(x)^2 - x"));
        assert!(zero("x^(-1/2) - 1/sqrt(x)"));
        assert!(zero("2/sqrt(pi) - 2*pi^(-1/2)"));
    }

    #[test]
    fn non_identities_are_not_zero() {
        assert!(!zero("x + y - 2*x"));
        assert!(!zero("sin(x)*cos(y) - sin(y)*cos(x)"));
        assert!(!zero("sqrt(x^2) - x"));
        assert!(!zero("log(x*y) - log(x) - log(y)"));
        assert!(!zero("(x+1)^2 - x^2 - 2*x"));
        assert!(!zero("I^2 + 1"));
    }

    #[test]
    fn large_forms_give_up() {
        let e = parse("(x+y+z+1)^60 - 1", &mut Default::default()).unwrap();
        assert!(is_zero(&e, &mut Budget::standard()).is_err());
        let e = parse("x^1000000000000", &mut Default::default()).unwrap();
        assert!(is_zero(&e, &mut Budget::standard()).is_err());
    }
}
