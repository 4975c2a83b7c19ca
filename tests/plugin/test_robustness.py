"""Inputs the plugin cannot read: it stays silent and never crashes mypy (no fallback raises).

A local ``pypto`` package (first on the path, before the stubs) whose ``Tensor`` is not the
stubs' generic class: mypy must answer as usual, with an annotation the plugin leaves unknown.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

KERNEL = '''import pypto
def k(x: pypto.Tensor[[8, 64], pypto.DT_FP32]) -> None:
    reveal_type(x)
'''

LOCAL_TENSORS = {
    "none": "from typing import Any\nTensor: Any = None\n",
    "function": "def Tensor(*args: object) -> None: ...\n",
    "alias": "Tensor = list\n",
    "class_with_one_parameter": "from typing import Generic, TypeVar\nT = TypeVar('T')\nclass Tensor(Generic[T]): ...\n",
    "plain_class": "class Tensor: ...\n",
}


def _mypy(root: Path, *files: str) -> subprocess.CompletedProcess[str]:
    (root / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    cmd = [sys.executable, "-m", "mypy", "--no-incremental", "--show-traceback", "--config-file", "mypy.ini", *files]
    return subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False, timeout=300)


@pytest.mark.parametrize("name", sorted(LOCAL_TENSORS))
def test_local_pypto_whose_tensor_is_not_the_stubs_class(tmp_path: Path, name: str) -> None:
    (tmp_path / "pypto").mkdir()
    (tmp_path / "pypto" / "__init__.py").write_text(LOCAL_TENSORS[name] + "DT_FP32 = 1\n")
    (tmp_path / "k.py").write_text(KERNEL)
    out = _mypy(tmp_path, "k.py")
    assert "INTERNAL ERROR" not in out.stdout + out.stderr and "Traceback" not in out.stderr, out.stdout + out.stderr
    assert out.returncode == 0, out.stdout
    assert out.stdout.splitlines()[0] == 'k.py:3: note: Revealed type is "Any"'
