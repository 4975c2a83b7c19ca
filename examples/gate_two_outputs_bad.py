"""A gate written to two outputs: the second write reads a tensor the first one emptied."""

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
    gate[:] = g
    # Bug: `gate[:] = g` moved g's storage into `gate`; g is empty now (ValueError: Empty tensor.).
    gate_scaled[:] = g * 0.5
