"""The pre-commit hook (.pre-commit-hooks.yaml) installs the package and reports findings."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# A long run (pre-commit builds its own environment): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit is not installed")
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the repository (pre-commit try-repo)")
def test_pre_commit_hook_reports_findings(tmp_path: Path) -> None:
    repo = tmp_path / "user-project"
    repo.mkdir()
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", repo / "bad.py")
    shutil.copy(ROOT / "examples" / "rms_norm.py", repo / "good.py")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "pypto-check", "--files", "bad.py", "good.py"],
        cwd=repo, capture_output=True, text=True, env=env, check=False, timeout=600,
    )
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "bad.py:18: error: PyPTO tensors have no \".abs()\"" in out
    assert "bad.py:20: error: pypto.matmul: K-dimension mismatch" in out
    assert "good.py" not in out.replace("--files bad.py good.py", "")
