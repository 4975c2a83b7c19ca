"""RMS norm over the hidden axis: a kernel that compiles (no findings expected)."""

import pypto

ROWS = 8
HIDDEN = 64
EPS = 1e-6


@pypto.frontend.jit
def rms_norm_kernel(
    x: pypto.Tensor([ROWS, HIDDEN], pypto.DT_FP32),
    gamma: pypto.Tensor([1, HIDDEN], pypto.DT_FP32),
    out: pypto.Tensor([ROWS, HIDDEN], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(ROWS, HIDDEN)
    sq = x * x
    mean_sq = sq.sum(-1, keepdim=True) / HIDDEN
    inv = pypto.rsqrt(mean_sq + EPS)
    out[:] = x * inv * gamma
