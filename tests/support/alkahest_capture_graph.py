"""A claim graph recorded by alkahest itself, with capture=True: integrate (indefinite and
definite), diff and simplify over a set of expressions, each recorded with the recipe alkahest
infers.

Usage: python alkahest_capture_graph.py OUT.json
Prints alkahest's re-verification of the saved graph, one JSON object per claim.
"""
import json
import sys

import alkahest as ak
import alkahest.research as research
from alkahest._parse import parse

out = sys.argv[1]
pool = ak.ExprPool()
x = pool.symbol("x")
a = pool.symbol("a")
expressions = [
    x**2 + ak.sin(x), ak.exp(2 * x) * x, ak.cos(x) ** 2, x**3 - a * x, ak.log(x + 1),
    1 / (x**2 + 1), ak.sqrt(x), ak.atan(x), ak.sin(x) * ak.cos(x), x * ak.exp(x),
    x**2 * ak.sin(x), ak.cosh(x) * x, 1 / (x + 2), ak.exp(-x) * x**2,
    ak.elliptic_f(x, pool.rational(1, 2)), ak.elliptic_e(x, pool.rational(1, 3)),
    ak.elliptic_pi(pool.rational(1, 4), x, pool.rational(1, 2)),
]
# More that alkahest's integrator does (inverse functions, sec, odd powers of sin and cos,
# exp·sin, rational functions by partial fractions, roots of quadratics, by parts), written
# in its grammar; the re-check of each must not be weaker here than alkahest's own.
expressions += [parse(text, pool) for text in [
    "1/sqrt(1-x^2)", "1/sqrt(1+x^2)", "sec(x)", "asinh(x)", "asin(x)", "acos(x)", "atanh(x)",
    "erf(x)", "sin(x)^3", "cos(x)^3", "sin(x)^2*cos(x)", "exp(x)*sin(x)", "exp(x)*cos(x)",
    "1/(x^2+x+1)", "sqrt(1-x^2)", "sqrt(1+x^2)", "x*sqrt(1+x^2)", "1/(1+exp(x))",
    "log(1+x^2)", "x*atan(x)", "1/(1+x^3)", "x^3/(1+x^2)", "1/(x^2-4)", "(x+1)/(x^2+2*x+2)",
    "x*log(x+1)", "1/(x+3)^2", "acosh(x+2)", "erfc(x)", "tan(x)^3", "x*sin(x)^2", "cos(x)^4",
    "sin(x)^4", "1/(1+cos(x))", "x/sqrt(x^2+1)", "1/(x^2+1)^2",
    # by an inverse substitution (t = log x, sqrt(x), asin x, asinh x), a reduction formula,
    # by parts through exp*sin, asin and sec^2, and through s = x^2
    "sin(log(x))", "cos(log(x))", "x*log(x)^2", "exp(sqrt(x))", "sin(sqrt(x))",
    "x*exp(sqrt(x))", "1/(1+sqrt(x))", "asin(x)^2", "asinh(x)^2", "sec(x)^3",
    "x*sin(x)*exp(2*x)", "x*asin(x)", "x*tan(x)^2", "x*sec(x)^2", "x^3*exp(x^2)",
    "x*asin(x)^2", "x*sin(x)*cos(x)", "x*asinh(x)^2", "1/(1+x^2)^(3/2)", "sin(x)^2*cos(x)^2",
    "x*exp(x^2)*sin(x^2)", "sec(x)*tan(x)",
    # values with asin/acos/atan of the angles of pi/12, roots singular at 0 (and at both
    # ends on [0, 1]), atan(x)^2 by parts
    "x*acos(x)^2", "asin(sqrt(x))", "acos(sqrt(x))", "x*atan(x)^2", "x^3*atan(x)^2",
    # partial fractions over Q(sqrt 2), and a root continuous up to its domain's end at 0
    "sqrt(tan(x))",
    # through Si, across csc^2 = 1 + cot^2, and by a substitution: t = tan(x/2) for rational
    # functions of sin and cos, t = sin x for cos(x) times one of sin
    "sin(x)/x", "csc(x)^2", "1/(1+sin(x))", "1/(2+sin(x))", "1/(5+4*cos(x))",
    "cos(x)/(1+sin(x)^2)", "cos(x)^3/(1+sin(x)^2)",
    # exp times cosh, as exponentials
    "exp(2*x)*cosh(x)",
    # powers of one base kept whole, at different depths of products once differentiated
    "(x^2-1)^65/(x+1)^65",
    # logarithms of numbers written two ways, atan(tan(1)), multiples of an angle past 12,
    # P times a root of a linear argument, t = exp(x) and t = x^(1/3), log and atan times
    # a rational function or a root by parts
    "sin(x)/(1+cos(x))", "tan(x)^4", "cos(x)^2*sin(x)^3", "sin(x)^6", "sin(x)^4*cos(x)^3",
    "x*(x+1)^(1/3)", "x^2*sqrt(2*x+1)", "exp(2*x)/sqrt(1+exp(x))", "x^(1/3)/(1+x^(2/3))",
    "log(x)/sqrt(x)", "log(x+1)/(x+2)^2", "atan(x)/(x+1)^2",
    # partial fractions over a cube of a quadratic and over two quadratics; by parts, its
    # logarithms cancelling at 0
    "1/(1+x^2)^3", "1/((1+x^2)*(x^2+4))", "log(x)/(x+1)^2",
    # a root of a root: its derivative's roots merge in nested products; three sines, and a
    # sum times exp, multiplied out
    "sqrt(1+sqrt(x))", "sin(x)*cos(2*x)*cos(3*x)", "exp(x)*(sin(x)+cos(x))",
    # log of sin, which vanishes at 0 like its argument; exp times a rational function
    "cos(x)*log(sin(x))", "x*exp(x)/(1+x)^2",
    # partial fractions over a quadratic with irrational roots
    "1/(x^2+x-1)",
    # t = sqrt((1 - x)/(1 + x)), a root of a ratio; asinh written as its logarithm
    "sqrt((1-x)/(1+x))", "log(x+sqrt(1+x^2))",
    # atan of a rational function by parts (improper at 0, where x*atan(1/x) tends to 0)
    "atan(1/x)",
    # |x| as a root of a square (and x|x|), a logarithm of a square singular at 0, a root of
    # a square that is positive, a half-integer power over x^2 by parts (divergent at 0:
    # alkahest records only its antiderivative)
    "sqrt(x^2)", "log(x^2)", "x*log(x^2)", "sqrt(x^4+2*x^2+1)", "(1+x^2)^(3/2)/x^2",
    # a logarithm over a line through dilog (its logarithms vanishing at 0), a root in a sum
    # below the line through its conjugate, and a multiple of log x that is analytic and 0
    # at 0 ((x + 1)*exp(x) - exp(x))
    "log(x)/(x+1)", "1/(x+sqrt(1+x^2))", "1/(sqrt(x+1)+sqrt(x))", "(x+1)*exp(x)*log(x)",
    # a polynomial times a Gaussian (erf), over an odd power of a root of a quadratic, exp of a
    # sum read by the chain rule, a logarithm of a pole at 0, and a sum whose terms take
    # their third sign placement (with a multiple of log x that is Lipschitz at 0)
    "x^2*exp(-x^2)", "x^2/(1+x^2)^(5/2)", "exp(x+exp(x))", "log(1+1/x^2)", "x*log(x)/(x+1)^2",
    # a bare odd power of a root of a quadratic, alkahest writing its exponent 3*2^-1; lines
    # with a symbolic slope (the values over a)
    "(1-x^2)^(3/2)", "sin(a*x)", "x*cos(a*x)",
    # logarithms of arguments with a parameter, positive on the interval wherever the value
    # (holding log(a), log(a + 1)) is defined
    "x/(x^2+a)", "log(a*x+1)",
    # atan of a line with a symbolic slope (log(1 + (a x)^2), positive by its form), x over a
    # root of a line with a symbolic intercept
    "atan(a*x)", "x/sqrt(x+a)",
    # improper at 0, with a parameter outside: term by term
    "a*log(x)", "x*log(x)+a*x",
]]
# Beyond 1, over [1, 2] and [2, 3] (below 1 they have no value, or a pole at 0): values with
# atan of algebraic numbers (2*atan(3 + sqrt(8))) and logarithms over Q(sqrt 2, sqrt 10), and
# a polynomial over a power of a line times a root of a quadratic (at x - r = 1/u), and an even
# quadratic below the root of another (at t = x/sqrt(b x^2 + q)); t = acosh(x); log of log,
# which vanishes at 1 like log does; a product of powers of x that meet (x^-1 * x)
beyond = [parse(text, pool) for text in [
    "sqrt(x^2-1)/x", "acosh(x)/x^2", "1/(x*sqrt(x^2+2*x+2))", "1/(x*sqrt(x^2+2*x-1))",
    "1/((x+1)*sqrt(x^2+1))", "1/(x*sqrt(x^2+2*x))", "1/(x^2*sqrt(x^2+2*x+2))",
    "sqrt(x^2+2*x+2)/x", "x/((x+1)*sqrt(x^2+1))", "1/((1+x^2)*sqrt(2+x^2))", "acosh(x)^2",
    "log(log(x))/x", "exp(x)*(1+x*log(x))/x",
    # t = sqrt(x) and the biquadratic 1 + t^4 (over Q(sqrt 2)); values with sin 27 beside sin 9
    "sqrt(x)/(1+x^2)", "cos(3*x)^3",
    # with a parameter (alkahest integrates these only away from 0): a power of a line with a
    # symbolic slope, and log(a + exp(x)), increasing in x
    "1/(1+a*x)", "exp(x)/(a+exp(x))",
    # past the degree 32 that polynomials are expanded to: a long polynomial, a long numerator
    # over a line, a function of one line (u = x + 1), and a root's power past the powers of
    # sums multiplied out
    "(1+x^2)^33", "x^33/(x+1)", "(x+1)^40*log(x+1)", "(x+1)^65*sqrt(x+1)",
]]
# Up to a symbol t, from 1 and (but where the integral has no value) from 0: x > 0 between 1
# and t wherever log(t) is defined; 1 - x^2, concave, is at least 0 wherever asin(t) is; from 0
# improper, where x*log(x) - x has a limit and not a value
up_to_t = [(parse(text, pool), from_0) for text, from_0 in [
    ("1/x", False), ("log(x)", True), ("sqrt(x)", True), ("1/(x+1)", True), ("sqrt(1-x^2)", True),
    ("x*log(x)", True), ("log(x)/sqrt(x)", True),
    # signs by form where no ball holds [0, t]: a product of positive factors, a quadratic positive
    # everywhere, an even power at least 0
    ("1/(1+exp(x))", True), ("1/(1+x^3)", True), ("atan(x)/(x+1)^2", True), ("sqrt(x^2)", True),
    # 1 - sqrt(x)^2, which is 1 - x where the root is defined; a root above the rest of its sum
    ("asin(sqrt(x))", True), ("log(x+sqrt(1+x^2))", True),
    # acosh u needs u - 1 >= 0, (x + 2)^2 - 1 >= 0 where x + 2 >= 1; a value with no value at
    # t = 0 (t*atan(1/t)) and F with one limit there, from either side; across a removable point
    ("acosh(x+2)", True), ("atan(1/x)", True), ("log(1+1/x^2)", True), ("log(x^2)", True),
    ("x*log(x^2)", True),
    # the value as its own antiderivative (an atan identity away from the table's)
    ("1/((1+x^2)*sqrt(2+x^2))", True), ("x*acos(x)^2", True), ("exp(x)*(1+x*log(x))/x", False),
    ("acosh(x)^2", False), ("acosh(x)/x^2", False),
    # a witness monotone in t past its root (t > -1, t > 0), between the roots of a quotient
    # of lines, log(log t) (t > 1)
    ("1/(sqrt(1+x^2)*(x+1))", True), ("x/(sqrt(1+x^2)*(x+1))", True),
    ("1/(x*sqrt(x^2+2*x+2))", False), ("sqrt(x^2+2*x+2)/x", False), ("1/(x^2+x-1)", False),
    ("sqrt((1-x)/(1+x))", True), ("log(log(x))/x", False),
    # a natural power past that degree is continuous wherever its base is
    ("(x+1)^70", True), ("(1+x^2)^33", True),
]]
t = pool.symbol("t")
zero, one, half = pool.integer(0), pool.integer(1), pool.rational(1, 2)
two, three = pool.integer(2), pool.integer(3)


def record(operations):
    """Runs each operation; alkahest cannot do every one, and records what it did."""
    for operation in operations:
        try:
            operation()
        except Exception as e:
            print(f"alkahest: {type(e).__name__}", file=sys.stderr)


with research.session(capture=True, pool=pool) as session:
    for f in beyond:
        record((
            lambda: ak.integrate(f, x),
            lambda: ak.integrate(f, x, one, two),
            lambda: ak.integrate(f, x, two, three),
        ))
    for f, from_0 in up_to_t:
        record((lambda: ak.integrate(f, x, one, t),))
        if from_0:
            record((lambda: ak.integrate(f, x, zero, t),))
    for f in expressions:
        record((
            lambda: ak.integrate(f, x),
            lambda: ak.diff(f, x),
            lambda: ak.simplify(f + f),
            lambda: ak.integrate(f, x, zero, one),
            lambda: ak.integrate(f, x, zero, half),
        ))
    session.graph.save(out)
for o in research.ClaimGraph.load(out).verify().outcomes:
    print(json.dumps({"id": o.claim_id, "outcome": o.outcome, "kind": o.kind, "detail": o.detail}))
