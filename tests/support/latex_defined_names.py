"""The control sequences (letters only) that a plain `article` document already defines, as
pdflatex itself reports them: every letter-only name that follows a backslash in the LaTeX
kernel, the article class and its size option is tried with `\\ifdefined`, and TeX primitives
with it. Prints the defined ones, sorted, one per line.

Usage: python latex_defined_names.py   (needs pdflatex and kpsewhich)
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sources = ["latex.ltx", "article.cls", "size10.clo", "fonttext.ltx", "fontmath.ltx", "preload.ltx"]
names = set()
for name in sources:
    path = subprocess.run(["kpsewhich", name], capture_output=True, text=True).stdout.strip()
    if path:
        names.update(re.findall(r"\\([A-Za-z]+)", Path(path).read_text(encoding="latin-1")))
names = sorted(n for n in names if len(n) <= 40)
lines = [r"\documentclass{article}", r"\begin{document}"]
lines += [rf"\ifdefined\{n}\typeout{{DEFINED:{n}}}\fi" for n in names]
lines += [r"\end{document}"]
with tempfile.TemporaryDirectory() as d:
    (Path(d) / "probe.tex").write_text("\n".join(lines) + "\n")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "probe.tex"],
                         cwd=d, capture_output=True, text=True, encoding="latin-1")
    log = run.stdout
if run.returncode != 0:
    sys.exit(f"pdflatex failed:\n{log[-2000:]}")
defined = sorted(set(re.findall(r"^DEFINED:([A-Za-z]+)$", log, re.M)))
print("\n".join(defined))
