"""Claim-graph benchmark helpers (called by bench/run; no third-party imports for `make`).

    make N PATH        write an alkahest-format claim graph of N text claims: a chain plus up to two
                       random edges per claim to earlier claims, each with a numeric_relation recipe
                       (one in 1,000 false); IDs are computed as alkahest computes them
    reference PATH     with alkahest.research: load, verify, impact of the root, save; prints
                       "seconds maxrss_kib impact_count"
    expressions N PATH write a claim graph of N expression recipes (identity, zero, derivative,
                       antiderivative, definite_integral; true ones and false ones)
    verify PATH        with alkahest.research: load and verify only; prints "seconds maxrss_kib"
    job PATH           with alkahest.research: load, verify and save (what `graph verify` does),
                       timed from outside with the interpreter's start and the import
"""
import hashlib
import json
import random
import resource
import sys
import time


def claim_id(statement, hypotheses, method):
    text = json.dumps({"statement": statement, "hypotheses": sorted(hypotheses), "method": method},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "clm_" + hashlib.sha256(text.encode()).hexdigest()[:16]


def make(n, path):
    rng = random.Random(7)
    ids = []
    claims = []
    for i in range(n):
        statement = f"c{i}: a relation between two constants"
        cid = claim_id(statement, [], "pslq")
        deps = []
        if i:
            deps.append(ids[i - 1])
            for _ in range(2):
                j = rng.randrange(i)
                if ids[j] not in deps:
                    deps.append(ids[j])
        coefficients = [1, 1] if i % 1000 == 999 else [-2, 1]
        claims.append({
            "audit": [], "certificate": None, "certificate_format": None,
            "check": {"kind": "numeric_relation", "constants": ["0.3465735902799726547086160607", "0.6931471805599453094172321215"],
                      "coefficients": coefficients},
            "depends_on": deps, "derivation": [], "evidence": "pslq at 28 digits", "hypotheses": [], "id": cid,
            "kind": "text", "label": None, "latex": None, "method": "pslq", "notes": None,
            "provenance": {"operation": "pslq"}, "recorded_at": "2026-11-30T00:00:00+00:00",
            "statement": statement, "status": "unverified", "tags": [],
            "verification": {"evidence": "pslq at 28 digits", "status": "unverified"},
        })
        ids.append(cid)
    doc = {"claims": claims, "kind": "alkahest.claim_graph", "metadata": {"generator": "bench"},
           "schema_version": 1, "title": f"{n} claims"}
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return ids[0]


EXPRESSION_RECIPES = [
    {"kind": "identity", "lhs": "(x+y)^2", "rhs": "x^2 + 2*x*y + y^2"},
    {"kind": "identity", "lhs": "sin(2*x)", "rhs": "2*sin(x)*cos(x)"},
    {"kind": "identity", "lhs": "exp(30)*(x+1)", "rhs": "exp(30)*x + exp(30)"},
    {"kind": "identity", "lhs": "log(x*y)", "rhs": "log(x) + log(y) + 1"},
    {"kind": "zero", "expr": "sin(x)^2 + cos(x)^2 - 1"},
    {"kind": "zero", "expr": "(x+1)^3 - x^3 - 3*x^2 - 3*x - 1"},
    {"kind": "derivative", "expr": "x^2*sin(x)", "var": "x", "value": "2*x*sin(x) + x^2*cos(x)"},
    {"kind": "derivative", "expr": "exp(2*x)/(x+1)", "var": "x", "value": "2*exp(2*x)/(x+1)"},
    {"kind": "antiderivative", "integrand": "x*exp(x)", "antiderivative": "(x-1)*exp(x)", "var": "x"},
    {"kind": "antiderivative", "integrand": "1/(1+x^2)", "antiderivative": "atan(x)", "var": "x"},
    {"kind": "definite_integral", "integrand": "3*x^2 + 2*x", "var": "x", "lower": "0", "upper": "2", "value": "12"},
    {"kind": "definite_integral", "integrand": "x/(x^2+1)", "var": "x", "lower": "0", "upper": "1", "value": "log(2)/2"},
]


def expressions(n, path):
    claims = []
    for i in range(n):
        statement = f"e{i}: an expression claim"
        check = dict(EXPRESSION_RECIPES[i % len(EXPRESSION_RECIPES)])
        claims.append({
            "audit": [], "certificate": None, "certificate_format": None, "check": check,
            "depends_on": [], "derivation": [], "evidence": "none", "hypotheses": [],
            "id": claim_id(statement, [], "record"), "kind": "text", "label": None, "latex": None,
            "method": "record", "notes": None, "provenance": {"operation": "record"},
            "recorded_at": "2026-11-30T00:00:00+00:00", "statement": statement, "status": "unverified",
            "tags": [], "verification": {},
        })
    doc = {"claims": claims, "kind": "alkahest.claim_graph", "metadata": {"generator": "bench"},
           "schema_version": 1, "title": f"{n} expression claims"}
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def verify_only(path):
    import alkahest.research as r
    start = time.perf_counter()
    r.ClaimGraph.load(path).verify()
    print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def job(path):
    import alkahest.research as r
    graph = r.ClaimGraph.load(path)
    graph.verify()
    graph.save(path)


def reference(path):
    import alkahest.research as r
    start = time.perf_counter()
    graph = r.ClaimGraph.load(path)
    graph.verify()
    root = graph.roots()[0].id
    count = len(graph.impact(root))
    graph.save(path)
    print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, count)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        print(make(int(sys.argv[2]), sys.argv[3]))
    elif sys.argv[1] == "expressions":
        expressions(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "verify":
        verify_only(sys.argv[2])
    elif sys.argv[1] == "job":
        job(sys.argv[2])
    else:
        reference(sys.argv[2])
