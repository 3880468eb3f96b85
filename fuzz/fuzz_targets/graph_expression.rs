//! alkahest's expression grammar and everything the expression recipes do with what it
//! parses: the exact test, differentiation, f64 and ball evaluation, and whole recipes (as an
//! identity, a definite integral's integrand and an antiderivative).
#![no_main]
use sciproof_core::graph::recipe::expression::{
    self, ball, canon, diff, eval, expr::Budget, parse,
};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut symbols = Default::default();
    let Ok(e) = parse::parse(text, &mut symbols) else {
        return;
    };
    let exactly_zero = canon::is_zero(&e, &mut Budget::of_steps(200_000)) == Ok(true);
    let _ = diff::derivative(&e, "x", &mut Budget::of_steps(200_000));
    let point: eval::Bindings = [("x".to_string(), 0.37), ("y".to_string(), 0.48)]
        .into_iter()
        .collect();
    let _ = eval::evaluate(&e, &point, &mut Budget::of_steps(200_000));
    let ball = ball::Evaluator::new(128, &point).ball(&e, &mut Budget::of_steps(200_000));
    // The exact test's `ok` is a proof; a ball that shows the value nonzero at a point where
    // it is defined would refute it (an unsound rewrite, or an unsound ball).
    if exactly_zero && let Ok(b) = &ball {
        assert!(
            b.lower() == 0.0,
            "{text:?}: the exact test says zero, a 128-bit ball says |value| >= {}",
            b.lower()
        );
    }
    // The same for a constant the exact test leaves: where a ball exists, it holds the constant.
    if let Ok(Some(c)) = canon::constant_value(&e, &mut Budget::of_steps(200_000))
        && let Ok(b) = &ball
        && let Some(c) = num_traits::ToPrimitive::to_f64(&c).filter(|c| c.is_finite())
    {
        assert!(
            (b.approx() - c).abs() <= b.radius() + 1e-14 * (b.approx().abs() + c.abs()) + 1e-300,
            "{text:?}: the exact test leaves {c}, a 128-bit ball says {} ± {}",
            b.approx(),
            b.radius()
        );
    }
    // The text as an identity's left side; as an integrand (the antiderivative table, its
    // folded polynomials, the continuity proof, quadrature), over numbers and over symbols; and
    // as an antiderivative (differentiation, the exact test).
    let recipes: [(&str, &[(&str, &str)]); 4] = [
        ("identity", &[("lhs", text), ("rhs", "x")]),
        (
            "definite_integral",
            &[
                ("integrand", text),
                ("var", "x"),
                ("lower", "0"),
                ("upper", "1"),
                ("value", "1"),
            ],
        ),
        (
            "antiderivative",
            &[("integrand", "x"), ("antiderivative", text), ("var", "x")],
        ),
        // bounds that are symbols, and a value whose logarithms and asin bound them
        // (`parametric`: the signs of arguments over an interval no ball can hold); for half
        // the inputs (by length) the lower bound is 0, where the integral may be improper
        // (`parametric::BesideAnEnd` and a limit at 0)
        (
            "definite_integral",
            &[
                ("integrand", text),
                ("var", "x"),
                ("lower", if text.len() % 2 == 0 { "s" } else { "0" }),
                ("upper", "t"),
                ("value", "log(t) - log(s) + asin(t) + sqrt(s - 1/2)"),
            ],
        ),
    ];
    for (kind, fields) in recipes {
        let mut check = sciproof_core::json::Object::new();
        for &(key, value) in fields {
            check.insert(key, value);
        }
        let _ = expression::recheck(kind, &check, 1e-8, &expression::DEFAULT_SAMPLES);
    }
});
