"""Options the plugin needs apply to PyPTO modules only: plain mypy's answers elsewhere, and the
same findings from ``mypy`` with only the plugin configured as from ``pypto-check``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import plain_mypy_equality  # noqa: E402

NESTED = '''\
import pypto


def test_kernel():
    @pypto.frontend.jit
    def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 16)
        t = a * 2.0
        out[:] = t
        t = pypto.reshape(t, [128])
        u = a.abs()
'''


def test_plugin_changes_nothing_on_stdlib_modules() -> None:
    # A CI share; `python scripts/plain_mypy_equality.py` checks all the listed modules.
    same, text, count = plain_mypy_equality.compare(plain_mypy_equality.CI_SHARE, [])
    assert count == plain_mypy_equality.CI_SHARE
    assert "error" in text, "the CI share must make mypy report something, or it proves nothing"
    assert same, text


def _lines(out: str) -> list[str]:
    return sorted(ln for ln in out.splitlines() if ": error:" in ln or ": note:" in ln)


def test_plain_mypy_with_the_plugin_agrees_with_pypto_check(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "examples" / "nested_in_test.py").write_text(NESTED)
    # torch as docs/host-calls.md configures it: skipped, and absent without the oracle extra (`pip install
    # ".[test]"`), where plain mypy would report the examples' `import torch` as import-not-found.
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nplugins = mypy_plugin\n\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"
    )
    plain = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", "examples"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    (tmp_path / "mypy.ini").unlink()  # pypto-check uses its own configuration
    exe = shutil.which("pypto-check")
    cmd = [exe] if exe else [sys.executable, "-m", "mypy_plugin.cli"]
    check = subprocess.run([*cmd, "--no-incremental", "examples"], cwd=tmp_path, capture_output=True, text=True,
                           check=False)
    assert _lines(plain.stdout) == _lines(check.stdout), plain.stdout + "\n---\n" + check.stdout
    nested = [ln for ln in _lines(plain.stdout) if ln.startswith("examples/nested_in_test.py") and ": error:" in ln]
    assert [ln.split(":")[1] for ln in nested] == ["10", "11"], plain.stdout
    assert "[pypto-use-after-move]" in nested[0] and "[pypto-no-method]" in nested[1], plain.stdout


def test_daemon_keeps_running_across_runs(tmp_path: Path) -> None:
    # The plugin's per-module section must not look like a configuration change to dmypy.
    (tmp_path / "k.py").write_text(NESTED)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / ".dmypy.json")]
    run = [*dmypy, "run", "--", "--config-file", "mypy.ini", "--cache-dir", str(tmp_path / ".cache"), "k.py"]
    try:
        first = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300)
        second = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300)
    finally:
        subprocess.run([*dmypy, "stop"], cwd=tmp_path, capture_output=True, check=False, timeout=60)
    assert "Restarting" not in second.stdout + second.stderr, second.stdout + second.stderr
    assert second.stdout == first.stdout.replace("Daemon started\n", ""), first.stdout + "\n---\n" + second.stdout
