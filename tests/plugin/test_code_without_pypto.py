"""Code that never uses PyPTO costs the plugin no analysis: calls between its modules are not
traced, and no tile pass runs over its functions (a kernel author's repository is mostly such
code; on a 297-file library this was 17% more instructions than mypy alone, then 9%); with no
module of the build importing pypto, no call, method or attribute hook is even looked up (4%)."""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any

import pytest
from mypy import api

from mypy_plugin.kernel import tile_flow
from mypy_plugin.main import PyptoPlugin

UTIL = """\
def scale(x, factor=2):
    return x * factor

def offsets(rows):
    return [scale(r) for r in range(rows)]
"""

MAIN = """\
import util

def run(n):
    total = util.scale(n)
    for i in range(n):
        total += util.scale(i, 3)
    return util.offsets(total)
"""


def _check(tmp_path: Path, util: str) -> str:
    (tmp_path / "util.py").write_text(util)
    (tmp_path / "main.py").write_text(MAIN)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n")
    stdout, stderr, status = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--no-incremental",
                                      str(tmp_path / "main.py"), str(tmp_path / "util.py")])
    assert status == 0 and stderr == "", stdout + stderr
    return stdout


def test_calls_between_modules_without_pypto_run_no_tile_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    passes = [0]
    block = tile_flow._Flow.block

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        passes[0] += 1
        return block(self, *args, **kwargs)

    monkeypatch.setattr(tile_flow._Flow, "block", counted)
    _check(tmp_path, UTIL)
    assert passes[0] == 0


def test_a_build_without_pypto_looks_up_no_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: collections.Counter[str] = collections.Counter()
    for name in ("_call_hook", "_function_hook", "_method_hook", "_may_be_kernel"):
        original = getattr(PyptoPlugin, name)

        def counted(self: PyptoPlugin, fullname: str, _original: Any = original, _name: str = name) -> Any:
            asked[_name] += 1
            return _original(self, fullname)

        monkeypatch.setattr(PyptoPlugin, name, counted)
    without = _check(tmp_path, UTIL)
    assert not asked
    # The same code once one module imports pypto: the hooks are asked again, the answer the same.
    with_pypto = _check(tmp_path, "import pypto\n\n" + UTIL)
    assert asked["_call_hook"] > 0 and asked["_function_hook"] > 0
    assert with_pypto == without
