"""Row softmax and row max in bf16, tiled 8 columns at a time."""

import pypto

ROWS = 16
COLS = 64
COL_TILE = 8


@pypto.frontend.jit
def row_stats(
    x: pypto.Tensor([ROWS, COLS], pypto.DT_BF16),
    probs: pypto.Tensor([ROWS, COLS], pypto.DT_BF16),
    row_max: pypto.Tensor([ROWS, 1], pypto.DT_BF16),
):
    pypto.set_vec_tile_shapes(ROWS, COL_TILE)
    # softmax reduces in fp32 internally: 8 x 4 bytes = 32 bytes, fine.
    probs[:] = pypto.softmax(x, -1)
    # Bug: amax reduces bf16 itself: 8 x 2 bytes = 16 bytes (FC1001 at compile time).
    row_max[:] = x.amax(-1, keepdim=True)
