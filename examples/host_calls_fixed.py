"""A kernel that takes its shapes from the tensors it is called with, and the test that calls it
fixed: every call gives the kernel tensors it compiles for."""

import pypto
import torch


@pypto.frontend.jit
def row_scale(
    x: pypto.Tensor([], pypto.DT_BF16),
    w: pypto.Tensor([], pypto.DT_BF16),
    out: pypto.Tensor([], pypto.DT_BF16),
):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * w


def test_row_scale() -> None:
    for hidden in (64, 128):
        x = torch.randn(8, hidden, dtype=torch.bfloat16)
        w = torch.randn(1, hidden, dtype=torch.bfloat16)
        row_scale(x, w, torch.empty_like(x))
    xt = torch.randn(64, 8, dtype=torch.bfloat16).t().contiguous()
    row_scale(xt, torch.randn(1, 64, dtype=torch.bfloat16), torch.empty(8, 64, dtype=torch.bfloat16))
