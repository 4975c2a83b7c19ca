"""Row softmax and row max in bf16, fixed: the column tile fills 32 bytes of bf16."""

import pypto

ROWS = 16
COLS = 64
COL_TILE = 16


@pypto.frontend.jit
def row_stats(
    x: pypto.Tensor([ROWS, COLS], pypto.DT_BF16),
    probs: pypto.Tensor([ROWS, COLS], pypto.DT_BF16),
    row_max: pypto.Tensor([ROWS, 1], pypto.DT_BF16),
):
    pypto.set_vec_tile_shapes(ROWS, COL_TILE)
    probs[:] = pypto.softmax(x, -1)
    row_max[:] = x.amax(-1, keepdim=True)
