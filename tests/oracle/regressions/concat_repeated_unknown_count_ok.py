# oracle: compiles (pypto.concat([x] * n, 0) of a [4, 64] fp32 tensor keeps the last axis 64 whatever n is; the last-axis sum reduces under vec tile (16, 8): 8 x 4 bytes = 32 bytes)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([4, 64], pypto.DT_FP32), out: pypto.Tensor([16, 1], pypto.DT_FP32), n: int):
    pypto.set_vec_tile_shapes(16, 8)
    c = pypto.concat([x] * n, 0)
    e = pypto.exp(c)
    out[:] = e.sum(-1, keepdim=True)


def run() -> None:
    k(torch.randn(4, 64), torch.empty(16, 1), 4)
