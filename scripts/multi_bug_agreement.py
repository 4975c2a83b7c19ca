#!/usr/bin/env python3
"""Every bug in one run, outside CI: N generated kernels with two or three bugs, each bug confirmed
alone by the real PyPTO 0.2.0 compiler (SIM mode); the checker must report all of them in one run.

    python scripts/multi_bug_agreement.py [-n 300] [--seed 0] [--jobs 2] [--keep DIR]

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

from oracle import multi_bug  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=300, help="number of generated kernels (default 300)")
    ap.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel compiler processes (default 2)")
    ap.add_argument("--keep", metavar="DIR", help="keep the kernels and logs in DIR")
    args = ap.parse_args(argv)
    t0 = time.time()
    cases = multi_bug.generate(args.n, args.seed)
    workdir = args.keep or tempfile.mkdtemp(prefix="pypto-multi-")
    outcomes = multi_bug.run(cases, workdir, jobs=args.jobs)
    print(multi_bug.table(outcomes))
    for o in outcomes:
        if not o.confirmed:
            print(f"NOT CONFIRMED ({o.case.summary()}): base {o.base.compiler.short()}; singles "
                  + "; ".join(s.compiler.short() for s in o.singles))
    print(f"=== every bug in one run (seed {args.seed}, {len(cases)} kernels, {time.time() - t0:.0f}s, {workdir})")
    print(multi_bug.stats(outcomes))
    return 0 if all(o.agree is not False for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
