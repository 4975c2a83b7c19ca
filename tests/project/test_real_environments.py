"""The one-line messages of ``mypy_plugin.cli.environment`` and ``versions`` in real environments,
not faked ones: a fresh virtualenv with pypto-stubs installed editable (``pip install -e``), then
the same venv with an editor's mypy 1.x. One venv for the module: about half a minute of pip."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mypy_plugin.versions import MYPY_RANGE

# A long run (fresh virtual environments): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
KERNEL = "import pypto\n\n\n@pypto.frontend.jit\ndef k(x: pypto.Tensor[[8, 64], pypto.DT_FP32]) -> None:\n    y = x.T\n"
_PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE", "mypy_plugin", "pypto_stubs")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)


def _pip(venv: Path, *args: str) -> None:
    result = _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", *args], cwd=venv)
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def editable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(venv, source copy): the project installed with ``pip install -e`` from a copy of the
    sources, so the build leaves nothing in the checkout."""
    base = tmp_path_factory.mktemp("real")
    source = base / "pypto-stubs"
    source.mkdir()
    for name in _PROJECT_FILES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    venv = base / "venv"
    assert _run([sys.executable, "-m", "venv", str(venv)], cwd=base).returncode == 0
    _pip(venv, "-e", str(source))
    yield venv, source


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "k.py").write_text(KERNEL)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    return tmp_path


def test_editable_install_gets_one_message(editable: tuple[Path, Path], project: Path) -> None:
    venv, source = editable
    result = _run([str(venv / "bin" / "pypto-check"), "k.py"], cwd=project)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "pypto-check: pypto-stubs is installed in editable mode (pip install -e): mypy does not follow editable "
        "installs to find stub packages, so it cannot see the stubs for pypto. Reinstall it without -e: "
        f"pip install {source}\n"
    )


def test_an_editors_mypy_1x_gets_one_line(editable: tuple[Path, Path], project: Path) -> None:
    # Runs after the editable test (same venv): the editor's bundled mypy 1.x, as when VS Code's
    # mypy extension is left on its own mypy.
    venv, _ = editable
    _pip(venv, "mypy>=1.15,<2")
    version = _run([str(venv / "bin" / "mypy"), "--version"], cwd=project).stdout.split()[1]
    assert version.startswith("1.")
    expected = (
        f"error: pypto-stubs supports mypy {MYPY_RANGE}, but this is mypy {version}; install a supported one "
        f'(pip install "mypy{MYPY_RANGE}") and run that mypy '
        '(in VS Code: "mypy-type-checker.importStrategy": "fromEnvironment")\n'
    )
    result = _run([str(venv / "bin" / "mypy"), "--config-file", "mypy.ini", "k.py"], cwd=project)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", expected)
    result = _run([str(venv / "bin" / "pypto-check"), "k.py"], cwd=project)
    assert result.returncode == 2
    assert result.stderr == f"pypto-check: {expected.removeprefix('error: ')}"
