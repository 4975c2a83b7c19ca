"""Call-site findings after an edit: a warm run and the daemon agree with a cold run.

The kernel checked with a call's tensors is always in the module of the call (its body and the
call are rechecked together); a call of a kernel from another module is checked against the
kernel's signature, which is part of that module's interface (an edit of it rechecks callers).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from test_consistency import _edit

CONFIG = "[mypy]\nplugins = mypy_plugin\n"
# torch as the project sees it: the checker reads torch calls from the source, never torch's types
# (and a daemon told to skip an installed torch analyses all of it after an edit: minutes).
TORCH_STUB = "from typing import Any\ndef __getattr__(name: str) -> Any: ...\n"
KERNELS = '''import pypto

@pypto.frontend.jit
def scale(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([16, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * 2.0
'''
HOST = '''import torch
from kernels import scale

def run() -> None:
    scale(torch.randn(16, 64), torch.empty(16, 64))
'''
# The same kernel through a dict and through its module path (checked in this module: call_sites.indirect_call_hook).
HOST_DICT = '''import torch
import kernels

def run() -> None:
    table = {"scale": kernels.scale}
    table["scale"](torch.randn(16, 64), torch.empty(16, 64))
'''
LOCAL = '''import torch
import pypto

@pypto.frontend.jit
def mm(a: pypto.Tensor(), b: pypto.Tensor(), c: pypto.Tensor()):
    pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])
    c[:] = pypto.matmul(a, b, pypto.DT_FP32)

def run() -> None:
    a = torch.randn(16, 64, dtype=torch.float16)
    mm(a, torch.randn(64, 32, dtype=torch.float16), torch.empty(16, 32))
'''
HELPERS = '''import pypto

def row_sum(x):
    return x.sum(-1, keepdim=True)

@pypto.frontend.jit
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = row_sum(a)
'''
# Kernels whose tensors come from their callers: through a dict of kernels (checked from the
# kernel's definition) or called directly in a wrapper (checked at that call), from a helper and a
# pytest case; the width comes from a pytest.param of this module and a Final of another one,
# which only run_case names (the daemon rechecks the wrapper because the evaluation read it).
CALLERS = '''import pytest
import torch
import pypto
from sizes import COLS

@pypto.frontend.jit
def scale(x: pypto.Tensor([], pypto.DT_FP32), w: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * w

@pypto.frontend.jit
def shift(x: pypto.Tensor([], pypto.DT_FP32), w: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x + w

KERNELS = {"scale": scale}

def wrapper(x, w, out):
    KERNELS["scale"](x, w, out)
    shift(x, w, out)

def run_case(rows, width):
    wrapper(torch.randn(rows, COLS), torch.randn(1, width), torch.empty(rows, COLS))

@pytest.mark.parametrize("width", [pytest.param(64, id="w")])
def test_rows(width):
    run_case(8, width)
'''
SIZES = "from typing import Final\n\nCOLS: Final = 64\n"
# A test whose argument is a fixture of the conftest.py pytest loads for it (a module of the build).
CONFTEST = '''import pytest
import torch
import pypto

@pytest.fixture(params=[64])
def w(request):
    return torch.randn(1, request.param)
'''
FIXTURE_TEST = '''import torch
import pypto

@pypto.frontend.jit
def mul(x: pypto.Tensor([], pypto.DT_FP32), w: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * w

def test_mul(w):
    mul(torch.randn(8, 64), w, torch.empty(8, 64))
'''
FILES = ["kernels.py", "host.py", "host_dict.py", "local.py", "helpers.py", "callers.py", "conftest.py", "test_fixture.py"]

Edit = Callable[[Path], None]
SCENARIOS: dict[str, Edit] = {
    # the tensors of a call in the kernel's module: K 64 -> 48 (pypto-matmul-k in the kernel)
    "host_tensor_same_module": lambda root: _edit(root / "local.py", "torch.randn(64, 32", "torch.randn(48, 32"),
    # the kernel body in the module of its call: b_trans with a [64, 32] mat2 (pypto-matmul-k)
    "kernel_body_same_module": lambda root: _edit(root / "local.py", "pypto.DT_FP32)", "pypto.DT_FP32, b_trans=True)"),
    # a kernel's annotation in another module (pypto-call-shape at the call in host.py)
    "annotation_other_module": lambda root: _edit(root / "kernels.py", "x: pypto.Tensor([16, 64]", "x: pypto.Tensor([16, 32]"),
    # the tensor at a call of a kernel of another module (pypto-call-dtype)
    "host_tensor_other_module": lambda root: _edit(root / "host.py", "torch.randn(16, 64)", "torch.randn(16, 64).half()"),
    # the tensor of a call of another module's kernel through a dict (pypto-call-dtype)
    "host_tensor_through_a_dict": lambda root: _edit(root / "host_dict.py", "torch.randn(16, 64)", "torch.randn(16, 64).half()"),
    # the kernel's tile, which its helper's reduction runs with (pypto-reduce-align in the helper)
    "kernel_tile_of_a_helper": lambda root: _edit(root / "helpers.py", "set_vec_tile_shapes(8, 16)", "set_vec_tile_shapes(8, 4)"),
    # the helper's body: what it returns (the kernel writes it: pypto-out-shape in the kernel)
    "helper_body": lambda root: _edit(root / "helpers.py", "x.sum(-1, keepdim=True)", "x.sum(-1, keepdim=True) + x"),
    # a pytest.param value that reaches the kernel through a helper, a wrapper and a dict (pypto-broadcast)
    "pytest_param_through_callers": lambda root: _edit(root / "callers.py", "pytest.param(64,", "pytest.param(48,"),
    # a Final of another module the callers read (the x and out widths: pypto-broadcast)
    "caller_constant_other_module": lambda root: _edit(root / "sizes.py", "COLS: Final = 64", "COLS: Final = 32"),
    # a fixture of the conftest.py: the test's tensor (pypto-broadcast in the test module's kernel)
    "conftest_fixture": lambda root: _edit(root / "conftest.py", "params=[64]", "params=[48]"),
}


def _project(root: Path) -> None:
    (root / "mypy.ini").write_text(CONFIG)
    (root / "torch.pyi").write_text(TORCH_STUB)
    (root / "kernels.py").write_text(KERNELS)
    (root / "host.py").write_text(HOST)
    (root / "host_dict.py").write_text(HOST_DICT)
    (root / "local.py").write_text(LOCAL)
    (root / "helpers.py").write_text(HELPERS)
    (root / "callers.py").write_text(CALLERS)
    (root / "sizes.py").write_text(SIZES)
    (root / "pytest.pyi").write_text(TORCH_STUB)
    (root / "conftest.py").write_text(CONFTEST)
    (root / "test_fixture.py").write_text(FIXTURE_TEST)


def _errors(stdout: str) -> list[str]:
    errors = sorted(line for line in stdout.splitlines() if ": error:" in line)
    assert all("[pypto-" in e for e in errors), stdout
    return errors


def _mypy(root: Path, cache: Path, *extra: str) -> list[str]:
    cmd = [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--config-file", "mypy.ini", *extra, *FILES]
    return _errors(subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False, timeout=300).stdout)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_warm_run_matches_cold(tmp_path: Path, name: str) -> None:
    _project(tmp_path)
    before = _mypy(tmp_path, tmp_path / ".warm")
    SCENARIOS[name](tmp_path)
    after = _mypy(tmp_path, tmp_path / ".warm")
    assert after == _mypy(tmp_path, tmp_path / ".cold")
    assert after != before, "the edit must change the findings, or the test proves nothing"


@pytest.mark.parametrize("name", ["pytest_param_through_callers", "caller_constant_other_module", "conftest_fixture"])
def test_worker_runs_match_cold(tmp_path: Path, name: str) -> None:
    _project(tmp_path)
    before = _mypy(tmp_path, tmp_path / ".workers", "--num-workers", "2")
    SCENARIOS[name](tmp_path)
    after = _mypy(tmp_path, tmp_path / ".workers", "--num-workers", "2")
    assert after == _mypy(tmp_path, tmp_path / ".cold")
    assert after != before


@pytest.mark.parametrize("name", ["kernel_body_same_module", "annotation_other_module", "host_tensor_through_a_dict",
                                  "kernel_tile_of_a_helper",
                                  "pytest_param_through_callers", "caller_constant_other_module",
                                  "conftest_fixture"])
def test_daemon_matches_cold(tmp_path: Path, name: str) -> None:
    _project(tmp_path)
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / ".dmypy.json")]

    def check() -> list[str]:
        out = subprocess.run([*dmypy, "run", "--", "--config-file", "mypy.ini", *FILES],
                             cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120)
        return _errors(out.stdout)

    try:
        before = check()
        SCENARIOS[name](tmp_path)
        after = check()
    finally:
        subprocess.run([*dmypy, "stop"], cwd=tmp_path, capture_output=True, check=False, timeout=60)
    assert after == _mypy(tmp_path, tmp_path / ".cold")
    assert after != before
