"""A kernel checked with the tensors of its calls agrees with 0.2.0 compiling it for those calls:
the same kernel compiles for one call and fails, on the line the checker names, for another."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.runner import have_pypto

MODULE = '''import sys
import torch
import pypto

SIM = {"run_mode": pypto.RunMode.SIM}


@pypto.frontend.jit(runtime_options=SIM)
def mm(a: pypto.Tensor(), b: pypto.Tensor(), c: pypto.Tensor()):
    pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])
    c[:] = pypto.matmul(a, b, pypto.DT_FP32)


@pypto.frontend.jit(runtime_options=SIM)
def row_sum(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = x.sum(-1, keepdim=True)


def run(case: str) -> None:
    if case == "mm_ok":
        mm(torch.randn(16, 64, dtype=torch.float16), torch.randn(64, 32, dtype=torch.float16), torch.empty(16, 32))
    if case == "mm_k":
        mm(torch.randn(16, 64, dtype=torch.float16), torch.randn(48, 32, dtype=torch.float16), torch.empty(16, 32))
    if case == "row_sum":
        row_sum(torch.randn(32, 128), torch.empty(32, 1))


if __name__ == "__main__":
    run(sys.argv[1])
    print("RESULT OK")
'''

# case -> (the line and code the checker reports for it, what 0.2.0 says at that line)
CASES = {
    "mm_ok": (None, "RESULT OK"),
    "mm_k": ((11, "pypto-matmul-k"), "K-dimension valid shape mismatch"),
    "row_sum": ((17, "pypto-reduce-align"), "Errcode: FC1001!"),
}


def _checker(tmp: Path) -> set[tuple[int, str]]:
    (tmp / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n\n[mypy-torch.*]\nfollow_imports = skip\n")
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--config-file", "mypy.ini", "kern.py"],
                         cwd=tmp, capture_output=True, text=True, check=False, timeout=300).stdout
    found = set()
    for line in out.splitlines():
        if ": error:" in line and "[pypto-" in line:
            found.add((int(line.split(":")[1]), line.rsplit("[", 1)[1].rstrip("]")))
    return found


@pytest.mark.oracle
def test_each_call_agrees_with_the_compiler(tmp_path: Path) -> None:
    if not have_pypto():
        pytest.skip("needs the real pypto 0.2.0 compiler and torch (the oracle extra)")
    (tmp_path / "kern.py").write_text(MODULE)
    # The checker sees all three calls at once: the findings of the bad ones, none for the good one.
    assert _checker(tmp_path) == {where for where, _ in CASES.values() if where is not None}
    env = dict(os.environ, HOME=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")
    for case, (where, said) in CASES.items():
        p = subprocess.run([sys.executable, "kern.py", case], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=600)
        out = p.stdout + p.stderr
        assert said in out, (case, out[-2000:])
        if where is not None:
            assert f"kern.py:{where[0]}:" in out, (case, out[-2000:])  # the frontend's line marker
