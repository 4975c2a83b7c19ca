"""The compile server (``zygote.py``) runs a driver as ``python DRIVER`` would: same exit status,
same output, the driver's directory importable, a timeout that kills it. If it did not, every
oracle verdict taken through it would be suspect, so each driver here runs both ways."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .runner import _run_in_zygote, _run_subprocess, have_pypto

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not have_pypto(), reason="needs pypto 0.2.0 and torch (the server imports them)"),
]

DRIVERS = {
    "ok": "import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)\n",
    "exit_status": "import sys\nsys.exit(3)\n",
    "exit_message": "import sys\nsys.exit('stopped here')\n",
    "exception": "raise ValueError('boom in the driver')\n",
    "signal": "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
    "sibling_import": "import sibling_mod\nprint(sibling_mod.VALUE)\n",
    "main_guard": "if __name__ == '__main__':\n    print('ran as main')\n",
}


def _both(tmp_path: Path, name: str, timeout: int = 60) -> tuple[tuple[str, int, str], tuple[str, int, str]]:
    work = tmp_path / name
    work.mkdir()
    (work / "sibling_mod.py").write_text("VALUE = 'from the sibling module'\n")
    driver = work / "run_0000.py"
    driver.write_text(DRIVERS[name] if name in DRIVERS else "import time\ntime.sleep(60)\n")
    home = work / "home"
    home.mkdir()
    forked = _run_in_zygote(sys.executable, str(driver), timeout)
    assert forked is not None, "the compile server did not start"
    alone = _run_subprocess((sys.executable, str(driver), str(home), timeout))
    return forked, alone


@pytest.mark.parametrize("name", sorted(DRIVERS))
def test_a_forked_driver_runs_as_its_own_process_would(tmp_path: Path, name: str) -> None:
    (f_out, f_rc, _), (a_out, a_rc, _) = _both(tmp_path, name)
    assert f_rc == a_rc
    expected = {"ok": ["to stdout", "to stderr"], "exit_message": ["stopped here"],
                "exception": ["ValueError: boom in the driver"], "sibling_import": ["from the sibling module"],
                "main_guard": ["ran as main"]}.get(name, [])
    for text in expected:
        assert text in f_out and text in a_out


def test_a_driver_past_its_timeout_is_killed(tmp_path: Path) -> None:
    (f_out, f_rc, _), (a_out, a_rc, _) = _both(tmp_path, "sleeps", timeout=2)
    assert f_rc == a_rc == 124
    assert f_out.startswith("TIMEOUT") and a_out.startswith("TIMEOUT")
