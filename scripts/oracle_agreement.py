#!/usr/bin/env python3
"""Differential run outside CI: N generated kernels through the real PyPTO 0.2.0 compiler (SIM mode)
and through our checker; prints the agreement rate per compiler verdict and overall.

    python scripts/oracle_agreement.py [-n 1000] [--jobs 2] [--seed 0] [--python PY] [--keep DIR]
    python scripts/oracle_agreement.py --host [-n 500] ...   # kernels called from host code
    python scripts/oracle_agreement.py --family dynamic [-n 200] ...   # one family of generator.py only
    python scripts/oracle_agreement.py --helpers [-n 300] [--gaps] ...   # kernels calling helpers
    python scripts/oracle_agreement.py --packages [-n 300] [--gaps] [--isolated] [--workers] ...
        # the helper kernels laid out as packages: helpers, kernel and host call in other modules

Run it with the interpreter that has pypto==0.2.0, torch and this project (non-editable) installed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from oracle import compare, generator, helper_generator, host_generator, host_oracle  # noqa: E402
from oracle import package_generator, package_oracle  # noqa: E402


def predictions(outcomes: list[compare.Outcome]) -> str:
    """Helper kernels whose compiler verdict is not what the generator meant (its ``expect``):
    not a disagreement, but where to look first when judging one."""
    rows = []
    for o in outcomes:
        case = o.case
        if not isinstance(case, (helper_generator.HelperCase, package_generator.PackageCase)) or o.agree is None:
            continue
        got = o.expected_code
        if not case.expect:
            continue  # (spec packages: no prediction)
        if got != case.expect or (case.blame_line and o.compiler.line and o.compiler.line != case.blame_line):
            rows.append(f"  case {o.index}: meant {case.expect} @ {case.blame_line}, compiler {o.compiler.short()[:120]}")
    return "\n".join(rows)


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
    ap.add_argument("--helpers", action="store_true",
                    help="kernels that call helpers, 1-3 levels, tiles set in either (helper_generator.py)")
    ap.add_argument("--gaps", action="store_true",
                    help="with --helpers or --packages: also the forms the checker does not follow yet")
    ap.add_argument("--packages", action="store_true",
                    help="helper kernels laid out as packages: helpers, layout object, kernel and host call in "
                         "other modules (package_generator.py)")
    ap.add_argument("--isolated", action="store_true",
                    help="with --packages: mypy on each package alone (default: one run over all of them)")
    ap.add_argument("--workers", action="store_true",
                    help="with --packages: also check all packages with mypy -n 2 and compare with the cold run")
    args = ap.parse_args(argv)

    t0 = time.time()
    weights = {args.family: 1} if args.family else None
    cases: list[generator.Case]
    if args.packages:
        cases = list(package_generator.generate_packages(args.n, args.seed, gaps=args.gaps))
    elif args.helpers:
        cases = list(helper_generator.generate_helpers(args.n, args.seed, gaps=args.gaps))
    elif args.host:
        host_cases = host_generator.generate_host(args.n, args.seed)
        cases = list(host_cases)
    else:
        cases = generator.generate(args.n, args.seed, weights)

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            print(f"  compiled {done}/{total} ({time.time() - t0:.0f}s)", file=sys.stderr, flush=True)

    workers, same = "", True
    if args.packages:
        pkgs = [c for c in cases if isinstance(c, package_generator.PackageCase)]
        outcomes, _ = package_oracle.run(pkgs, workdir=args.keep, python=args.python, jobs=args.jobs,
                                         timeout=args.timeout, progress=progress, isolated=args.isolated)
        if args.workers:
            import tempfile

            with tempfile.TemporaryDirectory(prefix="pypto-package-workers-") as wd:
                same, diff = package_oracle.same_with_workers(pkgs, args.keep or wd, args.python)
            findings = sum(len(o.checker) for o in outcomes)
            workers = (f"mypy -n 2 (fresh cache, then warm): the same {findings} findings as the cold run" if same
                       else f"mypy -n 2 differs from the cold run:\n{diff}")
    elif args.host:
        outcomes = host_oracle.run(host_cases, workdir=args.keep, python=args.python, jobs=args.jobs,
                                   timeout=args.timeout, progress=progress)
    else:
        outcomes = compare.run(cases, workdir=args.keep, python=args.python, jobs=args.jobs, timeout=args.timeout,
                               progress=progress)
    if not args.quiet:
        dis = compare.table(outcomes)
        if dis:
            print("=== disagreements (kernel, compiler verdict, our verdict)")
            print(dis)
        unc = compare.uncovered(outcomes)
        if unc:
            print("=== uncovered compiler rejections (not counted)")
            print(unc)
        meant = predictions(outcomes) if args.helpers or args.packages else ""
        if meant:
            print("=== helper kernels the compiler judges otherwise than the generator meant (not counted)")
            print(meant)
    what = ("packages" if args.packages else "host cases" if args.host else "helper kernels" if args.helpers
            else "kernels")
    print(f"=== agreement (seed {args.seed}, {len(cases)} {what}, {time.time() - t0:.0f}s)")
    print(compare.stats(outcomes))
    if args.packages:
        print(package_generator.mix(pkgs))
    if workers:
        print(workers)
    return 0 if all(o.agree is not False for o in outcomes) and same else 1


if __name__ == "__main__":
    sys.exit(main())
