"""Installing pypto-stubs changes no other program's start-up: its ``.pth`` file acts in dmypy
processes only (where it registers the pypto-* codes, see mypy_plugin/_dmypy_codes.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

PTH = "pypto_stubs_dmypy.pth"


def _python(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, check=False, cwd=cwd, env=env,
                          timeout=120)


def test_the_pth_file_is_installed() -> None:
    # Otherwise the tests below would pass for nothing.
    assert (Path(sysconfig.get_paths()["purelib"]) / PTH).is_file()


def test_an_unrelated_program_imports_nothing_from_the_package() -> None:
    out = _python("-c", "import sys; print('mypy_plugin' in sys.modules, 'mypy' in sys.modules)")
    assert (out.stdout, out.stderr) == ("False False\n", "")


def test_dmypy_registers_the_codes_at_start_up() -> None:
    out = _python("-X", "importtime", "-m", "mypy.dmypy", "--help")
    assert out.returncode == 0, out.stderr
    imported = [line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()]
    assert "mypy_plugin.errorcodes" in imported, out.stderr


def test_pytest_warns_about_no_module_imported_before_it(tmp_path: Path) -> None:
    # The .pth used to import mypy_plugin in every interpreter: pytest then warned that it could
    # not rewrite the asserts of its pytest11 plugin (mypy_plugin.guard), an error under -W error.
    (tmp_path / "test_one.py").write_text("def test_one() -> None:\n    assert True\n")
    out = _python("-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "error", "test_one.py", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "cannot be rewritten" not in out.stdout + out.stderr
