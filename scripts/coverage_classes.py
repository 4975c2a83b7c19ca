#!/usr/bin/env python3
"""The largest classes of skipped checks in a ``pypto-check --coverage -o json`` report: the op
figures (reached: every check that applies ran; known: every shape and tile known), and the ops
not reached, by how their kernel was checked and by the kind of fact their checks missed.

    pypto-check --coverage -o json corpus > coverage.json
    python scripts/coverage_classes.py coverage.json [--top 20]
"""

from __future__ import annotations

import argparse
import collections
import json


def kind(fact: str) -> str:
    """A fact a check missed, by where it comes from."""
    if fact.startswith("vec tile"):
        return "vec tile"
    if fact.startswith("cube tile"):
        return "cube tile"
    if fact == "an operand's type":
        return "an operand's type (unknown to mypy)"
    if fact.startswith(("rank of", "dims of", "dim ", "K dim")):
        return "tensor shape"
    if fact.startswith(("dtype of", "dtypes of")):
        return "tensor dtype"
    return f"argument value ({fact})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("--top", type=int, default=20)
    ns = ap.parse_args()
    with open(ns.report, encoding="utf-8") as f:
        kernels = json.load(f)["coverage"]
    by_status: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    classes: collections.Counter[tuple[str, str]] = collections.Counter()
    facts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    for k in kernels:
        ops = k["ops"]
        row = by_status[k["checked"]]
        row[0] += 1
        row[1] += ops["total"]
        row[2] += ops["reached"]
        row[3] += ops["known"]
        for op in ops["unreached"]:
            seen = set()
            for skipped in op["skipped"]:
                for fact in skipped["missing"].split(", "):
                    seen.add(kind(fact))
                    facts[(k["checked"], skipped["check"], fact)] += 1
            for c in seen:
                classes[(k["checked"], c)] += 1
    total = sum(r[1] for r in by_status.values())
    reached = sum(r[2] for r in by_status.values())
    known = sum(r[3] for r in by_status.values())
    print("| kernels checked with | kernels | ops | reached | every shape and tile known |")
    print("|---|---|---|---|---|")
    for status, (n, ops_, r, kn) in sorted(by_status.items()):
        print(f"| {status} | {n} | {ops_:,} | {r:,} | {kn:,} |")
    print(f"| all | {len(kernels)} | {total:,} | {reached:,} ({100 * reached / max(total, 1):.1f}%) | "
          f"{known:,} ({100 * known / max(total, 1):.1f}%) |")
    print("\nops not reached, by kernel and kind of missing fact (an op may count under several):")
    for (status, c), n in classes.most_common():
        print(f"  {n:6,}  {status:10}  {c}")
    print(f"\nthe {ns.top} largest (kernel, check, fact):")
    for (status, check, fact), n in facts.most_common(ns.top):
        print(f"  {n:6,}  {status:10}  {check}: {fact}")


if __name__ == "__main__":
    main()
