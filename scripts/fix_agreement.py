#!/usr/bin/env python3
"""Fixer against the compiler, outside CI: N generated kernels; those with fixable findings are
fixed with ``pypto-check --fix``'s engine and compiled with the real PyPTO 0.2.0 (SIM mode).

    python scripts/fix_agreement.py [-n 1000] [--seed 0] [--jobs 2] [--keep DIR] [--fixable]

``--fixable`` draws mostly from the generator's families with fixable findings.

Run it with the interpreter that has pypto==0.2.0, torch and this project (non-editable) installed.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from oracle import generator  # noqa: E402
from oracle.fix_oracle import fix_and_compile, summary  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=1000, help="number of generated kernels (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel compiler processes (default 2)")
    ap.add_argument("--keep", metavar="DIR", help="keep the kernels and logs in DIR")
    ap.add_argument("--fixable", action="store_true", help="bias the generator toward fixable findings")
    args = ap.parse_args(argv)
    t0 = time.time()
    cases = generator.generate(args.n, args.seed, generator.FIXABLE_WEIGHTS if args.fixable else None)
    workdir = args.keep or tempfile.mkdtemp(prefix="pypto-fix-oracle-")
    results = fix_and_compile(cases, workdir, jobs=args.jobs)
    for r in results:
        if r.fixed and not r.remaining and not r.compiled:
            print(f"NOT COMPILED case_{r.case:04d}: fixed {r.fixed}; compiler: {r.verdict}")
    print(f"=== fixer vs compiler (seed {args.seed}, {len(cases)} kernels{' (--fixable)' * args.fixable}, {time.time() - t0:.0f}s, {workdir})")
    print(summary(results))
    return 0 if all(r.compiled for r in results if r.fixed and not r.remaining) else 1


if __name__ == "__main__":
    sys.exit(main())
