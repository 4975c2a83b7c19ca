"""Attention scores, fixed: transpose through the matmul flag (compiles)."""

import pypto

SEQ = 16
HEAD_DIM = 32


@pypto.frontend.jit
def attention_scores(
    q: pypto.Tensor([SEQ, HEAD_DIM], pypto.DT_FP16),
    k: pypto.Tensor([SEQ, HEAD_DIM], pypto.DT_FP16),
    out: pypto.Tensor([SEQ, SEQ], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(SEQ, SEQ)
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
    out[:] = pypto.matmul(q, k, pypto.DT_FP32, b_trans=True)
