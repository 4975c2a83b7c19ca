"""Package cases through the real PyPTO 0.2.0 compiler and the checker, and their verdicts compared.

Compiler side: each package is the folder ``case_NNNN/`` and its driver ``run_NNNN.py`` imports
``case_NNNN.host`` and runs ``run()`` (``runner.run_compiler``); the marker's file says which
module it names (``package_case.loc``).

Checker side: mypy with the plugin, cold (``--no-incremental``), over the package folders: one run
over all of them, or one per package (``isolated``: nothing another package loaded can matter), or
with worker processes (``mypy -n 2``, a fresh cache). A finding stands for the kernel lines of its
location (``PackageCase.trace_lines``); a finding at the host call stands for the kernel line its
note names (``at case_0007/kernel.py:9`` or, through helpers, the first ``through block at
kernel.py:9``: the chain lists the outermost call first). Agreement: ``compare.compare_one``.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

from .compare import Outcome, compare_one
from .package_case import PackageCase, loc
from .host_oracle import run_host_compiler
from .runner import CHECK_LINE, CheckerError, CompilerVerdict, write_cases

INI = "[mypy]\nplugins = mypy_plugin\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"
AT_NOTE = re.compile(r"^at (\S+?):(\d+)((?:, through \S+ at \S+?:\d+)*), ")
THROUGH = re.compile(r"through \S+ at (\S+?):(\d+)")


def mypy_command(python: str, workdir: str, folders: list[str], mode: str = "cold", cache: str = "") -> list[str]:
    ini = os.path.join(workdir, "mypy-oracle.ini")
    with open(ini, "w") as f:
        f.write(INI)
    flags = ["--no-incremental"] if mode == "cold" else ["-n", "2"] if mode == "workers" else []
    return [python, "-m", "mypy", "--config-file", ini, *flags, "--show-error-codes", "--show-column-numbers",
            "--no-error-summary", "--hide-error-context", "--no-pretty",
            "--cache-dir", cache or os.path.join(workdir, ".mypy_cache"), *folders]


def run_mypy(python: str, workdir: str, folders: list[str], mode: str = "cold", cache: str = "") -> str:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    p = subprocess.run(mypy_command(python, workdir, folders, mode, cache), cwd=workdir, capture_output=True,
                       text=True, env=env, timeout=3600)
    if p.returncode not in (0, 1) or p.returncode == 1 and not findings_text(p.stdout):
        raise RuntimeError(f"mypy failed (rc={p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p.stdout


def parse(stdout: str, folders: list[str]) -> list[list[CheckerError]]:
    """Findings per package; a finding in the host module stands for the kernel line its note names."""
    index = {os.path.basename(f): i for i, f in enumerate(folders)}
    per: list[list[CheckerError]] = [[] for _ in folders]
    last: tuple[str, int, CheckerError] | None = None
    for ln in stdout.splitlines():
        m = CHECK_LINE.match(ln.strip())
        if not m:
            continue
        file, line = m.group("file"), int(m.group("line"))
        i = index.get(file.replace("\\", "/").split("/")[0])
        if i is None:
            continue
        if m.group("sev") == "note":
            at = AT_NOTE.match(m.group("msg"))
            if at and last is not None and (last[0], last[1]) == (file, line) and os.path.basename(file) == "host.py":
                chain = THROUGH.findall(at.group(3))
                outer = chain[0] if chain else (at.group(1), at.group(2))  # (outermost call first)
                last[2].via = (loc(outer[0], int(outer[1])),)
            continue
        err = CheckerError(loc(file, line), m.group("code") or "", m.group("msg"))
        last = (file, line, err)
        per[i].append(err)
    return per


def findings_text(stdout: str) -> list[str]:
    """The errors and notes of a run, sorted (what two ways of running mypy must agree on)."""
    return sorted(ln for ln in stdout.splitlines() if CHECK_LINE.match(ln.strip()))


def run_checker(folders: list[str], workdir: str, python: str, isolated: bool = False,
                jobs: int = 2) -> tuple[list[list[CheckerError]], str]:
    if not isolated:
        out = run_mypy(python, workdir, [os.path.basename(f) for f in folders])
        return parse(out, folders), out
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        outs = list(ex.map(lambda f: run_mypy(python, workdir, [os.path.basename(f)], cache=os.devnull), folders))
    out = "".join(outs)
    return parse(out, folders), out


def _located(case: PackageCase, v: CompilerVerdict) -> CompilerVerdict:
    if v.line is not None:
        v.line = loc(v.file or "kernel.py", v.line)
    return v


def run(cases: list[PackageCase], workdir: str | None = None, python: str | None = None, jobs: int = 2,
        timeout: int = 180, progress: Any = None, isolated: bool = False) -> tuple[list[Outcome], str]:
    """Compile every package (in parallel), check them (one mypy run, or one per package), compare;
    also returns mypy's output."""
    python = python or sys.executable
    tmp = tempfile.TemporaryDirectory(prefix="pypto-package-oracle-") if workdir is None else None
    wd = tmp.name if tmp else str(workdir)
    try:
        folders = write_cases(list(cases), wd)
        with cf.ThreadPoolExecutor(max_workers=1) as ex:
            fut = ex.submit(run_checker, folders, wd, python, isolated, jobs)
            # (boundary packages: a call 0.2.0 runs is run again in its check mode, host_oracle.py)
            verdicts = run_host_compiler(list(cases), wd, python, jobs, timeout, progress)  # type: ignore[arg-type]
            checked, out = fut.result()
        outcomes = [compare_one(i, c, _located(c, v), e) for i, (c, v, e) in enumerate(zip(cases, verdicts, checked))]
        return outcomes, out
    finally:
        if tmp:
            tmp.cleanup()


def same_with_workers(cases: list[PackageCase], workdir: str, python: str | None = None) -> tuple[bool, str]:
    """The packages checked cold and with ``mypy -n 2``, on a fresh cache and again on the cache
    it wrote: (the same findings every time, a diff)."""
    import difflib
    import shutil

    python = python or sys.executable
    folders = [os.path.basename(f) for f in write_cases(list(cases), workdir)]
    cold = findings_text(run_mypy(python, workdir, folders))
    cache = os.path.join(workdir, ".workers_cache")
    shutil.rmtree(cache, ignore_errors=True)
    diffs = []
    for label in ("mypy -n 2", "mypy -n 2, warm"):
        other = findings_text(run_mypy(python, workdir, folders, "workers", cache))
        diffs += list(difflib.unified_diff(cold, other, "cold", label, lineterm=""))
    return not diffs, "\n".join(diffs)
