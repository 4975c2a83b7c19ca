#!/usr/bin/env python3
"""Instructions executed by one cold mypy run, per configuration: a cost measure that does not
move with the machine's load.

    /work/bench-venv/bin/python benchmarks/instructions.py -n 200 1000
    /work/bench-venv/bin/python benchmarks/instructions.py -n 1000 --configs stubs plugin-no-calls plugin --jobs 2

CPU seconds on a shared 2-core machine vary by 20-50% from run to run (``run.py`` reports the
spread), more than the differences being measured. Valgrind's cachegrind without its cache
simulation (``--cache-sim=no``, about 20x slower than the plain run) counts every instruction
of the mypy process, its parser threads included; two runs of the same configuration agree
within 0.1%. Instructions are not seconds -- mypy's compiled code on a large heap runs fewer
instructions per cycle than the interpreter walking a small syntax tree -- so this measure
ranks changes and splits costs; ``run.py`` gives the seconds.

The projects, configurations and targets are ``run.py``'s (``gen_kernels.py`` with the same
seed); ``--corpus DIR`` counts on a copy of a directory of real code as ``run.py --corpus`` does.
Each configuration runs once per project (the count repeats; ``--repeat`` shows it).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import run  # noqa: E402  (run.py puts this directory on sys.path)

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")
# Tensor annotations in the forms gen_kernels writes: the call form and the subscript form.
_CALL_FORM = re.compile(r"pypto\.Tensor\(\[[^\]]*\](?:,[^)]*)?\)")
_SUBSCRIPT_FORM = re.compile(r"pypto\.Tensor\[\[[^\]]*\](?:,[^\]]*)?\]")


def bare_copy(proj: Path, out: Path) -> int:
    """A copy of a generated project whose tensor annotations are the bare class ``pypto.Tensor``:
    valid types with no plugin, so that mypy alone checks every kernel body as typed code (the
    stubs-only run checks them with ``Any`` parameters, the call form being invalid without the
    plugin). Returns the number of annotations replaced."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(proj, out, ignore=shutil.ignore_patterns("ir-*", ".cache-*"))
    replaced = 0
    for path in (out / "kernels").rglob("*.py"):
        text, a = _CALL_FORM.subn("pypto.Tensor", path.read_text())
        text, b = _SUBSCRIPT_FORM.subn("pypto.Tensor", text)
        path.write_text(text)
        replaced += a + b
    return replaced


def count(py: str, proj: Path, name: str, targets: list[str] | None = None) -> dict:
    """One cold run of configuration ``name`` under cachegrind: its instruction count and summary."""
    cfg, extra = run.CONFIGS[name]
    cache = Path(tempfile.mkdtemp(prefix=f"ir-{name}-", dir=proj))
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           *run.mypy_cmd(py, cfg, cache, extra, targets)]
    try:
        proc = subprocess.run(cmd, cwd=proj, capture_output=True, text=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    found = _REFS.findall(proc.stderr)
    if proc.returncode not in (0, 1) or not found:
        raise RuntimeError(f"{name}: exit {proc.returncode}\n{proc.stderr[-3000:]}")
    return {"instructions": int(found[-1].replace(",", "")), "summary": run.summary_line(proc.stdout)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--sizes", type=int, nargs="*", default=[200, 1000], help="sizes (none: --corpus only)")
    ap.add_argument("--corpus", type=Path, help="also count on a copy of this directory of real code")
    ap.add_argument("--configs", nargs="+", default=["stubs", "annotations", "plugin-no-calls", "plugin"],
                    choices=list(run.CONFIGS))
    ap.add_argument("--bare", action="store_true",
                    help="also count stubs-only on a copy with bare pypto.Tensor annotations (mypy's own cost of typed kernels)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per configuration (to show the counts repeat)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (instruction counts do not mind)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--python", default=sys.executable, help="interpreter whose mypy/pypto-stubs are measured")
    ap.add_argument("--workdir", type=Path, help="keep the generated projects here")
    ap.add_argument("--json", type=Path, help="also write the raw figures here")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    root = args.workdir or Path(tempfile.mkdtemp(prefix="pypto-ir-"))
    root.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, list[dict]]] = {}
    projects: list[tuple[str, Path, list[str] | None]] = []
    try:
        if args.corpus:
            proj, targets = run.write_corpus_project(args.corpus, root)
            projects.append((f"corpus ({args.corpus.name})", proj, targets))
        for n in args.sizes:
            run.write_project(n, root / f"n{n}", args.seed)
            projects.append((f"N={n}", root / f"n{n}", None))
        for label, proj, targets in projects:
            jobs = [(name, proj) for _ in range(args.repeat) for name in args.configs]
            if args.bare and targets is None:
                bare_copy(proj, proj.with_name(proj.name + "-bare"))
                jobs.append(("stubs", proj.with_name(proj.name + "-bare")))
            with ThreadPoolExecutor(max_workers=args.jobs) as pool:
                counted = list(pool.map(lambda job: (job[0] if job[1] == proj else "stubs-bare",
                                                     count(args.python, job[1], job[0], targets)), jobs))
            results[label] = {}
            for name, r in counted:
                results[label].setdefault(name, []).append(r)
                print(f"{label} {name:16s} {r['instructions']:>16,}  {r['summary']}", file=sys.stderr, flush=True)
    finally:
        if not args.workdir:
            shutil.rmtree(root, ignore_errors=True)
    print(report(results, args.configs + (["stubs-bare"] if args.bare else [])))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


def report(results: dict[str, dict[str, list[dict]]], configs: list[str]) -> str:
    head = " | ".join(f"{c}" for c in configs)
    lines = [
        "Instructions of one cold run (valgrind cachegrind, --cache-sim=no), in millions; ratios to stubs,"
        " and plugin to plugin-no-calls (the call-site pass):",
        "",
        f"| project | {head} | plugin / stubs | plugin / plugin-no-calls |",
        "|---|" + "---|" * (len(configs) + 2),
    ]
    for label, by_name in results.items():
        first = {name: runs[0]["instructions"] for name, runs in by_name.items()}
        cells = []
        for name in configs:
            if name not in by_name:
                cells.append("-")
                continue
            counts = [r["instructions"] for r in by_name[name]]
            cell = f"{counts[0] / 1e6:,.0f}"
            if len(counts) > 1:
                cell += f" ({(max(counts) - min(counts)) / counts[0]:.2%} apart)"
            if name != "stubs" and "stubs" in first:
                cell += f" ({counts[0] / first['stubs']:.2f}x)"
            cells.append(cell)
        ratio = f"{first['plugin'] / first['stubs']:.3f}x" if {"plugin", "stubs"} <= first.keys() else "-"
        calls = (f"{first['plugin'] / first['plugin-no-calls']:.3f}x"
                 if {"plugin", "plugin-no-calls"} <= first.keys() else "-")
        lines.append(f"| {label} | " + " | ".join(cells) + f" | **{ratio}** | **{calls}** |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
