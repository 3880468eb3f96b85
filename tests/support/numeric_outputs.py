"""Writes one output of every numeric format (CSV, TSV, JSON, .npy, .npz) with the standard
library only. The file `mode` says how this run differs from the base run:
  base  the recorded values
  tiny  a few values moved by about 1e-12 (within rtol=1e-9)
  big   a few values moved by 0.5 (outside)
"""
import json
import struct
import zipfile

mode = open("mode").read().strip()
step = {"base": 0.0, "tiny": 1e-12, "big": 0.5}[mode]


def loss(i):
    return 1.0 / (i + 1) + (step if i == 7 else 0.0)


def acc(i):
    return 0.5 + (step if i in (3, 9) else 0.0)


rows = [(i, loss(i), acc(i)) for i in range(100)]
for name, sep in (("out.csv", ","), ("out.tsv", "\t")):
    with open(name, "w") as f:
        f.write(sep.join(["step", "loss", "acc"]) + "\n")
        for r in rows:
            f.write(sep.join(repr(x) for x in r) + "\n")

with open("out.json", "w") as f:
    json.dump({"history": [{"loss": loss(i), "step": i} for i in range(20)], "name": "run"}, f)


def npy(values, shape):
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': %s, }" % (shape,)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    data = b"".join(struct.pack("<d", v) for v in values)
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


grid = [float(i) + (step if i == 5 else 0.0) for i in range(12)]
with open("out.npy", "wb") as f:
    f.write(npy(grid, "(3, 4)"))
with zipfile.ZipFile("out.npz", "w") as z:
    # a fixed timestamp: the same values make the same bytes whenever the script runs
    for name, data in (("weights.npy", npy(grid, "(3, 4)")), ("bias.npy", npy([0.25, 0.75], "(2,)"))):
        z.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data)
