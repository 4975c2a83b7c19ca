#!/usr/bin/env python3
"""What the checker knows inside real kernels: ``reveal_type`` on every tensor parameter of every
jit kernel, and on every name a kernel's top-level statements assign, then one mypy run; each
revealed tensor is classified by what its type knows.

    python scripts/reveal_census.py [--each] FILE.py ... [-- MYPY_ARGS]

Prints, for parameters and for intermediates: exact (every dim an int), symbolic (ints and named
dims), partial (some dims known), rank only, nothing about the shape; and how many know their
dtype. The files are copied to a temporary directory (with their ``reveal_type`` lines); the
originals are not touched. Lines do not move: each probe is appended to the line it follows.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

from mypy_plugin.knowledge.frontend import names_jit

# Each probe reveals ``(x, N)``: mypy drops a note that repeats another on its line, and N keeps
# two tensors of one type apart (and names which probe each note answers).
REVEAL = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): note: Revealed type is \"tuple\[(?P<type>.*), Literal\[(?P<n>\d+)\]\?\]\"$")
TENSOR = re.compile(r"^pypto\.Tensor\[(?P<shape>.*), (?P<dtype>[^,\]]+)\]$")
MARK = "  # census:"


def _probes(src: str) -> tuple[str, dict[tuple[int, str], str]]:
    """The source with ``; reveal_type(x)`` appended to kernel lines, and what each probe is."""
    tree = ast.parse(src)
    lines = src.split("\n")
    kinds: dict[tuple[int, str], str] = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not any(names_jit(d) for d in fn.decorator_list):
            continue
        body = fn.body
        first = body[0]
        simple = first.lineno == first.end_lineno and not isinstance(first, (ast.If, ast.For, ast.While, ast.With,
                                                                              ast.Try, ast.FunctionDef))
        params = [a.arg for a in fn.args.args if a.annotation is not None]
        if params and simple:
            lines[first.lineno - 1] += "; " + "; ".join(f"reveal_type(({p}, {i}))" for i, p in enumerate(params))
            for i, p in enumerate(params):
                kinds[(first.lineno, f"{i}:{p}")] = "parameter"
        for s in body[1:]:
            if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                    and s.lineno == s.end_lineno):
                name = s.targets[0].id
                lines[s.lineno - 1] += f"; reveal_type(({name}, 0))"
                kinds[(s.lineno, f"0:{name}")] = "intermediate"
    return "\n".join(lines), kinds


def _classify(t: str) -> tuple[str, bool] | None:
    """(what the shape knows, dtype known) for a tensor type; None for anything else."""
    m = TENSOR.match(t)
    if m is None:
        return None
    shape, dtype = m.group("shape"), m.group("dtype")
    known_dtype = dtype.startswith("pypto._DT_")
    if shape == "Any":
        return "nothing", known_dtype
    dims = re.findall(r"Literal\[[^\]]*\]|Any|[\w.]+", shape[len("tuple["):-1]) if shape.startswith("tuple[") else []
    if not dims:
        return "nothing", known_dtype
    ints = sum(1 for d in dims if re.fullmatch(r"Literal\[-?\d+\]", d))
    # A dynamic dim (Literal['~DYNAMIC'], Literal['~N']) is what the frontend traces (-1), not a
    # size: counted as unknown, as before the checker knew it was dynamic.
    names = sum(1 for d in dims if d.startswith("Literal['") and not d.startswith("Literal['~"))
    if ints == len(dims):
        return "exact", known_dtype
    if ints + names == len(dims):
        return "symbolic", known_dtype
    if ints + names:
        return "partial", known_dtype
    return "rank only", known_dtype


def main(argv: list[str]) -> int:
    files, mypy_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    # --each: also print every probe: file:line name, kind, class (to diff two runs). "dynamic":
    # tensors with a DYNAMIC or frontend.dynamic dim (known to be -1 while tracing).
    each = "--each" in files
    files = [f for f in files if f != "--each"]
    work = tempfile.mkdtemp(prefix="census-")
    probes: dict[str, dict[tuple[int, str], str]] = {}
    try:
        for f in files:
            try:
                src = open(f, encoding="utf-8").read()
                new, kinds = _probes(src)
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            dest = os.path.join(work, os.path.basename(f))
            open(dest, "w", encoding="utf-8").write(new)  # every file: the probed ones import the others
            if kinds:
                probes[dest] = kinds
        cmd = [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary", "--hide-error-context",
               *mypy_args, *sorted(os.path.join(work, n) for n in os.listdir(work))]
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=work).stdout
        tally: dict[str, Counter[str]] = {"parameter": Counter(), "intermediate": Counter()}
        pending = {(path, line, name): kind for path, kinds in probes.items() for (line, name), kind in kinds.items()}
        by_probe: dict[tuple[str, int, str], tuple[str, str]] = {}
        for (path, line, probe), kind in pending.items():
            n, name = probe.split(":", 1)
            by_probe[(os.path.basename(path), line, n)] = (name, kind)
        for ln in out.splitlines():
            m = REVEAL.match(ln)
            if m is None:
                continue
            key = (os.path.basename(m.group("file")), int(m.group("line")))
            found = by_probe.pop((*key, m.group("n")), None)
            if found is None:
                continue
            name, kind = found
            c = _classify(m.group("type"))
            if c is not None:
                if each:
                    print(f"{key[0]}:{key[1]} {name} {kind}: {c[0]}, dtype {'known' if c[1] else 'unknown'}")
                tally[kind][c[0]] += 1
                tally[kind]["dtype known"] += c[1]
                tally[kind]["dynamic"] += "Literal['~" in m.group("type")
                tally[kind]["tensors"] += 1
        for kind, c in tally.items():
            n = c["tensors"] or 1
            parts = [f"{k} {c[k]} ({100 * c[k] / n:.0f}%)" for k in
                     ("exact", "symbolic", "partial", "rank only", "nothing", "dtype known", "dynamic")]
            print(f"{kind}s: {c['tensors']} tensors: " + ", ".join(parts))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
