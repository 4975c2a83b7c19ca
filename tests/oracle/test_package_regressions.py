"""Regressions with more than one module (``packages/*/``): helpers imported from other modules,
and a kernel called from another module (see ``packages/README.md``). The checker side runs in
every CI; the compiler side needs the oracle extra."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from mypy import api

from .generator import Case
from .runner import _run_subprocess, classify, have_pypto
from .test_regressions import ERROR, EXPECT, KNOWN_GAP

HERE = Path(__file__).resolve().parent / "packages"
CASES = sorted(p for p in HERE.iterdir() if (p / "main.py").exists())
BLAMES = re.compile(r"^# compiler blames: (\d+)(?: in (\S+))?\s*$", re.M)
INI = "[mypy]\nplugins = mypy_plugin\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"


def _checker(case: Path, tmp: Path) -> list[tuple[int, str]]:
    (tmp / "mypy.ini").write_text(INI)
    work = tmp / case.name
    shutil.copytree(case, work)
    cwd = os.getcwd()
    os.chdir(work)
    try:
        stdout, stderr, status = api.run(["--config-file", str(tmp / "mypy.ini"), "--no-incremental",
                                          "--cache-dir", os.devnull, "--show-error-codes", "--no-error-summary",
                                          "main.py"])
    finally:
        os.chdir(cwd)
    assert status in (0, 1), stdout + stderr
    found = []
    for ln in stdout.splitlines():
        m = ERROR.match(ln)
        if m:
            assert m.group("file") == "main.py", f"a finding outside main.py: {ln}"
            found.append((int(m.group("line")), m.group("code") or ""))
    return found


def _problem(case: Path, got: list[tuple[int, str]]) -> str | None:
    """What the checker does wrong on this package (None: it says what the header expects)."""
    wants = EXPECT.findall((case / "main.py").read_text())
    assert wants, f"{case.name}: no '# expect:' header"
    if wants[0][0] == "OK":
        return None if got == [] else f"{case.name}: the compiler accepts it, the checker reports {got}"
    # (one root cause may still be reported at each op it reaches: the same code on the same line)
    want = {(int(line), code) for _, code, line in wants}
    return None if set(got) == want else f"{case.name}: expected {sorted(want)}, the checker reports {got}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_package_regression(case: Path, tmp_path: Path) -> None:
    problem = _problem(case, _checker(case, tmp_path))
    if KNOWN_GAP in (case / "main.py").read_text():
        # strict: once the checker gets it right, the header must go
        assert problem is not None, f"{case.name}: the checker now gets it right: remove the known-gap header"
        pytest.xfail(problem)
    assert problem is None, problem


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_package_header_matches_compiler(case: Path, tmp_path: Path) -> None:
    if not have_pypto():
        pytest.skip("needs the real pypto 0.2.0 compiler and torch (the oracle extra)")
    work = tmp_path / case.name
    shutil.copytree(case, work)
    src = (case / "main.py").read_text()
    call = "import main\nmain.run()\n" if re.search(r"^def run\(\)", src, re.M) else _kernel_call(src)
    (work / "driver.py").write_text(call + 'print("ORACLE_OK", flush=True)\n')
    (tmp_path / "home").mkdir()
    out, rc, plog = _run_subprocess((sys.executable, str(work / "driver.py"), str(tmp_path / "home"), 300))
    wants = EXPECT.findall(src)
    ok = "ORACLE_OK" in out and rc == 0
    if wants[0][0] == "OK":
        assert ok, out[-2000:]
        return
    assert not ok, out[-2000:]
    v = classify(Case("file", [], []), out, rc, plog)
    assert v.code == wants[0][1], v.short()
    blamed = BLAMES.search(src)
    if blamed is not None:
        where = blamed.group(2) or "main.py"
        assert re.search(rf"{re.escape(where)}:{blamed.group(1)}:", out), out[-2000:]


def _kernel_call(src: str) -> str:
    """Tensors of the annotated shapes for the one jit kernel of ``main.py``."""
    m = re.search(r"^def (\w+)\((.*)\):", src, re.M)
    assert m is not None
    args = []
    for shape, dtype in re.findall(r"pypto\.Tensor\(\[([\d, ]+)\], pypto\.DT_(\w+)\)", m.group(2)):
        torch_dtype = {"FP32": "float32", "FP16": "float16", "BF16": "bfloat16", "INT32": "int32"}[dtype]
        args.append(f"torch.ones({shape}, dtype=torch.{torch_dtype})")
    return f"import torch\nimport main\nmain.{m.group(1)}({', '.join(args)})\n"
