"""``pypto-check`` end to end on examples/: the findings the README promises."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("pypto-check")
    cmd = [exe] if exe else [sys.executable, "-m", "mypy_plugin.cli"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_examples_findings(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    result = _run("examples", "--no-incremental", cwd=tmp_path)
    errors = sorted(line for line in result.stdout.splitlines() if ": error:" in line)
    codes = [line.rsplit("[", 1)[-1].rstrip("]") for line in errors]
    assert result.returncode == 1, result.stdout + result.stderr
    assert [line.split(":")[0:2] for line in errors] == [
        ["examples/attention_scores_bad.py", "18"],
        ["examples/attention_scores_bad.py", "20"],
        ["examples/gate_two_outputs_bad.py", "19"],
        ["examples/l2_norm_bad.py", "18"],
        ["examples/l2_norm_bad.py", "20"],
        ["examples/softmax_rows_bad.py", "20"],
    ]
    assert codes == [
        "pypto-transpose",
        "pypto-matmul-k",
        "pypto-use-after-move",
        "pypto-no-method",
        "pypto-matmul-k",
        "pypto-reduce-align",
    ]


@pytest.mark.parametrize("name", [
        "rms_norm.py",
        "attention_scores_fixed.py",
        "l2_norm_fixed.py",
        "softmax_rows_fixed.py",
        "gate_two_outputs_fixed.py",
        "gated_delta_factory.py",
    ])
def test_good_examples_are_clean(tmp_path: Path, name: str) -> None:
    shutil.copy(EXAMPLES / name, tmp_path / name)
    result = _run(name, "--no-incremental", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_uses_project_config_that_enables_plugin(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\ndisable_error_code = pypto-no-method\n")
    shutil.copy(EXAMPLES / "l2_norm_bad.py", tmp_path / "k.py")
    result = _run("k.py", "--no-incremental", cwd=tmp_path)
    assert "pypto-no-method" not in result.stdout
    assert "pypto-matmul-k" in result.stdout


def test_config_without_plugin_gets_a_hint(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n")
    shutil.copy(EXAMPLES / "l2_norm_bad.py", tmp_path / "k.py")
    result = _run("k.py", "--no-incremental", cwd=tmp_path)
    assert "does not enable the plugin" in result.stderr
    assert "pypto-matmul-k" in result.stdout


def test_unknown_plugin_option_is_reported(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\nfallback = dim\n")
    (tmp_path / "k.py").write_text("import pypto\n")
    result = _run("k.py", "--no-incremental", cwd=tmp_path)
    assert result.returncode != 0
    assert "unknown option(s) fallback in [pypto-stubs]" in result.stdout + result.stderr
