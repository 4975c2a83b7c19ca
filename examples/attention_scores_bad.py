"""Attention scores written the PyTorch way: three mistakes the compiler reports late."""

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
    # Bug 1: PyPTO tensors have no .T (AttributeError at trace time).
    scores = pypto.matmul(q, k.T, pypto.DT_FP32)
    # Bug 2: q @ k multiplies [16, 32] by [16, 32]: K is 32 on the left, 16 on the right.
    raw = q @ k
    # Bug 3: scores is FP32, raw FP16 (`@` keeps the operands' dtype): PyPTO never promotes.
    out[:] = scores + raw
