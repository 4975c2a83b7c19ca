"""``pypto-check --fix`` on pypto-use-after-move: the output is written after the last read."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fix import _fix, _fix_again, _kernel

# A long run (each move fix re-checked by mypy): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow


def test_the_write_moves_below_the_last_read_with_its_comments(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 16], pypto.DT_FP32), o1: pypto.Tensor([8, 16], pypto.DT_FP32),
          o2: pypto.Tensor([8, 16], pypto.DT_FP32), o3: pypto.Tensor([8, 16], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 16)
        g = pypto.sigmoid(x)
        # the gate itself
        o1[:] = g  # moved
        # scaled
        o2[:] = g * 0.5
        for i in range(2):
            o3[:] = g + 1.0
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel('''\
    def k(x: pypto.Tensor([8, 16], pypto.DT_FP32), o1: pypto.Tensor([8, 16], pypto.DT_FP32),
          o2: pypto.Tensor([8, 16], pypto.DT_FP32), o3: pypto.Tensor([8, 16], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 16)
        g = pypto.sigmoid(x)
        # scaled
        o2[:] = g * 0.5
        for i in range(2):
            o3[:] = g + 1.0
        # the gate itself
        o1[:] = g  # moved
    ''')
    assert left == []
    assert _fix_again(tmp_path) == (text, [])


def test_move_method_form_moves_too(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 16], pypto.DT_FP32), o1: pypto.Tensor([8, 16], pypto.DT_FP32),
          o2: pypto.Tensor([8, 16], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 16)
        g = pypto.exp(x)
        o1.move(g)
        o2[:] = g * 2.0
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body.replace("o1.move(g)\n        o2[:] = g * 2.0", "o2[:] = g * 2.0\n        o1.move(g)"))
    assert left == []


def test_left_when_moving_would_change_what_runs(tmp_path: Path) -> None:
    """The output read in between, the name bound again, a continue in between, the move inside
    a branch read after it: the finding stays."""
    body = '''\
    def k(x: pypto.Tensor([8, 16], pypto.DT_FP32), o1: pypto.Tensor([8, 16], pypto.DT_FP32),
          o2: pypto.Tensor([8, 16], pypto.DT_FP32), o3: pypto.Tensor([8, 16], pypto.DT_FP32), n: int = 1):
        pypto.set_vec_tile_shapes(8, 16)
        a = pypto.exp(x)
        o1[:] = a
        o2[:] = o1 + a
        for i in range(2):
            b = pypto.abs(x)
            o3[:] = b
            if i == 0:
                continue
            o2[:] = b * 2.0
        c = pypto.neg(x)
        if n > 1:
            o1[:] = c
        o3[:] = c * 3.0
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body)
    assert left == ["pypto-use-after-move"] * 3
