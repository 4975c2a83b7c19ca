"""Output formats: mypy's own with exact spans, and ``pypto-check --output json``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _check(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("pypto-check")
    cmd = [exe] if exe else [sys.executable, "-m", "mypy_plugin.cli"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_error_end_spans_the_offending_expression(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    out = _check("k.py", "--no-incremental", "--show-column-numbers", "--show-error-end", cwd=tmp_path).stdout
    lines = (tmp_path / "k.py").read_text().splitlines()
    # k.py:18:11:18:17: error: ...abs()...: columns are 1-based and the end is inclusive
    first = next(line for line in out.splitlines() if "[pypto-no-method]" in line)
    _, line, col, end_line, end_col = first.split(":")[:5]
    assert (line, end_line) == ("18", "18")
    assert lines[17][int(col) - 1:int(end_col)] == "x.abs()"


def test_json_output(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    result = _check("--output", "json", "k.py", "--no-incremental", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert report["status"] == 1 == result.returncode
    assert [(e["line"], e["code"]) for e in report["errors"]] == [(18, "pypto-no-method"), (20, "pypto-matmul-k")]
    matmul = report["errors"][1]
    assert matmul["path"] == "k.py" and matmul["severity"] == "error"
    assert (matmul["column"], matmul["end_line"], matmul["end_column"]) == (15, 20, 56)
    assert matmul["message"].startswith("pypto.matmul: K-dimension mismatch: input [8, 64] has K=64")
    assert matmul["notes"] == ["build the ones vector with 64 rows: pypto.full([64, 1], 1.0, pypto.DT_FP32)"]


def test_json_output_clean_file(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "rms_norm.py", tmp_path / "k.py")
    result = _check("--output", "json", "k.py", "--no-incremental", cwd=tmp_path)
    assert json.loads(result.stdout) == {"errors": [], "status": 0}
