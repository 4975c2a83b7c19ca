"""L2 norm with a ones-vector row sum, written with two slips."""

import pypto

ROWS = 8
DIM = 64


@pypto.frontend.jit
def l2_norm(
    x: pypto.Tensor([ROWS, DIM], pypto.DT_FP32),
    ones_v: pypto.Tensor([DIM // 2, 1], pypto.DT_FP32),
    out: pypto.Tensor([ROWS, DIM], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(ROWS, DIM)
    pypto.set_cube_tile_shapes([16, 16], [64, 64], [16, 16])
    # Bug 1: .abs() is not a tensor method in PyPTO.
    mag = x.abs()
    # Bug 2: the ones vector has 32 rows, but the row has 64 elements.
    row_sum = pypto.matmul(mag * mag, ones_v, pypto.DT_FP32)
    out[:] = x * pypto.rsqrt(row_sum + 1e-6)
