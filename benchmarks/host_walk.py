#!/usr/bin/env python3
"""The host evaluator alone on every ``.py`` file of a directory (issue 37 item 3): CPU of the
parse, the module scan and the evaluation (the minimum of ``--repeat`` runs, in one child process
of the interpreter measured), how many functions it walks on their own, and the call sites.

    python benchmarks/host_walk.py DIR [--python VENV/bin/python] [--repeat 5]

The kernels are the functions with a ``...jit`` decorator of each file (mypy's symbol tables name
imported ones too; the evaluation is the same otherwise). ``--python`` measures another install
(the version before a change, say).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r'''
import ast, json, sys, time
from pathlib import Path
from mypy_plugin.host.ast_facts import is_jit
from mypy_plugin.host.evaluate import HostEvaluator
from mypy_plugin.host.module_facts import scan

sources = []
for path in sorted(Path(sys.argv[1]).rglob("*.py")):
    data = path.read_bytes()
    try:
        ast.parse(data)
    except (SyntaxError, ValueError):
        continue
    sources.append(data)
times, walked, functions, sites = [], 0, 0, 0
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    walked = functions = sites = 0
    for data in sources:
        tree = ast.parse(data)
        jits = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and is_jit(n)}
        ev = HostEvaluator(tree, lambda c, j=jits: c.id if isinstance(c, ast.Name) and c.id in j else None,
                           facts=scan(tree))
        sites += len(ev.call_sites())
        own = [f for f in ev._functions(tree.body) if not is_jit(f)]
        functions += len(own)
        reaching = getattr(ev, "_reaching", None)  # before issue 37: every function
        walked += len(own) if reaching is None else sum(id(f) in reaching for f in own)
    times.append(time.process_time() - start)
print(json.dumps({"files": len(sources), "cpu": min(times), "functions": functions, "walked": walked, "sites": sites}))
'''


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("directory")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--repeat", type=int, default=5)
    ns = ap.parse_args()
    # run outside any checkout: ``-c`` puts the working directory first on sys.path
    out = subprocess.run([ns.python, "-c", CHILD, os.path.abspath(ns.directory), str(ns.repeat)], capture_output=True,
                         text=True, check=True, cwd=tempfile.gettempdir())
    r = json.loads(out.stdout)
    print(f"{r['files']} files: {r['cpu']:.2f} s CPU (min of {ns.repeat}), {r['walked']} of {r['functions']} host "
          f"functions walked on their own, {r['sites']} call sites")


if __name__ == "__main__":
    main()
