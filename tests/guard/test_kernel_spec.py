"""What the guard reads from real 0.2.0 kernel objects: every annotation form (subscript and call
form, no dtype, ``[]``, ``Tensor()``, STATIC/DYNAMIC, ``...``, ``dynamic("N")``, defaults)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.runner import have_pypto

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = '''
import json, pypto
from mypy_plugin.guard.kernel_spec import kernel_spec
N = pypto.frontend.dynamic("N")

@pypto.frontend.jit
def k(a: pypto.Tensor([8, 16], pypto.DT_BF16), b: pypto.Tensor[[8, 16]], c: pypto.Tensor([8, 16]),
      d: pypto.Tensor([N, 16], pypto.DT_FP16), e: pypto.Tensor([pypto.DYNAMIC, 64]),
      f: pypto.Tensor[[pypto.STATIC, ...], pypto.DT_INT32], g: pypto.Tensor(), h: pypto.Tensor([], pypto.DT_FP16),
      eps, scale=2.0):
    pass

@pypto.frontend.jit
def s(a: pypto.Tensor([N, 16]), b: pypto.Tensor((16, N), pypto.DT_FP32)):
    pass

out = {}
for kern in (k, s):
    spec = kernel_spec(kern)
    out[spec.name] = dict(params=[[p.name, p.dims, p.open_tail, p.dtype, p.status] for p in spec.tensors],
                          non_tensors=spec.non_tensors, required=sorted(spec.required),
                          runtime=spec.runtime_shapes, expected=[spec.expected_dtype(p) for p in spec.tensors])
print("SPEC " + json.dumps(out))
'''


@pytest.mark.oracle
def test_annotation_forms(tmp_path: Path) -> None:
    if not have_pypto():
        pytest.skip("needs the real pypto 0.2.0 compiler and torch (the oracle extra)")
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    got = json.loads(next(ln for ln in p.stdout.splitlines() if ln.startswith("SPEC "))[5:])
    assert got["k"] == {
        "params": [
            ["a", [8, 16], False, "DT_BF16", False],
            ["b", [8, 16], False, "DT_FP32", False],  # subscript form: TensorAnnotation fills FP32 in
            ["c", [8, 16], False, None, False],  # call form without dtype: none written
            ["d", ["N", 16], False, "DT_FP16", False],
            ["e", [None, 64], False, None, True],
            ["f", [None], True, "DT_INT32", True],
            ["g", None, False, None, False],
            ["h", None, False, "DT_FP16", False],
        ],
        "non_tensors": ["eps", "scale"],
        "required": ["eps"],
        "runtime": True,
        "expected": ["DT_BF16", "DT_FP32", None, "DT_FP16", None, "DT_INT32", None, "DT_FP16"],
    }
    assert got["s"]["params"] == [["a", ["N", 16], False, None, False], ["b", [16, "N"], False, "DT_FP32", False]]
    assert got["s"]["runtime"] is False and got["s"]["expected"] == ["DT_FP32", "DT_FP32"]
