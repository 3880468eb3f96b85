//! Special functions in f64, with alkahest's real domains. Where an argument lies outside the
//! range a method here is accurate for, the answer is "no value from this build" (the point is
//! not used), never a rough number.

use super::eval::EvalError;
use std::f64::consts::PI;

const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

type R = Result<f64, EvalError>;

fn domain(ok: bool) -> Result<(), EvalError> {
    if ok { Ok(()) } else { Err(EvalError::Domain) }
}

fn is_pole(x: f64) -> bool {
    x <= 0.0 && x == x.floor()
}

/// Γ(x); its poles are out of the domain.
pub fn gamma(x: f64) -> R {
    domain(!is_pole(x))?;
    Ok(libm::tgamma(x))
}

/// ψ(x), by the recurrence up to x ≥ 6 and the asymptotic series; reflection below 0.
pub fn digamma(x: f64) -> R {
    domain(!is_pole(x))?;
    if x < 0.0 {
        // ψ(1 − x) − ψ(x) = π cot(πx)
        return Ok(digamma(1.0 - x)? - PI / (PI * x).tan());
    }
    let (mut x, mut acc) = (x, 0.0);
    while x < 12.0 {
        acc -= 1.0 / x;
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    Ok(acc + x.ln()
        - 0.5 / x
        - f * (1.0 / 12.0 - f * (1.0 / 120.0 - f * (1.0 / 252.0 - f * (1.0 / 240.0 - f / 132.0)))))
}

/// ψ₁(x), the same way.
pub fn trigamma(x: f64) -> R {
    domain(!is_pole(x))?;
    if x < 0.0 {
        // ψ₁(1 − x) + ψ₁(x) = π² / sin²(πx)
        let s = (PI * x).sin();
        return Ok(PI * PI / (s * s) - trigamma(1.0 - x)?);
    }
    let (mut x, mut acc) = (x, 0.0);
    while x < 12.0 {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    Ok(acc
        + 1.0 / x
        + f / 2.0
        + f / x * (1.0 / 6.0 - f * (1.0 / 30.0 - f * (1.0 / 42.0 - f / 30.0))))
}

/// W₀(x), the principal branch, for x ≥ −1/e (Halley's iteration).
pub fn lambert_w(x: f64) -> R {
    let branch = -1.0 / std::f64::consts::E;
    domain(x >= branch)?;
    if x == 0.0 {
        return Ok(0.0);
    }
    let mut w = if x < 1.0 {
        let p = (2.0 * (std::f64::consts::E * x + 1.0)).max(0.0).sqrt();
        -1.0 + p - p * p / 3.0
    } else {
        let l = x.ln();
        l - l.max(1e-300).ln().max(0.0)
    };
    for _ in 0..64 {
        let ew = w.exp();
        let f = w * ew - x;
        let step = f / (ew * (w + 1.0) - (w + 2.0) * f / (2.0 * w + 2.0));
        if !step.is_finite() {
            break;
        }
        w -= step;
        if step.abs() <= 1e-16 * (1.0 + w.abs()) {
            break;
        }
    }
    Ok(w)
}

/// Li₂(x) for real x ≤ 1.
pub fn dilog(x: f64) -> R {
    domain(x <= 1.0)?;
    let pi2_6 = PI * PI / 6.0;
    Ok(if x == 1.0 {
        pi2_6
    } else if x < -1.0 {
        let l = (-x).ln();
        -pi2_6 - 0.5 * l * l - dilog(1.0 / x)?
    } else if x < -0.5 {
        let l = (1.0 - x).ln();
        -0.5 * l * l - dilog(x / (x - 1.0))?
    } else if x > 0.5 {
        pi2_6 - x.ln() * (1.0 - x).ln() - dilog(1.0 - x)?
    } else {
        let (mut term, mut sum, mut k) = (x, 0.0f64, 1.0f64);
        while term.abs() > 1e-18 * sum.abs().max(1e-300) && k < 200.0 {
            sum += term / (k * k);
            k += 1.0;
            term *= x;
        }
        sum
    })
}

/// The arithmetic-geometric mean of 1 and √(1 − m), with the sum E needs.
fn agm(m: f64) -> (f64, f64) {
    let (mut a, mut b) = (1.0, (1.0 - m).sqrt());
    // c₀² = m (negative for m < 0, where √m would be NaN).
    let (mut sum, mut power) = (0.5 * m, 0.5);
    for _ in 0..64 {
        if (a - b).abs() <= 1e-16 * a {
            break;
        }
        let an = 0.5 * (a + b);
        let c = 0.5 * (a - b);
        b = (a * b).sqrt();
        a = an;
        power *= 2.0;
        sum += power * c * c;
    }
    (a, sum)
}

/// K(m), the complete elliptic integral of the first kind (parameter m = k², m < 1).
pub fn elliptic_k(m: f64) -> R {
    domain(m < 1.0)?;
    Ok(PI / (2.0 * agm(m).0))
}

/// E(m), the complete elliptic integral of the second kind (m ≤ 1).
pub fn elliptic_e(m: f64) -> R {
    domain(m <= 1.0)?;
    if m == 1.0 {
        return Ok(1.0);
    }
    if m < 0.0 {
        // E(m) = √(1 − m) E(m/(m − 1)): the AGM sum loses digits for negative m.
        return Ok((1.0 - m).sqrt() * elliptic_e(m / (m - 1.0))?);
    }
    let (a, sum) = agm(m);
    Ok(PI / (2.0 * a) * (1.0 - sum))
}

/// A power series `Σ term_n` summed while its terms matter; `None` if it does not settle.
fn series(mut next: impl FnMut(u32) -> f64) -> Option<f64> {
    let mut sum = 0.0;
    for n in 0..400 {
        let t = next(n);
        sum += t;
        if t.abs() <= 1e-17 * sum.abs() {
            return Some(sum);
        }
    }
    None
}

/// Arguments beyond which the series below lose accuracy to cancellation.
const SERIES_LIMIT: f64 = 16.0;

fn in_series_range(x: f64, name: &'static str) -> Result<(), EvalError> {
    if x.abs() <= SERIES_LIMIT {
        Ok(())
    } else {
        Err(EvalError::NoEvaluator(name))
    }
}

/// Si(x).
pub fn si(x: f64) -> R {
    in_series_range(x, "Si")?;
    let mut t = x;
    series(|n| {
        let n = f64::from(n);
        let v = t / (2.0 * n + 1.0);
        t *= -x * x / ((2.0 * n + 2.0) * (2.0 * n + 3.0));
        v
    })
    .ok_or(EvalError::NoEvaluator("Si"))
}

/// Ci(x), x > 0.
pub fn ci(x: f64) -> R {
    domain(x > 0.0)?;
    in_series_range(x, "Ci")?;
    let mut t = -x * x / 2.0;
    let s = series(|n| {
        let n = f64::from(n) + 1.0;
        let v = t / (2.0 * n);
        t *= -x * x / ((2.0 * n + 1.0) * (2.0 * n + 2.0));
        v
    })
    .ok_or(EvalError::NoEvaluator("Ci"))?;
    Ok(EULER_GAMMA + x.ln() + s)
}

/// Shi(x).
pub fn shi(x: f64) -> R {
    in_series_range(x, "Shi")?;
    let mut t = x;
    series(|n| {
        let n = f64::from(n);
        let v = t / (2.0 * n + 1.0);
        t *= x * x / ((2.0 * n + 2.0) * (2.0 * n + 3.0));
        v
    })
    .ok_or(EvalError::NoEvaluator("Shi"))
}

/// Chi(x), x > 0.
pub fn chi(x: f64) -> R {
    domain(x > 0.0)?;
    in_series_range(x, "Chi")?;
    let mut t = x * x / 2.0;
    let s = series(|n| {
        let n = f64::from(n) + 1.0;
        let v = t / (2.0 * n);
        t *= x * x / ((2.0 * n + 1.0) * (2.0 * n + 2.0));
        v
    })
    .ok_or(EvalError::NoEvaluator("Chi"))?;
    Ok(EULER_GAMMA + x.ln() + s)
}

/// Ei(x), x ≠ 0.
pub fn ei(x: f64) -> R {
    domain(x != 0.0)?;
    in_series_range(x, "Ei")?;
    let mut t = x;
    let s = series(|n| {
        let n = f64::from(n) + 1.0;
        let v = t / n;
        t *= x / (n + 1.0);
        v
    })
    .ok_or(EvalError::NoEvaluator("Ei"))?;
    Ok(EULER_GAMMA + x.abs().ln() + s)
}

/// li(x) = Ei(log x), x > 0, x ≠ 1.
pub fn li(x: f64) -> R {
    domain(x > 0.0 && x != 1.0)?;
    ei(x.ln())
}

/// The Fresnel integrals S(x) (`sine`) and C(x), with sin/cos(πt²/2).
pub fn fresnel(x: f64, sine: bool) -> R {
    // Beyond 2.5 the alternating series loses more than 1e-12 to cancellation (e^(πx²/2)
    // ulps); the 128-bit ball takes over there.
    if x.abs() > 2.5 {
        return Err(EvalError::NoEvaluator(if sine {
            "fresnels"
        } else {
            "fresnelc"
        }));
    }
    let a = PI / 2.0 * x * x;
    // S = Σ (−1)^n a^(2n+1) x / ((2n+1)! (4n+3)), C = Σ (−1)^n a^(2n) x / ((2n)! (4n+1))
    let mut t = if sine { a * x } else { x };
    let start = if sine { 1.0 } else { 0.0 };
    series(|n| {
        let k = 2.0 * f64::from(n) + start;
        let v = t / (2.0 * k + 1.0);
        t *= -a * a / ((k + 1.0) * (k + 2.0));
        v
    })
    .ok_or(EvalError::NoEvaluator("fresnel"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() <= 1e-13 * b.abs().max(1.0), "{a} != {b}");
    }

    #[test]
    fn reference_values() {
        close(dilog(-1.0).unwrap(), -PI * PI / 12.0);
        close(
            dilog(0.5).unwrap(),
            PI * PI / 12.0 - 0.5 * 2f64.ln().powi(2),
        );
        close(elliptic_k(0.5).unwrap(), 1.854_074_677_301_372);
        close(elliptic_e(0.5).unwrap(), 1.350_643_881_047_675_5);
        // negative parameters (the AGM sum starts from c₀² = m)
        close(elliptic_e(-1.37).unwrap(), 2.017_070_259_899_024);
        close(elliptic_e(-50.0).unwrap(), 7.342_304_680_771_02);
        close(fresnel(1.0, true).unwrap(), 0.438_259_147_390_354_8);
        close(fresnel(1.0, false).unwrap(), 0.779_893_400_376_822_8);
        close(si(1.0).unwrap(), 0.946_083_070_367_183);
        close(ci(1.0).unwrap(), 0.337_403_922_900_968_1);
        close(ei(1.0).unwrap(), 1.895_117_816_355_936_8);
        close(lambert_w(1.0).unwrap(), 0.567_143_290_409_783_8);
        close(digamma(1.0).unwrap(), -EULER_GAMMA);
        close(trigamma(1.0).unwrap(), PI * PI / 6.0);
        close(shi(1.0).unwrap(), 1.057_250_875_375_728_5);
        close(chi(1.0).unwrap(), 0.837_866_940_980_208_2);
        assert_eq!(gamma(-2.0), Err(EvalError::Domain));
        assert_eq!(dilog(1.5), Err(EvalError::Domain));
        assert_eq!(lambert_w(-1.0), Err(EvalError::Domain));
        assert_eq!(ci(0.0), Err(EvalError::Domain));
        assert_eq!(li(1.0), Err(EvalError::Domain));
    }
}
