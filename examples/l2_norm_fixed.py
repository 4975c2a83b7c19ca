"""L2 norm with a ones-vector row sum, fixed (compiles)."""

import pypto

ROWS = 8
DIM = 64


@pypto.frontend.jit
def l2_norm(
    x: pypto.Tensor([ROWS, DIM], pypto.DT_FP32),
    ones_v: pypto.Tensor([DIM, 1], pypto.DT_FP32),
    out: pypto.Tensor([ROWS, DIM], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(ROWS, DIM)
    pypto.set_cube_tile_shapes([16, 16], [64, 64], [16, 16])
    mag = pypto.abs(x)
    row_sum = pypto.matmul(mag * mag, ones_v, pypto.DT_FP32)
    out[:] = x * pypto.rsqrt(row_sum + 1e-6)
