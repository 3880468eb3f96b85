"""A generated corpus of expression recipes for the differential test against alkahest.

Usage: python alkahest_expression_corpus.py OUT.json [COUNT] [SEED]
Writes a claim graph of COUNT claims (every expression recipe kind: true identities,
perturbed false ones, rounding hazards, out-of-domain points, malformed recipes), then
prints alkahest's own re-verification, one JSON object per claim: {"id", "outcome", "detail"}.
"""
import json
import random
import sys
from fractions import Fraction

import alkahest.research as research

out, count, seed = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1200, int(sys.argv[3]) if len(sys.argv) > 3 else 12
rng = random.Random(seed)


def small():
    return rng.choice(["x", "y", "(x+1)", "(2*x-y)", "sin(x)", "cos(y)", "exp(x)", "log(x+2)", "sqrt(x+1)", "(x^2+1)", "z"])


def poly(var="x", degree=3):
    coeffs = [rng.randint(-5, 5) for _ in range(degree + 1)]
    terms = [f"({c})*{var}^{k}" for k, c in enumerate(coeffs) if c]
    return (" + ".join(terms) or "0"), coeffs


# (f, f') pairs in x.
DERIVATIVES = [
    ("x^5", "5*x^4"), ("sin(3*x)", "3*cos(3*x)"), ("exp(2*x)", "2*exp(2*x)"),
    ("log(x+3)", "1/(x+3)"), ("sqrt(x+1)", "1/(2*sqrt(x+1))"), ("atan(x)", "1/(1+x^2)"),
    ("1/(x+2)", "-1/(x+2)^2"), ("x*sin(x)", "sin(x) + x*cos(x)"), ("tan(x)", "1 + tan(x)^2"),
    ("exp(x)*cos(x)", "exp(x)*cos(x) - exp(x)*sin(x)"), ("x^2*log(x)", "2*x*log(x) + x"),
    ("asin(x/4)", "1/sqrt(16 - x^2)"), ("cosh(x)^2", "2*cosh(x)*sinh(x)"), ("x^x", "x^x*(log(x)+1)"),
    ("sec(x)", "sec(x)*tan(x)"), ("cbrt(x)", "x^(-2/3)/3"),
]


def identity():
    a, b = small(), small()
    roll = rng.random()
    scale = rng.choice(["", "*exp(30)", "*10^12", "*exp(40)"]) if rng.random() < 0.3 else ""
    if roll < 0.3:
        lhs, rhs = f"({a}+{b})^2{scale}", f"({a}^2 + 2*{a}*{b} + {b}^2){scale}"
    elif roll < 0.45:
        lhs, rhs = f"sin({a})^2{scale}", f"(1 - cos({a})^2){scale}"
    elif roll < 0.6:
        lhs, rhs = f"sin(2*{a})", f"2*sin({a})*cos({a})"
    elif roll < 0.7:
        lhs, rhs = f"log({a}*{b})", f"log({a}) + log({b})"
    elif roll < 0.82:
        # the addition theorems, half angles, exponentials, inverse functions, rational factors
        # of logarithms and roots, roots of one base, shifts by multiples of pi and e^u
        # (alkahest: numeric_ok, or failed when scaled)
        lhs, rhs = rng.choice([
            (f"sin({a}+{b}){scale}", f"(sin({a})*cos({b}) + cos({a})*sin({b})){scale}"),
            (f"cos({a}-{b}){scale}", f"(cos({a})*cos({b}) + sin({a})*sin({b})){scale}"),
            (f"sin({a}){scale}", f"2*sin({a}/2)*cos({a}/2){scale}"),
            (f"cos({a}){scale}", f"(1 - 2*sin({a}/2)^2){scale}"),
            (f"sin({a}) + sin({b})", f"2*sin(({a}+{b})/2)*cos(({a}-{b})/2)"),
            (f"exp({a}+{b}){scale}", f"exp({a})*exp({b}){scale}"),
            (f"sinh(2*{a})", f"2*sinh({a})*cosh({a})"),
            (f"cos(atan({a})){scale}", f"(1/sqrt(1 + ({a})^2)){scale}"),
            (f"log(3*{a}){scale}", f"(log(3) + log({a})){scale}"),
            (f"sqrt(8*{a}+8){scale}", f"2*sqrt(2)*sqrt({a}+1){scale}"),
            (f"({a})^(2/3)*({a})^(1/3){scale}", f"({a}){scale}"),
            (f"sqrt({a})*({a})^(1/3){scale}", f"({a})^(5/6){scale}"),
            (f"cos(pi/2 - {a}){scale}", f"sin({a}){scale}"),
            (f"sin({a} + 5*pi/4){scale}", f"(-(sin({a}) + cos({a}))/sqrt(2)){scale}"),
            (f"sin(pi/7)*({a}){scale}", f"cos(5*pi/14)*({a}){scale}"),
            (f"e^({a}){scale}", f"exp({a}){scale}"),
            # roots of powers, absolute values as roots, reciprocal roots in arguments
            (f"sqrt(({a})^2){scale}", f"abs({a}){scale}"),
            (f"abs({a})*abs({a}){scale}", f"({a})^2{scale}"),
            (f"sqrt(({a})^3){scale}", f"({a})*sqrt({a}){scale}"),
            (f"log(abs({a}))", f"log(({a})^2)/2"),
            (f"exp(1/sqrt(({a})^2 + 1))", f"exp((({a})^2 + 1)^(-1/2))"),
            # a denominator that divides, roots of fractions with a positive side
            (f"sin((({a})^2 - 1)/({a} - 1)){scale}", f"sin({a} + 1){scale}"),
            (f"log((({a})^3 - 1)/({a} - 1))", f"log(({a})^2 + {a} + 1)"),
            (f"sqrt(1/(({a})^2 + 1)){scale}", f"(1/sqrt(({a})^2 + 1)){scale}"),
            (f"sqrt({b}/(({a})^2 + 1))", f"sqrt({b})/sqrt(({a})^2 + 1)"),
            # inverse functions: of their own functions, and one angle written two ways
            (f"atanh(tanh({a})){scale}", f"({a}){scale}"),
            (f"acosh(cosh({a})){scale}", f"abs({a}){scale}"),
            (f"cosh(asinh(-({a}))){scale}", f"sqrt(1 + ({a})^2){scale}"),
            (f"asin({a}) + acos({a})", "pi/2"),
            (f"atan({a}){scale}", f"asin(({a})/sqrt(1 + ({a})^2)){scale}"),
            (f"asin({a}/4)", f"atan(({a}/4)/sqrt(1 - ({a}/4)^2))"),
            (f"atan((({a}) - ({a}))/(1 + ({a})^2))", "0"),
            # even powers out of a logarithm, sin^2 written with cos under a root, signs and
            # absolute values of products
            (f"log(({a})^4)", f"4*log(abs({a}))"),
            (f"log(({a})^2*({b}))", f"2*log(abs({a})) + log({b})"),
            (f"sqrt(1 - cos({a})^2){scale}", f"abs(sin({a})){scale}"),
            (f"abs({a})/({a})", f"sign({a})"),
            (f"abs(({a})*({b})){scale}", f"abs({a})*abs({b}){scale}"),
        ])
    else:
        lhs, rhs = f"({a})*({b}){scale}", f"({b})*({a}){scale}"
    if rng.random() < 0.35:
        rhs = f"{rhs} + {rng.choice(['1', '0.001', '1e-6*x', 'y', '2*' + small()])}"
    return {"kind": "identity", "lhs": lhs, "rhs": rhs}


def zero():
    a, b = small(), small()
    expr = rng.choice([f"{a}*{b} - {b}*{a}", f"({a}+{b})^3 - ({a})^3 - 3*({a})^2*({b}) - 3*({a})*({b})^2 - ({b})^3",
                       f"sin({a})^2 + cos({a})^2 - 1", f"{a} - {b}", f"exp({a})*exp(-({a})) - 1",
                       # past the f64 range at some points, below 10^-300 at others
                       f"({a})^(10^12)", f"(({a})^1000 + 1)^999 - (({a})^1000 + 1)^999*(({a})^999 + 1)",
                       f"({a})^4000*exp(5*x) - ({a})^4000",
                       # arctangents of numbers beside a multiple of pi/12: pi/4 alone is true
                       f"atan(1/2) + atan(1/3) - {rng.randint(-13, 13)}*pi/12",
                       f"atan(sqrt(2) + 1) - atan(sqrt(2) - 1) - {rng.randint(-13, 13)}*pi/12"])
    return {"kind": "zero", "expr": expr}


def derivative():
    f, df = rng.choice(DERIVATIVES)
    if rng.random() < 0.35:
        df = f"{df} + {rng.choice(['1', 'x', '0.01', 'sin(x)'])}"
    return {"kind": "derivative", "expr": f, "var": "x", "value": df}


def antiderivative():
    f, df = rng.choice(DERIVATIVES)
    if rng.random() < 0.35:
        f = f"{f} + {rng.choice(['x', 'x^2', '0.5*x'])}"
    if rng.random() < 0.3:
        f = f"{f} + C"
    return {"kind": "antiderivative", "integrand": df, "antiderivative": f, "var": "x"}


def definite_integral():
    p, coeffs = poly()
    lo, hi = rng.randint(-3, 2), rng.randint(0, 4)
    exact = sum(Fraction(c, k + 1) * (Fraction(hi) ** (k + 1) - Fraction(lo) ** (k + 1)) for k, c in enumerate(coeffs))
    if rng.random() < 0.35:
        exact += rng.choice([1, Fraction(1, 1000)])
    value = f"{exact.numerator}/{exact.denominator}" if exact.denominator != 1 else str(exact.numerator)
    if rng.random() < 0.2:
        p, lo, hi, value = rng.choice([("cos(x)", 0, 1, "sin(1)"), ("exp(x)", 0, 1, "exp(1) - 1"),
                                       ("sin(x)", 0, 2, "1 - cos(2)"), ("x^2 + a", 0, 1, "1/3 + a")])
    return {"kind": "definite_integral", "integrand": p, "var": "x", "lower": str(lo), "upper": str(hi), "value": value}


# True identities of the special and step functions, in an argument drawn below; perturbed
# ones are false by far more than any rounding (refuting them needs validated values).
SPECIAL = [
    ("erf({a}) + erfc({a})", "1"), ("gamma({a}+1)", "{a}*gamma({a})"),
    ("digamma({a}+1)", "digamma({a}) + 1/{a}"), ("trigamma({a}+1)", "trigamma({a}) - 1/{a}^2"),
    ("lambert_w({a}*exp({a}))", "{a}"), ("Chi({a}) + Shi({a})", "Ei({a})"),
    ("li({a}+1)", "Ei(log({a}+1))"), ("Si(-{a})", "-Si({a})"), ("fresnels(-{a})", "-fresnels({a})"),
    ("bessel_j1(-{a})", "-bessel_j1({a})"), ("EllipticK(-{a})", "EllipticK({a}/(1+{a}))/sqrt(1+{a})"),
    ("EllipticE(-{a})", "sqrt(1+{a})*EllipticE({a}/(1+{a}))"),
    ("dilog({a}/4) + dilog(1-{a}/4)", "pi^2/6 - log({a}/4)*log(1-{a}/4)"),
    ("gamma(-{a})", "-pi/({a}*sin(pi*{a})*gamma({a}))"), ("Ci({a})", "Ci({a})"),
    ("lambert_w({a})*exp(lambert_w({a}))", "{a}"), ("exp(-lambert_w({a}))", "lambert_w({a})/{a}"),
    ("asinh({a})", "log({a} + sqrt(({a})^2 + 1))"), ("acosh({a} + 1)", "log({a} + 1 + sqrt(({a} + 1)^2 - 1))"),
    ("atanh({a}/4)", "log((1 + {a}/4)/(1 - {a}/4))/2"),
    ("floor({a}) + 1", "ceil({a} + 1/1000)"), ("sign({a})", "1"), ("atan2({a}, 1)", "atan({a})"),
    ("round({a})", "floor({a} + 1/2)"), ("bessel_j0({a})^2 + 2*bessel_j1({a})^2", "bessel_j0({a})^2 + 2*bessel_j1({a})^2"),
    # the incomplete elliptic integrals, where alkahest has values (m, n below 1: it hangs at
    # some points where m sin²φ or n sin²φ reaches 1)
    ("EllipticF(-{a}, 1/2)", "-EllipticF({a}, 1/2)"),
    ("EllipticF({a} + pi, 1/3)", "EllipticF({a}, 1/3) + 2*EllipticK(1/3)"),
    ("EllipticE({a} + pi, -2)", "EllipticE({a}, -2) + 2*EllipticE(-2)"),
    ("EllipticPi(0, {a}, 1/4)", "EllipticF({a}, 1/4)"),
    ("EllipticPi(-1/2, {a} + pi, 1/2)", "EllipticPi(-1/2, {a}, 1/2) + 2*EllipticPi(-1/2, pi/2, 1/2)"),
]


def special():
    lhs, rhs = rng.choice(SPECIAL)
    a = rng.choice(["x", "y", "(x+1)", "x/2", "(2*y)", "(x*y)"])
    lhs, rhs = lhs.format(a=a), rhs.format(a=a)
    if rng.random() < 0.4:
        rhs = f"{rhs} + {rng.choice(['1', '0.001', '1e-6', 'erf(x)', 'gamma(y)'])}"
    if rng.random() < 0.7:
        return {"kind": "identity", "lhs": lhs, "rhs": rhs}
    return {"kind": "zero", "expr": f"{lhs} - ({rhs})"}


def malformed():
    return rng.choice([
        {"kind": "identity", "lhs": "x"},
        {"kind": "zero", "expr": "x +"},
        {"kind": "zero", "expr": "f(x)"},
        {"kind": "identity", "lhs": "x/0", "rhs": "1"},
        {"kind": "zero", "expr": ""},
        {"kind": "derivative", "expr": "sin(x, y)", "var": "x", "value": "0"},
        {"kind": "zero", "expr": "x $ y"},
        {"kind": "zero", "expr": "log(x - 10) - log(x - 10)*1.0000001"},
        {"kind": "antiderivative", "integrand": "x"},
        {"kind": "zero", "expr": 5},
    ])


# numeric_relation cases where Python's own rules decide (Decimal's underscores, float
# overflow): the details must be alkahest's, word for word.
NUMERIC_RELATION = [
    (["1__0", "10"], [1, -1]), (["_1", "1"], [1, -1]), (["1_", " 1_0 "], [10, -1]),
    (["1e1_0"], [1]), (["_"], [1]), (["1e400"], [1]), (["1"], [10**400]),
    (["1e400", "1e400"], [1, -1]), (["1e-400"], [1]), (["1.5_0", "3"], [2, -1]),
]

# Hazards found by trying hostile recipes: powers too large to multiply out, special values,
# integrals whose peak quadrature cannot see, integrands alkahest integrates through erf, Si
# and Ei.
def gauss(integrand, lower, upper, value):
    return {"kind": "definite_integral", "integrand": integrand, "var": "x", "lower": lower, "upper": upper, "value": value}


EDGE = [
    {"kind": "identity", "lhs": "(a+b+c+d+e+f+g+h)^64", "rhs": "(h+g+f+e+d+c+b+a)^64"},
    {"kind": "zero", "expr": "x^999999999999 - x^999999999999"},
    {"kind": "zero", "expr": "10^10^10 - 10^10^10"},
    {"kind": "zero", "expr": "gamma(5) - 24"},
    {"kind": "zero", "expr": "lambert_w(0) + dilog(0)"},
    {"kind": "zero", "expr": "li(0)"},
    {"kind": "zero", "expr": "round(5/2) - 2"},
    {"kind": "identity", "lhs": "gamma(10^6)", "rhs": "gamma(10^6) + 1"},
    {"kind": "identity", "lhs": "exp(10^6*x)", "rhs": "exp(10^6*x) + 10^-20"},
    {"kind": "zero", "expr": "sqrt(-x) - sqrt(-x) - 1"},
    {"kind": "identity", "lhs": "erf(1)", "rhs": "0.84"},
    gauss("exp(-x^2)", "-10^300", "10^300", "sqrt(pi)"),
    gauss("exp(-x^2)", "0", "1", "0.7468"),
    gauss("exp(-(x-1)^2)", "1", "2", "sqrt(pi)/2*erf(1)"),
    gauss("1/(1+x^2)", "-10^300", "10^300", "pi"),
    gauss("x^(10^9)", "0", "1", "0"),
    gauss("log(x)", "0", "1", "-1"),
    gauss("log(x)", "0", "1", "-1.1"),
    gauss("x*log(x)", "0", "1", "-1/4"),
    gauss("log(x)^2", "0", "1", "2"),
    gauss("1/sqrt(x)", "0", "1", "2.1"),
    # Si, Shi and the like: across a removable singularity at 0, and away from 0
    gauss("sin(x)/x", "-1", "1", "2*Si(1)"),
    gauss("sin(x)/x", "-1", "1", "2*Si(1) + 1/1000"),
    gauss("sinh(x)/x", "-1", "2", "Shi(2) + Shi(1)"),
    gauss("exp(x)/x", "1", "2", "Ei(2) - Ei(1)"),
    gauss("cos(x)/x", "1", "2", "Ci(2) - Ci(1) + 1/1000"),
    # by parts into an integral function; logarithms of numbers written two ways; acosh from
    # the end of its domain
    gauss("sin(x)*log(x)", "1", "2", "-cos(2)*log(2) + Ci(2) - Ci(1)"),
    gauss("exp(x)*log(x)", "1", "2", "exp(2)*log(2) - Ei(2) + Ei(1) + 1/1000"),
    gauss("sin(x)/(1+cos(x))", "0", "1", "log(1 + tan(1/2)^2)"),
    gauss("1/sin(x)", "1", "2", "log((1 - cos(2))/sin(2)) - log((1 - cos(1))/sin(1)) + 1/1000"),
    gauss("acosh(x)", "1", "2", "2*acosh(2) - sqrt(3)"),
    # divergent: F(b) - F(a) across a pole, which alkahest accepts (the README's table)
    gauss("1/x^2", "-1", "1", "-2"),
    gauss("1/x^3", "-1", "1", "0"),
    gauss("x/(x^2-2)", "-2", "2", "0"),
    gauss("exp(x)/x", "-1", "1", "Ei(1) - Ei(-1)"),
    # ... and across poles no rational names, of the integrand or of its antiderivative
    gauss("tan(x)^2 + 1", "1", "2", "tan(2) - tan(1)"),
    gauss("3*x^2*(tan(x^3)^2 + 1)", "1/2", "2", "tan(8) - tan(1/8)"),
    gauss("1/(1+cos(x))", "3", "4", "tan(2) - tan(3/2)"),
    gauss("sec(x)", "1", "2", "1"),
    # improper at 0, with a parameter the value lacks: refuted at a sample point's values
    gauss("log(x) + sqrt(y)", "0", "1", "1"),
    gauss("log(x) + sqrt(y)", "0", "1", "sqrt(y) - 1"),
    gauss("sin(x)/x*log(y)", "-1", "1", "3"),
    # f64 overflows at some sample points, where the residual has a value: the terms that
    # cancel may not hide the remainder there (alkahest cancels them first)
    {"kind": "identity", "lhs": "8*y^6 + exp(625*x^4)", "rhs": "8*y^6 + exp(625*x^4) + 10^(-8)*x^2"},
    {"kind": "identity", "lhs": "8*y^6 + exp(625*x^4)", "rhs": "8*y^6 + exp(625*x^4) + 10^(-9)*x^2"},
    {"kind": "zero", "expr": "cosh(cosh(x*y) - asinh(x - y)) - (cosh(cosh(x*y) - asinh(x - y)) + 3*10^(-9)*x^2)"},
    # no real value at any sample point; alkahest cancels the terms without one (the second
    # has values with every sample negated, and is refuted there)
    {"kind": "zero", "expr": "sqrt(sqrt(y)*(x - 4)) - (sqrt(sqrt(y)*(x - 4)) + 3*10^(-10)*sin(x))"},
    {"kind": "identity", "lhs": "tanh(log((x + y)*cos(2)))", "rhs": "tanh(log((x + y)*cos(2))) + 3*10^(-7)*y"},
]

MAKERS = [identity, zero, derivative, antiderivative, definite_integral, special, malformed]
checks = [MAKERS[i % len(MAKERS)]() for i in range(count)] + EDGE
checks += [{"kind": "numeric_relation", "constants": c, "coefficients": k} for c, k in NUMERIC_RELATION]
graph = research.ClaimGraph()
for i, check in enumerate(checks):
    statement = f"generated claim {i}"
    graph.add(research.Claim(id=research.claim_id(statement, (), "m"), statement=statement, kind="text", method="m", check=check))
graph.save(out)
report = research.ClaimGraph.load(out).verify()
for o in report.outcomes:
    print(json.dumps({"id": o.claim_id, "outcome": o.outcome, "kind": o.kind, "detail": o.detail}))
