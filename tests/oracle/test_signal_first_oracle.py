"""What ``pypto-check`` shows by default is what 0.2.0 fails on (issue 38): each module of
``tests/cli/signal_first/`` is run through the real compiler; a module with a line shown by default
must fail on 0.2.0 with the error its first line names, a module whose lines are all hidden (typing
strictness) must run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .runner import compile_file, have_pypto

pytestmark = [pytest.mark.oracle]

CASES = Path(__file__).resolve().parents[1] / "cli" / "signal_first"
FILES = sorted(CASES.glob("*.py"))
# module -> the exception 0.2.0 raises at trace time (None: it runs)
EXPECTED = {
    "loop_keyword_ignored": None,
    "missing_function": "AttributeError",
    "name_in_helper": "NameError",
    "object_argument": None,
    "name_in_kernel": "NameError",
    "optional_tensors": None,
    "typing_only": None,
    "union_argument": None,
    "union_item_argument": None,
    "wrong_arguments": "TypeError",
}


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The default output of pypto-check (no mypy config) over the modules, per module."""
    work = tmp_path_factory.mktemp("signal")
    for f in FILES:
        (work / f.name).write_text(f.read_text())
    out = subprocess.run([sys.executable, "-m", "mypy_plugin.cli", "--no-incremental", *[f.name for f in FILES]],
                         cwd=work, capture_output=True, text=True, check=False, timeout=600,
                         env={**os.environ, "PYPTO_STUBS_DEBUG": "1"})
    per: dict[str, list[str]] = {f.stem: [] for f in FILES}
    for line in out.stdout.splitlines():
        if ": error:" in line:
            per[line.split(".py:", 1)[0]].append(line)
    return per


def test_every_module_is_listed() -> None:
    assert sorted(EXPECTED) == [f.stem for f in FILES]


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_shown_lines_fail_on_0_2_0_and_hidden_ones_run(path: Path, shown: dict[str, list[str]],
                                                       tmp_path: Path) -> None:
    if not have_pypto():
        pytest.skip("needs the real pypto 0.2.0 compiler and torch (the oracle extra)")
    verdict = compile_file(str(path), str(tmp_path))
    expected = EXPECTED[path.stem]
    if expected is None:
        assert verdict.accepted, verdict.short()
        assert shown[path.stem] == [], "0.2.0 runs this module: nothing of it may be shown by default"
    else:
        assert not verdict.accepted and expected in verdict.text, verdict.short()
        assert shown[path.stem], f"0.2.0 fails with {expected}: the default output must show it"
