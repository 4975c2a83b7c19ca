"""Fuzz the source rewrite with random valid modules and print what happened to them.

    python scripts/fuzz_rewrite.py -n 20000 --seed 1 [--jobs 2]

Counts: cases (valid inputs), rewritten, declined (an edit the source did not confirm: input
kept), and the failures, which must all be 0: unparsable and moved lines (the raw rewrite,
before the guard), exceptions, and the same for the guarded rewrite and for a second pass.
Exit status 1 when any failure is counted (the first example of each is printed).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "fuzz"))

from rewrite_cases import FAILURES, Tally, check, module  # noqa: E402


def _run(share: tuple[int, range]) -> Tally:
    seed, cases = share
    tally = Tally()
    for i in cases:
        check(module(random.Random(f"{seed}:{i}")), tally)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000, help="number of generated modules")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    os.environ.pop("PYPTO_STUBS_DEBUG", None)  # the guarded rewrite must degrade, not raise
    start = time.perf_counter()
    # Case i is always the module made from seed "S:i", whatever the number of jobs.
    shares = [(args.seed, range(j, args.n, args.jobs)) for j in range(args.jobs)]
    if args.jobs == 1:
        tallies = [_run(shares[0])]
    else:
        with multiprocessing.Pool(args.jobs) as pool:
            tallies = pool.map(_run, shares)
    tally = Tally()
    for t in tallies:
        tally.counts.update(t.counts)
        for k, v in t.examples.items():
            tally.examples.setdefault(k, v)
    elapsed = time.perf_counter() - start
    print(f"seed {args.seed}, {args.n} generated modules, {elapsed:.1f} s")
    keys = ["cases", "invalid inputs (skipped)", "rewritten", "declined (input kept)", *FAILURES]
    for key in keys:
        print(f"  {key}: {tally.counts[key]}")
    failed = [k for k in FAILURES if tally.counts[k]]
    for key in failed:
        print(f"\nfirst example of {key}:\n{tally.examples[key]!r}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
