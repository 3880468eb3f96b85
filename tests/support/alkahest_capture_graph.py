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
zero, one = pool.integer(0), pool.integer(1)
with research.session(capture=True, pool=pool) as session:
    for f in expressions:
        for operation in (
            lambda: ak.integrate(f, x),
            lambda: ak.diff(f, x),
            lambda: ak.simplify(f + f),
            lambda: ak.integrate(f, x, zero, one),
        ):
            try:
                operation()
            except Exception as e:  # alkahest cannot do every one; it records what it did
                print(f"alkahest: {type(e).__name__}", file=sys.stderr)
    session.graph.save(out)
for o in research.ClaimGraph.load(out).verify().outcomes:
    print(json.dumps({"id": o.claim_id, "outcome": o.outcome, "kind": o.kind, "detail": o.detail}))
