"""Drives repro's record model and crate code (reproducible-science 0.6.1, package `claims`) for
the claim-check interop tests.

    validate FILE.jsonl   read every record with repro's record model (structure and closed lists;
                          its `problems` are reported, not enforced: repro flags every record of
                          another checker); print one JSON line per record:
                          {"problems": [...], "read_outcome": "..."}
    crate FILE.jsonl      print to_ro_crate(records) (repro's own writer)
    read CRATE.json       print the records from_ro_crate() reads, as JSON Lines
"""
import json
import sys

from claims.export.rocrate import from_ro_crate, to_ro_crate
from claims.record import ExportRecord, problems, read_outcome, to_jsonl


def records(path):
    with open(path, encoding="utf-8") as f:
        return [ExportRecord.model_validate(json.loads(line)) for line in f if line.strip()]


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "validate":
        for r in records(path):
            print(json.dumps({"problems": list(problems(r)), "read_outcome": str(read_outcome(r))}))
    elif cmd == "crate":
        sys.stdout.write(to_ro_crate(records(path)))
    elif cmd == "read":
        with open(path, encoding="utf-8") as f:
            sys.stdout.write(to_jsonl(from_ro_crate(f.read())))
    else:
        raise SystemExit("unknown command " + cmd)


main()
