"""Checker-side regressions found by the differential oracle (no compiler needed: runs in every CI).

Each ``regressions/*.py`` file is a minimal kernel whose verdict was established by the real PyPTO
0.2.0 compiler. Its header says what the checker must report:

    # oracle: <what the compiler said>
    # expect: OK                      -> no error at all
    # oracle: nondeterministic ...    -> (with expect: OK) the compiler's verdict varies; only the
                                         checker side runs
    # expect: pypto-<code> <line>     -> that code on that line (one header line per expected error);
                                         no other pypto-* error on an earlier line
    # oracle: silent ...              -> (a host module) 0.2.0 runs the call, and its check mode
                                         (runtime_debug_mode=3) rejects it with that pypto-call-* code
    # oracle: compiles, wrong result  -> 0.2.0 compiles the kernel, and the expected code is a
                                         silent wrong result (the header says what the graph shows)
    # checker: known gap ...          -> the checker does not report it yet (xfail, strict: remove
                                         the header when it does)
    # compiler blames: <line>         -> the compiler's marker names this line (the kernel's call
                                         of the helper the checker reports in; helpers run inside
                                         the kernel's trace)

A module with a ``def run()`` host function is a host case: the compiler side runs ``run()``.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from mypy import api

from .host_oracle import debug3_code
from .runner import CompilerVerdict, compile_file, have_pypto

HERE = Path(__file__).resolve().parent / "regressions"
FILES = sorted(HERE.glob("*.py"))
NONDETERMINISTIC = "# oracle: nondeterministic"  # the checker must stay silent; the compiler is not asked
SILENT = "# oracle: silent"  # 0.2.0 runs it; runtime_debug_mode=3 rejects it
WRONG_RESULT = "# oracle: compiles, wrong result"  # 0.2.0 compiles it; the finding is a silent wrong result
KNOWN_GAP = "# checker: known gap"
EXPECT = re.compile(r"^# expect: (OK|(pypto-[\w-]+) (\d+))\s*$", re.M)
BLAMES = re.compile(r"^# compiler blames: (\d+)\s*$", re.M)
ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?:\d+:)? error: .*?(?:  \[(?P<code>[\w-]+)\])?$")


@pytest.fixture(scope="module")
def checker_output(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[int, str]]]:
    ini = tmp_path_factory.mktemp("cfg") / "mypy.ini"
    # host cases import torch: not analysed (the plugin reads torch calls from the source)
    ini.write_text("[mypy]\nplugins = mypy_plugin\n"
                   "[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n")
    stdout, stderr, status = api.run(["--config-file", str(ini), "--no-incremental", "--show-error-codes",
                                      "--show-column-numbers", "--no-error-summary", "--hide-error-context",
                                      "--cache-dir", str(ini.parent / ".mypy_cache"), *map(str, FILES)])
    assert status in (0, 1), stdout + stderr
    per: dict[str, list[tuple[int, str]]] = {f.name: [] for f in FILES}
    for ln in stdout.splitlines():
        m = ERROR.match(ln)
        if m:
            per.setdefault(Path(m.group("file")).name, []).append((int(m.group("line")), m.group("code") or ""))
    return per


def _problem(path: Path, got: list[tuple[int, str]]) -> str | None:
    """What the checker does wrong on this kernel (None: it says what the header expects)."""
    wants = EXPECT.findall(path.read_text())
    assert wants, f"{path.name}: no '# expect:' header"
    if wants[0][0] == "OK":
        return None if got == [] else f"{path.name}: the compiler accepts this kernel, the checker reports {got}"
    expected = [(int(line), code) for _, code, line in wants]
    for line, code in expected:
        if (line, code) not in got:
            return f"{path.name}: expected {code} on line {line}, the checker reports {got}"
    first = min(line for line, _ in expected)
    early = [(ln, c) for ln, c in got if ln < first and c not in ("pypto-out-shape", "pypto-out-dtype")]
    return f"{path.name}: errors before the compiler's failing line {first}: {early}" if early else None


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_regression(path: Path, checker_output: dict[str, list[tuple[int, str]]]) -> None:
    problem = _problem(path, checker_output[path.name])
    if KNOWN_GAP in path.read_text():
        # strict: once the checker gets it right, the header must go
        assert problem is not None, f"{path.name}: the checker now gets it right: remove the known-gap header"
        pytest.xfail(problem)
    assert problem is None, problem


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, bool], CompilerVerdict]:
    """Every kernel through the compiler, two at a time (one at a time took minutes of CI);
    ``(name, True)``: a silent host case again in the check mode."""
    if not have_pypto():
        return {}
    work = tmp_path_factory.mktemp("compiled")
    jobs = [(f, False) for f in FILES if NONDETERMINISTIC not in f.read_text()]
    jobs += [(f, True) for f in FILES if SILENT in f.read_text()]
    with ThreadPoolExecutor(max_workers=int(os.environ.get("PYPTO_ORACLE_JOBS", "2"))) as ex:
        verdicts = ex.map(lambda job: compile_file(str(job[0]), str(work / job[0].stem), debug3=job[1]), jobs)
        return {(f.name, d3): v for (f, d3), v in zip(jobs, verdicts)}


@pytest.mark.oracle
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_regression_header_matches_compiler(path: Path, compiled: dict[tuple[str, bool], CompilerVerdict]) -> None:
    """The '# expect:' header is still what the real compiler says (needs pypto 0.2.0)."""
    if not have_pypto():
        pytest.skip("needs the real pypto 0.2.0 compiler and torch (the oracle extra)")
    if NONDETERMINISTIC in path.read_text():
        pytest.skip("the compiler's verdict on this kernel varies from run to run (see its header)")
    v = compiled[(path.name, False)]
    wants = EXPECT.findall(path.read_text())
    if SILENT in path.read_text():
        assert v.accepted, v.short()  # the default mode runs the call
        d3 = compiled[(path.name, True)]
        assert (debug3_code(d3.text) or ("", ""))[0] == wants[0][1], d3.short()
        return
    if wants[0][0] == "OK" or WRONG_RESULT in path.read_text():
        assert v.accepted, v.short()
        return
    _, code, line = wants[0]
    blamed = BLAMES.search(path.read_text())
    lines = {int(line), int(blamed.group(1))} if blamed else {int(line)}
    assert v.code == code and (v.line in lines or lines & set(v.candidates)), v.short()
