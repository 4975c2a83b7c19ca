"""Run mypy's stubtest for the pypto stubs against the real PyPTO 0.2.0 runtime.

Needs the oracle environment (pypto==0.2.0 + torch) and the stubs installed
non-editably (``pip install --no-deps --force-reinstall .``): stubtest, like mypy,
finds stub-only packages only as a ``pypto-stubs`` directory in site-packages.
"""

from __future__ import annotations

import importlib.util
import site
import subprocess
import sys
from pathlib import Path

import pytest

ALLOWLIST = Path(__file__).parents[1] / "stubtest" / "allowlist.txt"


def _installed_stub_dirs() -> list[Path]:
    roots = list(site.getsitepackages())
    user_site = site.getusersitepackages()
    if isinstance(user_site, str):
        roots.append(user_site)
    return [Path(r) / "pypto-stubs" for r in roots if (Path(r) / "pypto-stubs").is_dir()]


@pytest.mark.oracle
def test_stubtest_passes(tmp_path: Path) -> None:
    if importlib.util.find_spec("pypto") is None:
        pytest.skip("the real pypto 0.2.0 runtime is not installed (pip install '.[oracle]')")
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed; pypto needs it at import time")
    if not _installed_stub_dirs():
        # With the runtime present, missing stubs is a broken setup, not an optional extra:
        # fail loudly instead of silently skipping stubtest.
        pytest.fail(
            "the stubs are not installed: no 'pypto-stubs' directory in any site-packages "
            f"({site.getsitepackages()}); run `pip install --no-deps --force-reinstall .` "
            "(editable installs do not work for stub-only packages)"
        )
    assert ALLOWLIST.is_file(), f"missing allowlist {ALLOWLIST}"

    # Run from an empty directory so that neither the source tree nor a local `pypto`
    # directory shadows the installed runtime and stubs.
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "pypto", "--allowlist", str(ALLOWLIST)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0:
        print(proc.stdout)
        print(proc.stderr, file=sys.stderr)
    assert proc.returncode == 0, "stubtest failed:\n" + proc.stdout[-20000:]
