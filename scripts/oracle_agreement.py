#!/usr/bin/env python3
"""Differential run outside CI: N generated kernels through the real PyPTO 0.2.0 compiler (SIM mode)
and through our checker; prints the agreement rate per compiler verdict and overall.

    python scripts/oracle_agreement.py [-n 1000] [--jobs 2] [--seed 0] [--python PY] [--keep DIR]
    python scripts/oracle_agreement.py --host [-n 500] ...   # kernels called from host code
    python scripts/oracle_agreement.py --family dynamic [-n 200] ...   # one family of generator.py only

Run it with the interpreter that has pypto==0.2.0, torch and this project (non-editable) installed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from oracle import compare, generator, host_generator, host_oracle  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=1000, help="number of kernels (default 1000)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel compiler processes (default 2)")
    ap.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    ap.add_argument("--python", default=sys.executable, help="interpreter with pypto (default: this one)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per kernel")
    ap.add_argument("--keep", metavar="DIR", help="keep the kernels, drivers and logs in DIR")
    ap.add_argument("--quiet", action="store_true", help="no disagreement table")
    ap.add_argument("--host", action="store_true",
                    help="host cases: a module that builds torch tensors and calls its kernel (host_generator.py)")
    ap.add_argument("--family", choices=sorted(generator.FAMILIES), help="only kernels of this family")
    args = ap.parse_args(argv)

    t0 = time.time()
    weights = {args.family: 1} if args.family else None
    cases = (host_generator.generate_host(args.n, args.seed) if args.host
             else generator.generate(args.n, args.seed, weights))

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            print(f"  compiled {done}/{total} ({time.time() - t0:.0f}s)", file=sys.stderr, flush=True)

    runner = host_oracle.run if args.host else compare.run
    outcomes = runner(cases, workdir=args.keep, python=args.python, jobs=args.jobs,  # type: ignore[operator]
                      timeout=args.timeout, progress=progress)
    if not args.quiet:
        dis = compare.table(outcomes)
        if dis:
            print("=== disagreements (kernel, compiler verdict, our verdict)")
            print(dis)
        unc = compare.uncovered(outcomes)
        if unc:
            print("=== uncovered compiler rejections (not counted)")
            print(unc)
    what = "host cases" if args.host else "kernels"
    print(f"=== agreement (seed {args.seed}, {len(cases)} {what}, {time.time() - t0:.0f}s)")
    print(compare.stats(outcomes))
    return 0 if all(o.agree is not False for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
