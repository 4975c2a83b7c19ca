"""A gate written to two outputs, fixed: the second output is computed from the first."""

import pypto

ROWS = 8
COLS = 16


@pypto.frontend.jit
def gate_two_outputs(
    x: pypto.Tensor([ROWS, COLS], pypto.DT_FP32),
    gate: pypto.Tensor([ROWS, COLS], pypto.DT_FP32),
    gate_scaled: pypto.Tensor([ROWS, COLS], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(ROWS, COLS)
    g = pypto.sigmoid(x)
    gate_scaled[:] = g * 0.5
    gate[:] = g
