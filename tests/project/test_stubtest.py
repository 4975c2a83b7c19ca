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


@pytest.mark.oracle
def test_every_public_submodule_has_a_stub() -> None:
    """``from pypto.operation import op_wrapper`` runs on 0.2.0: every importable submodule of the
    wheel whose path has no private part needs a stub module, or mypy reports import-not-found
    (stubtest checks only the modules the stubs have). The private ``pypto._controller`` and
    ``pypto._op_wrapper`` are stubbed too: PyPTO's own code imports them."""
    if importlib.util.find_spec("pypto") is None or importlib.util.find_spec("torch") is None:
        pytest.skip("the real pypto 0.2.0 runtime is not installed (pip install '.[oracle]')")
    stub_dirs = _installed_stub_dirs()
    assert stub_dirs, "the stubs are not installed (pip install --no-deps --force-reinstall .)"
    import pkgutil

    import pypto

    missing = []
    for info in pkgutil.walk_packages(pypto.__path__, "pypto."):
        parts = info.name.split(".")[1:]
        if any(p.startswith("_") for p in parts) and info.name not in ("pypto._controller", "pypto._op_wrapper"):
            continue
        rel = Path(*parts)
        if not any((d / rel.with_suffix(".pyi")).is_file() or (d / rel / "__init__.pyi").is_file() for d in stub_dirs):
            missing.append(info.name)
    assert missing == [], f"submodules of pypto 0.2.0 without a stub: {missing}"
