"""``pypto-check --fix`` on pypto-not-concrete: ``min``/``max`` of a dynamic dim become its
symbolic method (the fixed kernels compile on 0.2.0: probed, rule dynamic-dim-not-concrete)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fix import _fix, _fix_again, _kernel

SIGNATURE = '''\
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32), out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    rows, cols = x.shape
'''


@pytest.mark.slow  # every builtin min/max form, each fix re-checked: a minute
def test_min_and_max_become_the_symbolic_methods(tmp_path: Path) -> None:
    body = SIGNATURE + '''\
    a = min(x.shape[0], 8)  # rows of the first tile
    b = max(16, x.shape[-2] // 8)
    for i in pypto.loop(rows // 8):
        xs = pypto.view(x, [8, 64], [i * 8, 0], valid_shape=[min(8, rows - i * 8), 64])
        pypto.assemble(xs * 2.0, [i * 8, 0], out)
'''
    text, left = _fix(tmp_path, body)
    fixed = (body.replace("min(x.shape[0], 8)", "x.shape[0].min(8)")
             .replace("max(16, x.shape[-2] // 8)", "(x.shape[-2] // 8).max(16)")
             .replace("min(8, rows - i * 8)", "(rows - i * 8).min(8)"))
    assert text == _kernel(fixed)
    assert left == []
    again, left_again = _fix_again(tmp_path)
    assert again == text and left_again == []


def test_other_builtins_and_nested_calls_are_left(tmp_path: Path) -> None:
    # int() has no symbolic twin; the inner min of a nested one would leave the outer one
    # reporting the method's SymbolicScalar, so the re-check drops that fix.
    body = SIGNATURE + '''\
    d = int(rows)
    c = min(8, min(rows, 4))
'''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body)
    assert left == ["pypto-not-concrete", "pypto-not-concrete"]
