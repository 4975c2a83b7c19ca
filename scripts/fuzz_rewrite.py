"""Fuzz the source rewrite with random valid modules and print what happened to them.

    python scripts/fuzz_rewrite.py -n 20000 --seed 1

Counts: cases (valid inputs), rewritten, declined (an edit the source did not confirm: input
kept), and the failures, which must all be 0: unparsable and moved lines (the raw rewrite,
before the guard), exceptions, and the same for the guarded rewrite and for a second pass.
Exit status 1 when any failure is counted (the first example of each is printed).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "fuzz"))

from rewrite_cases import FAILURES, Tally, check, module  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000, help="number of generated modules")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ.pop("PYPTO_STUBS_DEBUG", None)  # the guarded rewrite must degrade, not raise
    tally = Tally()
    start = time.perf_counter()
    for i in range(args.n):
        check(module(random.Random(f"{args.seed}:{i}")), tally)
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
