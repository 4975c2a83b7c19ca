"""``pypto-lsp --shapes``: the shapes the checker infers, one line per kernel signature and per
tensor assignment, with the tensors of the calls a kernel was checked again for."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mypy_plugin.lsp import main

KERNELS = '''
import torch
import pypto


@pypto.frontend.jit
def norm(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    sq = x * x
    total = sq.sum(-1, keepdim=True)
    out[:] = total


@pypto.frontend.jit
def scale(x: pypto.Tensor([], pypto.DT_BF16), out: pypto.Tensor([], pypto.DT_BF16)):
    pypto.set_vec_tile_shapes(8, 64)
    y = x * 2.0
    out[:] = y


def run() -> None:
    x = torch.randn(8, 128, dtype=torch.bfloat16)
    scale(x, torch.empty_like(x))
'''


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "kernels.py").write_text(textwrap.dedent(KERNELS))
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nplugins = mypy_plugin\n\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_each_signature_and_assignment_with_its_shape(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--shapes", "kernels.py"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "kernels.py:7: kernel norm(x [8, 64] FP32, out [8, 1] FP32)",
        "kernels.py:9: sq = x * x  ->  [8, 64] FP32",
        "kernels.py:10: total = sq.sum(-1, keepdim=True)  ->  [8, 1] FP32",
        "kernels.py:15: kernel scale(x [...] BF16, out [...] BF16)",
        "kernels.py:15:     with the call at kernels.py:23: x [8, 128] BF16, out [8, 128] BF16",
        "kernels.py:17: y = x * 2.0  ->  [...] BF16",
        "kernels.py:17:     y with the call at kernels.py:23: [8, 128] DT_BF16",
    ]


def test_a_folder_and_a_missing_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--shapes", "."]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "kernels.py:7: kernel norm(x [8, 64] FP32, out [8, 1] FP32)"
    assert main(["--shapes", "missing.py"]) == 2
    assert "pypto-lsp: no such file: missing.py" in capsys.readouterr().err
