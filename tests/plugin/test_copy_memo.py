"""One check per distinct copy (calls/copy_memo.py): helpers calling helpers cost one copy per
distinct (function, parameter types, entry state), with the findings and notes of a check of
every call. Copies are counted, not timed."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

from mypy_plugin.calls import specialize


def _tree(depth: int, leaf: str) -> str:
    """Helpers h1 .. h<depth>, each calling the next one twice (the leaf runs ``leaf``), called
    once from a kernel with a vec tile set."""
    lines = ["import pypto", ""]
    for d in range(depth, 0, -1):
        body = leaf if d == depth else f"h{d + 1}(x) + h{d + 1}(x)"
        lines += [f"def h{d}(x):", f"    return {body}", ""]
    lines += [
        "@pypto.frontend.jit",
        "def k(x: pypto.Tensor([8, 60], pypto.DT_FP32), out: pypto.Tensor([8, 60], pypto.DT_FP32)):",
        "    pypto.set_vec_tile_shapes(8, 15)",
        "    out[:] = h1(x)",
        "",
    ]
    return "\n".join(lines)


def _run(tmp_path: Path, source: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """mypy's output lines and the number of copies mypy checked."""
    checked = [0]
    original = specialize._check_copy

    def counted(*args: object) -> object:
        checked[0] += 1
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(specialize, "_check_copy", counted)
    (tmp_path / "k.py").write_text(source)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n")
    stdout, stderr, status = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--no-incremental",
                                      str(tmp_path / "k.py")])
    assert status in (0, 1) and "INTERNAL ERROR" not in stdout + stderr, stdout + stderr
    return [line.replace(str(tmp_path) + "/", "") for line in stdout.splitlines()], checked[0]


def test_a_helper_tree_checks_each_distinct_copy_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Fan-out 2 at depth 8: 255 copies of the same 8 bodies with the same tensor and tiles.
    out, checked = _run(tmp_path, _tree(8, "x.sum(-1, keepdim=True) + x"), monkeypatch)
    assert checked == 8
    via = [f"k.py:4: note: with the tensors of the call of h{d} at k.py:{line}: x [8, 60] DT_FP32; "
           "entered with vec tile (8, 15)" for d, line in zip(range(8, 0, -1), (7, 10, 13, 16, 19, 22, 25, 30))]
    assert out == [
        "k.py:4: error: Tensor.sum reduces the last axis of [8, 60] DT_FP32: vec tile (8, 15) has 15 at index 1, "
        "15 x 4 bytes = 60 bytes, not a multiple of 32 bytes (a multiple of 8 elements); the compiler raises "
        "FC1001  [pypto-reduce-align]",
        "k.py:4: note: set that tile entry to a multiple of 8 (e.g. 16), or reduce with a ones vector: "
        "pypto.matmul(x, ones, pypto.DT_FP32) with ones = pypto.full([60, 1], 1.0, pypto.DT_FP32)",
        *via,
        "Found 1 error in 1 file (checked 1 source file)",
    ]


def test_copies_grow_linearly_with_depth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, four = _run(tmp_path, _tree(4, "x + x"), monkeypatch)
    _, seven = _run(tmp_path, _tree(7, "x + x"), monkeypatch)
    assert (four, seven) == (4, 7)  # 15 and 127 before


KERNELS = """\
import pypto

def rows(x):
    return x.shape[0]

def total(x):
    return x.sum(-1, keepdim=True)

@pypto.frontend.jit
def k1(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = total(x) * rows(x)

@pypto.frontend.jit
def k2(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = total(x) * rows(x)
"""


def test_a_helper_that_reads_no_tile_is_checked_once_for_every_tile(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # ``rows`` has no op that reads the tiles: one copy serves both kernels. ``total`` reduces
    # under the caller's vec tile: one copy per tile, and only k2's tile (4 x 4 bytes) is wrong.
    out, checked = _run(tmp_path, KERNELS, monkeypatch)
    assert checked == 3
    assert [line for line in out if "error" in line or "call of" in line] == [
        "k.py:7: error: Tensor.sum reduces the last axis of [8, 64] DT_FP32: vec tile (8, 4) has 4 at index 1, "
        "4 x 4 bytes = 16 bytes, not a multiple of 32 bytes (a multiple of 8 elements); the compiler raises "
        "FC1001  [pypto-reduce-align]",
        "k.py:7: note: with the tensors of the call of total at k.py:17: x [8, 64] DT_FP32; entered with vec "
        "tile (8, 4)",
        "Found 1 error in 1 file (checked 1 source file)",
    ]
