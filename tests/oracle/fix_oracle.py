"""Fixed kernels through the real compiler: generated kernels with fixable findings are fixed by
``pypto-check --fix``'s engine and compiled again; every kernel the fixer left with no finding
must compile."""

from __future__ import annotations

import concurrent.futures as cf
import os
import sys
from dataclasses import dataclass

from mypy_plugin.fix.apply import run as run_fixer
from mypy_plugin.fix.edits import EDITS

from .generator import Case
from .runner import _run_one, classify, run_checker, write_cases


@dataclass
class FixOutcome:
    case: int
    fixed: list[str]  # codes fixed
    remaining: list[str]  # codes left (such a kernel is not compiled)
    compiled: bool | None  # None: not compiled (findings remain)
    verdict: str = ""


def fix_and_compile(cases: list[Case], workdir: str, jobs: int = 2, timeout: int = 180,
                    python: str | None = None) -> list[FixOutcome]:
    paths = write_cases(cases, workdir)
    per_file, _ = run_checker(paths, workdir)
    fixable = [i for i, errs in enumerate(per_file) if any(e.code in EDITS for e in errs)]
    ini = os.path.join(workdir, "fix.ini")
    with open(ini, "w") as f:
        f.write("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n")
    args = ["--config-file", ini, "--cache-dir", os.path.join(workdir, ".fix_cache")]

    def fix_one(i: int) -> FixOutcome:
        outcome = run_fixer([paths[i]], args)
        outcome.write()
        return FixOutcome(i, [f.code for f in outcome.fixed], [f.code for f in outcome.remaining], None)

    results = [fix_one(i) for i in fixable]
    to_compile = [r for r in results if r.fixed and not r.remaining]
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {
            ex.submit(_run_one, (python or sys.executable, os.path.join(workdir, f"run_{r.case:04d}.py"),
                                 _home(workdir, r.case), timeout)): r
            for r in to_compile
        }
        for fut in cf.as_completed(futs):
            r = futs[fut]
            out, rc, plog = fut.result()
            verdict = classify(cases[r.case], out, rc, plog)
            r.compiled = verdict.accepted
            r.verdict = verdict.short()
    return results


def _home(workdir: str, i: int) -> str:
    home = os.path.join(workdir, f"home_fix_{i:04d}")
    os.makedirs(home, exist_ok=True)
    return home


def summary(results: list[FixOutcome]) -> str:
    fixed = [r for r in results if r.fixed]
    compiled = [r for r in fixed if r.compiled]
    clean = [r for r in fixed if not r.remaining]
    by_code: dict[str, list[int]] = {}
    for r in clean:
        for code in set(r.fixed):
            by_code.setdefault(code, [0, 0])
            by_code[code][0] += 1
            by_code[code][1] += bool(r.compiled)
    lines = [f"{'fixed code':<24}{'kernels':>8}{'compile':>9}"]
    lines += [f"{code:<24}{n:>8}{ok:>9}" for code, (n, ok) in sorted(by_code.items())]
    lines.append(
        f"kernels with fixable findings: {len(results)}, fixed: {len(fixed)}, "
        f"fixed with nothing left: {len(clean)}, of those compiled: {len(compiled)}"
    )
    return "\n".join(lines)
