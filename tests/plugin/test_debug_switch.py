"""The debug switch: with PYPTO_STUBS_DEBUG=1 a failure inside a hook is raised (mypy reports an
INTERNAL ERROR); without it the hook degrades to the declared type and mypy's answer stands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mypy import api

from mypy_plugin.bridge import diagnostics
from mypy_plugin.hooks import op_calls as hooks
from mypy_plugin.debug import ENV
from mypy_plugin.knowledge.codes import Code
from mypy_plugin.knowledge.findings import Finding

KERNEL = '''import pypto
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32)) -> None:
    reveal_type(x + x)
'''


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("a bug inside a hook")


def _run(tmp_path: Path) -> tuple[str, int]:
    (tmp_path / "k.py").write_text(KERNEL)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    stdout, stderr, status = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--no-incremental",
                                      str(tmp_path / "k.py")])
    return stdout + stderr, status


def test_without_the_switch_a_failing_hook_degrades_to_the_declared_type(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr(hooks, "_apply", _boom)
    out, status = _run(tmp_path)
    assert status == 0, out
    assert 'Revealed type is "pypto.Tensor[Any, Any]"' in out


def test_with_the_switch_a_failing_hook_is_an_internal_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(hooks, "_apply", _boom)
    out, status = _run(tmp_path)
    out += "".join(capsys.readouterr())  # mypy prints an internal error to the process's streams
    assert status == 2 and "k.py:3: error: INTERNAL ERROR" in out, out


class _Api:
    def __init__(self) -> None:
        self.failed: list[str] = []

    def fail(self, message: str, ctx: object, *, code: object = None) -> None:
        self.failed.append(message)


def test_an_unknown_error_code_is_loud_in_debug_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    err = Finding(Code("pypto-no-such-code", "s", "c", "p", "b", "f"), "message")
    monkeypatch.setenv(ENV, "1")
    with pytest.raises(KeyError, match="pypto-no-such-code"):
        diagnostics.report(_Api(), err, None, op="op")  # type: ignore[arg-type]
    monkeypatch.delenv(ENV)
    quiet = _Api()
    diagnostics.report(quiet, err, None, op="op")  # type: ignore[arg-type]
    assert quiet.failed == []
