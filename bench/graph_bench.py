"""Claim-graph benchmark helpers (called by bench/run; no third-party imports for `make`).

    make N PATH        write an alkahest-format claim graph of N text claims: a chain plus up to two
                       random edges per claim to earlier claims, each with a numeric_relation recipe
                       (one in 1,000 false); IDs are computed as alkahest computes them
    reference PATH     with alkahest.research: load, verify, impact of the root, save; prints
                       "seconds maxrss_kib impact_count"
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
    else:
        reference(sys.argv[2])
