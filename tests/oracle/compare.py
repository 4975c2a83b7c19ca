"""Compare the compiler's verdict with the checker's, case by case.

Rules:
- compiler rejects (or crashes) with a covered code C at line L -> the checker must report C on
  line L (no marker: on one of the case's op lines), and no other ``pypto-*`` error (except
  pypto-out-shape / pypto-out-dtype) on an earlier line: the compiler got past those lines;
- compiler accepts -> the checker reports no error at all, except pypto-out-shape /
  pypto-out-dtype where the generator deliberately wrote a mismatching ``out``; such a
  deliberate mismatch must be reported (the compiler does not detect it: rule: write-unchecked);
- a rejection the mapping does not cover is listed separately (not counted);
- host cases (host_oracle.py): a ``SILENT`` verdict (0.2.0 ran the call, its check mode
  runtime_debug_mode=3 rejects it) is compared like a rejection at the call line;
- helper kernels (helper_generator.py): a finding inside a helper names the helper's op, the
  compiler's marker the kernel's line that calls the outermost helper (rule:
  helper-runs-in-the-trace). Such a finding stands for that call line (:func:`kernel_lines`),
  both for the line the compiler fails on and for "an earlier line".
"""

from __future__ import annotations

import collections
import os
import tempfile
from dataclasses import dataclass
from typing import Any

from .generator import Case
from .runner import CheckerError, CompilerVerdict, run_checker, run_compiler, write_cases

OUT_CODES = {"pypto-out-shape", "pypto-out-dtype"}


@dataclass
class Outcome:
    index: int
    case: Case
    compiler: CompilerVerdict
    checker: list[CheckerError]
    agree: bool | None  # None = not comparable (uncovered rejection / timeout)
    reason: str = ""

    @property
    def expected_code(self) -> str:
        if self.compiler.accepted:
            return "OK"
        if self.compiler.status == "SILENT":  # host cases: run silently, rejected by the check mode
            return f"silent {self.compiler.code}"
        return self.compiler.code or "UNCOVERED"

    def checker_short(self) -> str:
        if not self.checker:
            return "OK"
        return "; ".join(f"{e.code or 'mypy'} @ line {e.line}{f' (call at {e.via[-1]})' if e.via else ''}: {e.msg[:110]}"
                         for e in self.checker)


def kernel_lines(case: Case, e: CheckerError) -> set[int]:
    """The kernel lines a finding stands for: the outermost helper call its notes name, else the
    case's own map (a helper's own pass gives no note); a finding in the kernel, its line."""
    return case.trace_lines(e.via[-1] if e.via else e.line)


def compare_one(i: int, case: Case, comp: CompilerVerdict, errs: list[CheckerError]) -> Outcome:
    if comp.status == "TIMEOUT" or (not comp.accepted and comp.code is None):
        return Outcome(i, case, comp, errs, None, "uncovered compiler verdict")
    if comp.accepted:
        want_out = {"shape": "pypto-out-shape", "dtype": "pypto-out-dtype"}.get(case.out_mismatch or "")
        bad = [e for e in errs if e.code != want_out]
        if bad:
            return Outcome(i, case, comp, errs, False, "false positive: the compiler accepts this kernel")
        if want_out and not any(e.code == want_out for e in errs):
            return Outcome(i, case, comp, errs, False, f"missed {want_out} (the compiler does not detect it)")
        return Outcome(i, case, comp, errs, True)
    lines = [comp.line] if comp.line else comp.candidates
    hit = [e for e in errs if e.code == comp.code and (e.line in lines or kernel_lines(case, e) & set(lines))]
    if not hit:
        same_code = [e for e in errs if e.code == comp.code]
        why = "reported on another line" if same_code else "missed"
        return Outcome(i, case, comp, errs, False, f"{comp.code} {why}")
    first = min(lines)
    early = [e for e in errs if max(kernel_lines(case, e)) < first and e.code not in OUT_CODES]
    if early:
        return Outcome(i, case, comp, errs, False, "error before the line the compiler fails on")
    return Outcome(i, case, comp, errs, True)


def run(cases: list[Case], workdir: str | None = None, python: str | None = None, jobs: int = 2,
        timeout: int = 120, progress: Any = None) -> list[Outcome]:
    """Compile every case (in parallel), check all of them with ONE mypy run, compare."""
    own = workdir is None
    tmp = tempfile.TemporaryDirectory(prefix="pypto-oracle-") if own else None
    wd = tmp.name if tmp else str(workdir)
    try:
        paths = write_cases(cases, wd)
        with_checker: list[list[CheckerError]] = []
        import concurrent.futures as cf

        # the mypy run overlaps with the compile subprocesses
        with cf.ThreadPoolExecutor(max_workers=1) as ex:
            fut = ex.submit(run_checker, paths, wd, python)
            verdicts = run_compiler(cases, wd, python=python, jobs=jobs, timeout=timeout, progress=progress)
            with_checker, _raw = fut.result()
        return [compare_one(i, c, v, e) for i, (c, v, e) in enumerate(zip(cases, verdicts, with_checker))]
    finally:
        if tmp:
            tmp.cleanup()


def table(outcomes: list[Outcome], only_disagreements: bool = True) -> str:
    rows = []
    for o in outcomes:
        if only_disagreements and o.agree is not False:
            continue
        rows.append(f"--- case {o.index} ({o.case.family}; {o.reason})\n{o.case.source.rstrip()}\n"
                    f"  compiler: {o.compiler.short()}" + (f"\n  plog: {o.compiler.plog[:200]}" if o.compiler.plog else "")
                    + f"\n  checker:  {o.checker_short()}")
    return "\n".join(rows)


def uncovered(outcomes: list[Outcome]) -> str:
    return "\n".join(f"--- case {o.index} ({o.case.family}): {o.compiler.short()}\n{o.case.source.rstrip()}"
                     for o in outcomes if o.agree is None)


def stats(outcomes: list[Outcome]) -> str:
    per: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for o in outcomes:
        if o.agree is None:
            continue
        k = o.expected_code
        per[k][1] += 1
        per[k][0] += int(bool(o.agree))
    n = sum(v[1] for v in per.values())
    ok = sum(v[0] for v in per.values())
    lines = [f"{'compiler verdict':28} {'agree':>6} {'total':>6} {'rate':>7}"]
    for k in sorted(per, key=lambda k: (k != "OK", k)):
        a, t = per[k]
        lines.append(f"{k:28} {a:6d} {t:6d} {100.0 * a / t:6.1f}%")
    unc = sum(1 for o in outcomes if o.agree is None)
    lines.append(f"{'overall':28} {ok:6d} {n:6d} {100.0 * ok / max(n, 1):6.1f}%")
    acc = sum(1 for o in outcomes if o.compiler.accepted)
    lines.append(f"kernels: {len(outcomes)}, compiled: {acc} ({100.0 * acc / max(len(outcomes), 1):.0f}%), "
                 f"uncovered rejections (not counted): {unc}")
    return "\n".join(lines)


__all__ = ["Outcome", "compare_one", "kernel_lines", "run", "table", "uncovered", "stats", "os"]
