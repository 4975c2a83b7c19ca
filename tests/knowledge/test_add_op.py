"""Adding an op takes a stub and one row: shown on a fake op in a temporary copy of the project.

The copy gets ``pypto.logsumexp`` in the stubs and one row in ``knowledge/ops.py`` (a
reduction that reduces in fp32), nothing else. mypy then infers its shape and dtype and runs
its checks (the tile it needs, the 32-byte rule with the fp32 size).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STUB = "\ndef logsumexp(input: Tensor, dim: int, keepdim: bool = False) -> Tensor: ...\n"
ROW = '    Op("logsumexp", "reduction", rules.reduction, "reduce", _BY_DIM_IN_FP32),\n'
ROWS_START = "_ROWS: Final[list[Op]] = [\n"

KERNEL = """\
import pypto

@pypto.frontend.jit
def k(a: pypto.Tensor([8, 64], pypto.DT_BF16), out: pypto.Tensor([8, 1], pypto.DT_BF16)):
    pypto.set_vec_tile_shapes(8, 4)
    s = pypto.logsumexp(a, -1, keepdim=True)
    reveal_type(s)
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.logsumexp(a, 1, keepdim=True)

@pypto.frontend.jit
def no_tile(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8], pypto.DT_FP32)):
    out[:] = pypto.logsumexp(a, 1)
"""


def _copy_with_fake_op(tmp: Path) -> Path:
    plugin = tmp / "plugin" / "mypy_plugin"
    shutil.copytree(ROOT / "mypy_plugin", plugin, ignore=shutil.ignore_patterns("__pycache__"))
    stubs = tmp / "stubs" / "pypto"
    shutil.copytree(ROOT / "pypto_stubs", stubs, ignore=shutil.ignore_patterns("__pycache__", "METADATA.toml"))
    with open(stubs / "__init__.pyi", "a", encoding="utf-8") as f:
        f.write(STUB)
    ops = plugin / "knowledge" / "ops.py"
    text = ops.read_text(encoding="utf-8")
    assert ROWS_START in text
    ops.write_text(text.replace(ROWS_START, ROWS_START + ROW), encoding="utf-8")
    return tmp


def test_a_new_row_and_stub_give_inference_and_checks(tmp_path: Path) -> None:
    work = _copy_with_fake_op(tmp_path)
    (work / "k.py").write_text(KERNEL, encoding="utf-8")
    (work / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\nmypy_path = stubs\n", encoding="utf-8")
    # The copy of the plugin comes first on the path, before the installed one.
    env = {**os.environ, "PYTHONPATH": str(work / "plugin")}
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", "k.py"],
        cwd=work, env=env, capture_output=True, text=True, timeout=300,
    )
    out = proc.stdout
    assert 'Revealed type is "pypto.Tensor[tuple[Literal[8], Literal[1]], pypto._DT_BF16]"' in out, out + proc.stderr
    # bf16 reduced as fp32: a last tile entry of 4 is 16 bytes (8 passes, as for softmax).
    assert (
        "k.py:6: error: pypto.logsumexp reduces the last axis of [8, 64] DT_BF16 (reduced as DT_FP32): "
        "vec tile (8, 4) has 4 at index 1, 4 x 4 bytes = 16 bytes" in out
    ), out
    assert "k.py:9:" not in out, out
    assert (
        "k.py:13: error: pypto.logsumexp runs with no vec tile set in this kernel; PyPTO 0.2.0 crashes "
        "with SIGSEGV and no message  [pypto-tile-missing]" in out
    ), out
    assert out.count(": error:") == 2, out
