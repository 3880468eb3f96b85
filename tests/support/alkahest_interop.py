"""Drives alkahest.research (alkahest 3.12.0) for the claim-graph interop tests.

    ids                 read [[statement, [hypotheses], method], ...] on stdin, print one ID per line
    make DIR            write a graph of text claims with numeric_relation recipes, verified, as
                        DIR/ref.unverified.json (before verify), DIR/ref.json, DIR/ref.md, DIR/ref.verify.md and DIR/ref.digest
    load PATH           load a document, print its digest, then one "id status" line per claim
    latex PATH          print to_latex() of a document
"""
import json
import sys

import alkahest.research as r


def main():
    cmd = sys.argv[1]
    if cmd == "ids":
        for statement, hypotheses, method in json.load(sys.stdin):
            print(r.claim_id(statement, hypotheses, method))
    elif cmd == "make":
        out = sys.argv[2]
        with r.session(title="Interop | text claims", metadata={"seed": 7}) as s:
            a = s.conjecture(
                "2 * integral(x/(x^2+1), dx, 0, 1) = log(2)",
                evidence="quadrature at 60 digits",
                label="Relation",
                hypotheses=["x ≥ 0", "  x   real "],
                check={
                    "kind": "numeric_relation",
                    "constants": [
                        "0.346573590279972654708616060729088284037750067180127627060340",
                        "0.693147180559945309417232121458176568075500134360255254120680",
                    ],
                    "coefficients": [2, -1],
                    "tolerance": 1e-40,
                },
            )
            s.conjecture(
                "coarse | relation",
                evidence="4 digits\nonly",
                depends_on=[a.id],
                check={"kind": "numeric_relation", "constants": ["0.3466", "0.6931"], "coefficients": [-2, 1]},
            )
            s.conjecture(
                "wrong relation",
                evidence="typo",
                depends_on=[a.id],
                tags=["x", "x"],
                check={"kind": "numeric_relation", "constants": ["0.5", 0.25], "coefficients": [1, 1]},
            )
            s.record("a bare text statement", method="note", notes="free prose", tags=["t", "t"])
            s.conjecture("no recipe", evidence="none", check={"kind": "mystery"})
        graph = s.graph
        graph.save(out + "/ref.unverified.json")
        report = graph.verify()
        graph.save(out + "/ref.json")
        with open(out + "/ref.md", "w", encoding="utf-8") as f:
            f.write(graph.to_markdown())
        with open(out + "/ref.verify.md", "w", encoding="utf-8") as f:
            f.write(report.to_markdown())
        with open(out + "/ref.digest", "w") as f:
            f.write(graph.digest())
    elif cmd == "load":
        graph = r.ClaimGraph.load(sys.argv[2])
        print(graph.digest())
        for c in graph.claims:
            print(c.id, c.status)
    elif cmd == "latex":
        sys.stdout.write(r.ClaimGraph.load(sys.argv[2]).to_latex())
    else:
        raise SystemExit("unknown command " + cmd)


main()
