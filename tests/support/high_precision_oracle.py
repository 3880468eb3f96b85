"""An independent high-precision check of sciproof's expression-recipe outcomes (mpmath, 60 digits).

Usage: python high_precision_oracle.py < CASES.json
CASES is a list of {"check": <recipe>, "outcome": <ours>, "detail": <ours>}. Every `ok`,
`numeric_ok` and `failed` is checked at the sample points of alkahest's numeric rule (0.37, 1.23,
2.71; symbol of rank r at s + 0.11 r; pi and e at their values, keeping their slots), evaluated
again here with mpmath from the recipe's text (a parser of alkahest's grammar of its own,
derivatives by mpmath's numerical differentiation, integrals by its quadrature):
  ok          the residual vanishes (to 1e-20 of its terms) at every point where it has a value;
  numeric_ok  |residual| <= tolerance at every such point;
  failed      |residual| > tolerance at one of them at least (at the points with every sample
              negated, when ours says it refuted at one: `a sample point negated`);
  inconclusive, for want of a sample point with a value (`; no numeric sample`): no point has
              one (otherwise unchecked: alkahest words an overflow the same way).
A point where a value is complex or undefined is left out, as the numeric rule leaves it out.
An `ok` definite integral with parameters (a bound `t`, a symbol `a`) is checked beyond the sample
points too, over a grid of values of either sign: wherever its value is defined, the integrand
must have a value across the interval (but at isolated points) and the quadrature must match it
(a point where the quadrature does not converge is left out).
Prints one JSON object per case: {"verdict": "confirmed" | "contradicted" | "unchecked", "why"},
then nothing else. Other `inconclusive` outcomes are unchecked: they claim nothing.
"""
import itertools
import json
import re
import sys

import mpmath as mp

mp.mp.dps = 60
SAMPLES = [0.37, 1.23, 2.71]
SPACING = 0.11
TOLERANCE = 1e-8

TOKEN = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(\*\*|[-+*/^(),]))")


class Undefined(Exception):
    """The expression has no real value here."""


class Unsupported(Exception):
    """The oracle cannot evaluate this (a function it does not know)."""


def tokens(text):
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Unsupported(f"cannot read {text[pos:]!r}")
        out.append(m.group(1) and ("num", m.group(1)) or m.group(2) and ("id", m.group(2)) or ("op", m.group(3)))
        pos = m.end()
    return out + [("end", "")]


def parse(text):
    """alkahest's grammar: + - 10, * / 20, unary signs 25, ^ ** 30 (right), calls, numbers."""
    ts = tokens(text)
    at = [0]

    def peek():
        return ts[at[0]]

    def take():
        at[0] += 1
        return ts[at[0] - 1]

    def nud():
        kind, t = take()
        if kind == "num":
            return ("num", t)
        if kind == "id":
            if peek() == ("op", "("):
                take()
                args = [] if peek() == ("op", ")") else [expr(0)]
                while peek() == ("op", ","):
                    take()
                    args.append(expr(0))
                if take() != ("op", ")"):
                    raise Unsupported("unclosed call")
                return ("call", t, args)
            return ("sym", t)
        if (kind, t) == ("op", "("):
            e = expr(0)
            if take() != ("op", ")"):
                raise Unsupported("unclosed parenthesis")
            return e
        if (kind, t) in (("op", "-"), ("op", "+")):
            operand = expr(25)
            return ("neg", operand) if t == "-" else operand
        raise Unsupported(f"unexpected {t!r}")

    power = {"+": 10, "-": 10, "*": 20, "/": 20, "^": 30, "**": 30}

    def expr(bp):
        left = nud()
        while peek()[0] == "op" and peek()[1] in power and power[peek()[1]] > bp:
            op = take()[1]
            right = expr(power[op] - 1 if op in ("^", "**") else power[op])
            left = ("bin", "^" if op == "**" else op, left, right)
        return left

    e = expr(0)
    if peek()[0] != "end":
        raise Unsupported("trailing text")
    return e


def real(v):
    if isinstance(v, mp.mpc):
        if v.imag != 0:
            raise Undefined()
        v = v.real
    if not mp.isfinite(v):
        raise Undefined()
    return v


def lambert_w(x):
    if x < -1 / mp.e:
        raise Undefined()
    return mp.lambertw(x)


def positive(f):
    def g(x):
        if x <= 0:
            raise Undefined()
        return f(x)
    return g


def rounded(x):
    # alkahest rounds half away from zero
    return mp.sign(x) * mp.floor(abs(x) + mp.mpf(1) / 2)


FUNCTIONS = {
    "sin": mp.sin, "cos": mp.cos, "tan": mp.tan, "sinh": mp.sinh, "cosh": mp.cosh, "tanh": mp.tanh,
    "asin": mp.asin, "acos": mp.acos, "atan": mp.atan, "asinh": mp.asinh, "acosh": mp.acosh,
    "atanh": mp.atanh, "atan2": lambda y, x: mp.atan2(y, x), "exp": mp.exp, "log": positive(mp.log),
    "sqrt": mp.sqrt, "abs": abs, "sign": mp.sign, "floor": mp.floor, "ceil": mp.ceil, "round": rounded,
    "erf": mp.erf, "erfc": mp.erfc, "gamma": mp.gamma, "lambert_w": lambert_w, "digamma": mp.digamma,
    "trigamma": lambda x: mp.psi(1, x), "bessel_j0": lambda x: mp.besselj(0, x),
    "bessel_j1": lambda x: mp.besselj(1, x), "EllipticK": mp.ellipk,
    "EllipticE": lambda *a: mp.ellipe(*a), "EllipticF": mp.ellipf, "EllipticPi": mp.ellippi,
    "Ei": mp.ei, "li": positive(mp.li), "Si": mp.si, "Ci": positive(mp.ci), "Shi": mp.shi,
    "Chi": positive(mp.chi), "fresnels": mp.fresnels, "fresnelc": mp.fresnelc,
    "dilog": lambda x: mp.polylog(2, x) if x <= 1 else (_ for _ in ()).throw(Undefined()),
    # (alkahest reads these as the reciprocals and as x^(1/3), which has no value below 0)
    "sec": lambda x: 1 / mp.cos(x), "csc": lambda x: 1 / mp.sin(x), "cot": lambda x: 1 / mp.tan(x),
    "sech": lambda x: 1 / mp.cosh(x), "csch": lambda x: 1 / mp.sinh(x), "coth": lambda x: 1 / mp.tanh(x),
    "cbrt": lambda x: mp.cbrt(x) if x >= 0 else (_ for _ in ()).throw(Undefined()),
}


# The largest magnitude of any value met while evaluating at the current point: 60 digits of it
# bound the rounding of a sum that cancels inside one part (`A - (A + r)` with A near 10^452).
# A function that amplifies relative error counts as the larger value it stands for:
# exp(a), sinh(a) and cosh(a) carry a's relative error times |a|, and u^b carries u's times
# |b| and b's times |b log u| (sinh(cosh(104.5)), near exp(10^45), is good to 15 digits of
# its own size, not 60).
LARGEST = [mp.mpf(0)]
AMPLIFYING = {"exp", "sinh", "cosh"}


def met(size):
    if size > LARGEST[0]:
        LARGEST[0] = size


def value(e, env):
    v = value_of(e, env)
    met(abs(v))
    return v


def value_of(e, env):
    kind = e[0]
    if kind == "num":
        return mp.mpf(e[1])
    if kind == "sym":
        if e[1] in env:
            return env[e[1]]
        raise Unsupported(f"unbound {e[1]}")
    if kind == "neg":
        return -value(e[1], env)
    if kind == "call":
        f = FUNCTIONS.get(e[1])
        if f is None:
            raise Unsupported(f"no function {e[1]}")
        args = [value(a, env) for a in e[2]]
        try:
            v = real(f(*args))
        except (ValueError, ZeroDivisionError, TypeError):
            raise Undefined()
        if e[1] in AMPLIFYING:
            met(abs(v) * abs(args[0]))
        return v
    op, a, b = e[1], value(e[2], env), value(e[3], env)
    try:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            if b == 0:
                raise Undefined()
            return a / b
        if a < 0 and b != mp.floor(b):
            raise Undefined()
        if a == 0 and b < 0:
            raise Undefined()
        v = real(mp.power(a, b))
        met(abs(v) * max(abs(b), abs(b * mp.log(abs(a))) if a != 0 else 0))
        return v
    except ZeroDivisionError:
        raise Undefined()


def symbols(e, out):
    if e[0] == "sym":
        out.add(e[1])
    for part in e[1:]:
        if isinstance(part, tuple):
            symbols(part, out)
        elif isinstance(part, list):
            for p in part:
                symbols(p, out)


def points(names, sign=1):
    """The sample points; with sign -1, each with every sample negated (pi and e kept)."""
    for s in SAMPLES:
        env = {}
        for rank, name in enumerate(sorted(names)):
            env[name] = {"pi": +mp.pi, "e": +mp.e}.get(name, sign * mp.mpf(s + rank * SPACING))
        yield env


def derivative(e, var, env):
    """d/dvar e at the point: by numerical differentiation, term by term over the sums and
    differences at the top, a term free of var contributing 0 as under any symbolic rule (so a
    term with no value at the point, `acos(5y/2 - Si(y))` in an antiderivative in x, does not
    take the point away: both tools' residuals have lost it)."""
    if e[0] == "bin" and e[1] in ("+", "-"):
        a, b = derivative(e[2], var, env), derivative(e[3], var, env)
        return a + b if e[1] == "+" else a - b
    if e[0] == "neg":
        return -derivative(e[1], var, env)
    free = set()
    symbols(e, free)
    if var not in free:
        return mp.mpf(0)

    def f(t):
        return value(e, dict(env, **{var: t}))
    f(env[var])
    try:
        return real(mp.diff(f, env[var]))
    except Undefined:
        raise
    except (ValueError, ZeroDivisionError):
        raise Undefined()


def pieces(lower, upper):
    """The interval cut at 0 and at every power of ten within it, so that tanh-sinh quadrature
    sees a peak near 0 of an interval as wide as [-10^300, 10^300]."""
    cuts = [mp.mpf(0)] + [sign * mp.mpf(10) ** k for k in range(-2, 320, 2) for sign in (1, -1)]
    inside = sorted(c for c in cuts if min(lower, upper) < c < max(lower, upper))
    points = [lower] + (inside if lower < upper else inside[::-1]) + [upper]
    return points


def residual_parts(check):
    """Per point: the residual's parts (their sum is the residual), or raises Undefined."""
    kind = check["kind"]
    fields = {"identity": ["lhs", "rhs"], "zero": ["expr"], "derivative": ["expr", "value", "var"],
              "antiderivative": ["antiderivative", "integrand", "var"],
              "definite_integral": ["integrand", "lower", "upper", "value", "var"]}[kind]
    parsed = {k: parse(check[k]) for k in fields}
    names = set()
    for e in parsed.values():
        symbols(e, names)
    var = check.get("var")

    def at(env):
        if kind == "identity":
            return [value(parsed["lhs"], env), -value(parsed["rhs"], env)]
        if kind == "zero":
            return [value(parsed["expr"], env)]
        if kind == "derivative":
            return [derivative(parsed["expr"], var, env), -value(parsed["value"], env)]
        if kind == "antiderivative":
            return [derivative(parsed["antiderivative"], var, env), -value(parsed["integrand"], env)]
        lower, upper = value(parsed["lower"], env), value(parsed["upper"], env)

        def f(t):
            try:
                return value(parsed["integrand"], dict(env, **{var: t}))
            except Undefined:
                return mp.nan
        integral, error = mp.quad(f, pieces(lower, upper), error=True)
        if not mp.isfinite(integral) or error > mp.mpf("1e-25") * (1 + abs(integral)):
            raise Unsupported(f"quadrature error {mp.nstr(error, 3)}")
        return [integral, -value(parsed["value"], env)]

    return names, at


GRID = [-7.3, -3.1, -2.2, -1.3, -0.83, -0.41, -0.13, 0.17, 0.53, 0.91, 1.37, 2.3, 3.7, 6.1]


def beyond_the_samples(check):
    """For an `ok` definite integral with parameters: why it fails at a point of the grid, or
    None. (30 digits: a grid of up to 49 points, each a quadrature.)"""
    if check.get("kind") != "definite_integral":
        return None
    var = check["var"]
    parsed = {k: parse(check[k]) for k in ("integrand", "lower", "upper", "value")}
    names = set()
    for e in parsed.values():
        symbols(e, names)
    params = sorted(n for n in names if n not in (var, "pi", "e"))
    if not params or len(params) > 2:
        return None
    grid = GRID if len(params) == 1 else GRID[::2]
    with mp.workdps(30):
        for values in itertools.product(grid, repeat=len(params)):
            env = {"pi": +mp.pi, "e": +mp.e}
            env.update({p: mp.mpf(v) for p, v in zip(params, values)})
            where = ", ".join(f"{p} = {v}" for p, v in zip(params, values))
            try:
                v = value(parsed["value"], env)
                lower, upper = value(parsed["lower"], env), value(parsed["upper"], env)
            except Undefined:
                continue

            def f(x):
                try:
                    return value(parsed["integrand"], dict(env, **{var: x}))
                except Undefined:
                    return mp.nan

            inside = [lower + (upper - lower) * mp.mpf(i) / 200 + mp.mpf("1e-7") for i in range(1, 200)]
            if sum(1 for x in inside if mp.isnan(f(x))) > 2:
                return f"ok, but at {where} the integrand has no value on part of the interval"
            cuts = [lower, upper] + [mp.mpf(k) / 2 for k in range(-40, 41)
                                     if min(lower, upper) < mp.mpf(k) / 2 < max(lower, upper)]
            cuts = sorted(set(cuts), reverse=lower > upper)
            try:
                integral, error = mp.quad(f, cuts, error=True)
            except (ValueError, ZeroDivisionError):
                continue
            if not mp.isfinite(integral) or error > mp.mpf("1e-12") * (1 + abs(integral)):
                continue
            if abs(integral - v) > mp.mpf("1e-9") * (1 + abs(v)):
                return (f"ok, but at {where} the integral is {mp.nstr(integral, 12)} and the value "
                        f"{mp.nstr(v, 12)}")
    return None


def no_value_anywhere(check):
    """Whether the residual has no real value at any sample point (a point where a part is
    undefined); None when the oracle cannot tell."""
    try:
        names, at = residual_parts(check)
        for env in points(names):
            try:
                at(env)
                return False
            except Undefined:
                continue
    except (Unsupported, KeyError, TypeError, RecursionError):
        return None
    return True


def verdict(case):
    check, outcome = case["check"], case["outcome"]
    if outcome == "inconclusive" and case.get("detail", "").endswith("; no numeric sample") and isinstance(check, dict):
        # no value at any sample point, as ours says: confirmed only where no point has one
        if no_value_anywhere(check):
            return "confirmed", "the residual has no real value at any sample point"
        return "unchecked", "a value at a sample point, or one the oracle cannot evaluate"
    if outcome not in ("ok", "numeric_ok", "failed") or not isinstance(check, dict):
        return "unchecked", "claims nothing"
    if "does not exist" in case.get("detail", ""):
        return "unchecked", "a divergent integral"
    tolerance = float(check.get("tolerance", TOLERANCE))
    # (a refutation where no sample point has a value names a point with every sample negated)
    sign = -1 if outcome == "failed" and "sample point negated" in case.get("detail", "") else 1
    try:
        names, at = residual_parts(check)
        residuals = []
        for env in points(names, sign):
            LARGEST[0] = mp.mpf(0)
            try:
                parts = at(env)
            except Undefined:
                continue
            # (60 digits of each part and of every value met on the way, derivatives by
            # numerical differentiation: a bound on the rounding far above theirs)
            scale = max([abs(p) for p in parts] + [LARGEST[0], mp.mpf(1)])
            residuals.append((abs(mp.fsum(parts)), scale * mp.mpf("1e-35")))
    except (Unsupported, KeyError, TypeError, RecursionError) as e:
        return "unchecked", f"the oracle cannot evaluate it ({e})"
    if not residuals:
        return "unchecked", "no sample point has a value"
    worst = max(r for r, _ in residuals)
    above = [r for r, error in residuals if r - error > tolerance]
    below = all(r + error <= tolerance for r, error in residuals)
    if outcome == "ok":
        bad = [r for r, error in residuals if r > error * mp.mpf("1e15")]
        if bad:
            return "contradicted", f"ok, but the residual is {mp.nstr(max(bad), 6)} at a sample point"
        beyond = beyond_the_samples(check)
        if beyond:
            return "contradicted", beyond
    elif outcome == "numeric_ok" and above:
        return "contradicted", f"numeric_ok, but |residual| = {mp.nstr(max(above), 6)} > {tolerance}"
    elif outcome == "failed" and below:
        return "contradicted", f"failed, but |residual| <= {mp.nstr(worst, 6)} at every sample point"
    elif not (above or below):
        return "unchecked", "too close to the tolerance for 60 digits"
    return "confirmed", f"|residual| <= {mp.nstr(worst, 3)}"


def main():
    for case in json.load(sys.stdin):
        try:
            v, why = verdict(case)
        except Exception as e:  # the oracle's own limits, never a verdict
            v, why = "unchecked", f"{type(e).__name__}: {e}"
        print(json.dumps({"verdict": v, "why": why}))


if __name__ == "__main__":
    main()
