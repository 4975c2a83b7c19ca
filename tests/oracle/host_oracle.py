"""Host cases through the real PyPTO 0.2.0 compiler and the checker, and their verdicts compared.

The compiler side runs each module's ``run()`` (the host call) in the default mode. A boundary
case that runs there is run again with 0.2.0's own argument check (``runtime_debug_mode=3``,
which compares each tensor with its annotation before the kernel runs; the default mode skips
it): a ``ValueError`` from that check proves the default run was the known silent one, and the
verdict becomes ``SILENT`` with the code of the mismatch (at the call line). Anything else keeps
the verdict of the default run. Agreement rules: ``compare.compare_one`` (a ``SILENT`` verdict is
compared like a rejection at the call line).
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import re
import tempfile
from typing import Any

from .compare import Outcome, compare_one
from .host_generator import HostCase
from .runner import CheckerError, CompilerVerdict, _run_one, run_checker, run_compiler, write_cases

# 0.2.0 JitCallableWrapper._check_input_defs_match_tensors (runtime_debug_mode=3) -> our code
DEBUG3_RULES: list[tuple[str, str]] = [
    (r"ValueError: The number of dimensions of \d+\w+ input tensor", "pypto-call-rank"),
    (r"ValueError: The shape of \d+\w+ input tensor", "pypto-call-shape"),
    (r"ValueError: The dtype of \d+\w+ input tensor", "pypto-call-dtype"),
]


def debug3_code(out: str) -> tuple[str, str] | None:
    """(our code, 0.2.0's message) when the check of runtime_debug_mode=3 rejected the call."""
    text = " ".join(out.split())
    for pat, code in DEBUG3_RULES:
        m = re.search(pat + r".{0,160}", text)
        if m:
            return code, m.group(0)
    return None


def _debug3_verdict(case: HostCase, out: str, rc: int) -> CompilerVerdict:
    if rc == 0 and "ORACLE_OK" in out:
        return CompilerVerdict("OK")
    found = debug3_code(out)
    if found:
        return CompilerVerdict("SILENT", found[0], case.call_line, [], "runtime_debug_mode=3: " + found[1],
                               stage="debug3")
    last = [ln for ln in out.splitlines() if ln.strip()][-1:] or [""]
    # the default mode ran it but the check mode failed otherwise: shown, not counted
    return CompilerVerdict("REJECT", None, None, [], "runtime_debug_mode=3 failed otherwise: " + last[0][:200],
                           stage="debug3")


def _at_call(case: HostCase, v: CompilerVerdict) -> CompilerVerdict:
    """0.2.0's argument binding fails in the call (a Python traceback, no parser marker)."""
    if v.code and v.code.startswith("pypto-call-"):
        v.line, v.candidates = case.call_line, []
    return v


def run_host_compiler(cases: list[HostCase], workdir: str, python: str, jobs: int, timeout: int,
                      progress: Any = None) -> list[CompilerVerdict]:
    verdicts = [_at_call(c, v) for c, v in
                zip(cases, run_compiler(cases, workdir, python=python, jobs=jobs, timeout=timeout, progress=progress))]
    again = [i for i, (c, v) in enumerate(zip(cases, verdicts)) if c.kind == "boundary" and v.accepted]
    args = []
    for i in again:
        driver = os.path.join(workdir, f"run_{i:04d}_d3.py")
        with open(driver, "w") as f:
            f.write(cases[i].host_call(f"case_{i:04d}", debug3=True))
        home = os.path.join(workdir, f"home_{i:04d}_d3")
        os.makedirs(home, exist_ok=True)
        args.append((python, driver, home, timeout))
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        for i, (out, rc, _plog) in zip(again, ex.map(_run_one, args)):
            with open(os.path.join(workdir, f"log_{i:04d}_d3.txt"), "w") as fh:
                fh.write(f"rc={rc}\n{out}")
            d3 = _debug3_verdict(cases[i], out, rc)
            if not d3.accepted:
                verdicts[i] = d3
    return verdicts


def run(cases: list[HostCase], workdir: str | None = None, python: str | None = None, jobs: int = 1,
        timeout: int = 180, progress: Any = None) -> list[Outcome]:
    """Run every host case (compiler, then the check mode for the boundary cases that ran), check
    all of them with ONE mypy run, compare."""
    import sys

    python = python or sys.executable
    tmp = tempfile.TemporaryDirectory(prefix="pypto-host-oracle-") if workdir is None else None
    wd = tmp.name if tmp else str(workdir)
    try:
        paths = write_cases(list(cases), wd)
        checked: list[list[CheckerError]] = []
        with cf.ThreadPoolExecutor(max_workers=1) as ex:
            fut = ex.submit(run_checker, paths, wd, python)
            verdicts = run_host_compiler(cases, wd, python, jobs, timeout, progress)
            checked, _raw = fut.result()
        return [compare_one(i, c, v, e) for i, (c, v, e) in enumerate(zip(cases, verdicts, checked))]
    finally:
        if tmp:
            tmp.cleanup()
