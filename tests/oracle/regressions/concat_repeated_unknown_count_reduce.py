# oracle: FC1001 (pypto.concat([x] * n, 0) joins n copies of a [4, 64] fp32 tensor: its last axis stays 64 whatever n is, and the last-axis sum runs under vec tile (16, 4): 4 x 4 bytes = 16 bytes)
# expect: pypto-reduce-align 12
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([4, 64], pypto.DT_FP32), out: pypto.Tensor([16, 1], pypto.DT_FP32), n: int):
    pypto.set_vec_tile_shapes(16, 4)
    c = pypto.concat([x] * n, 0)
    e = pypto.exp(c)
    out[:] = e.sum(-1, keepdim=True)


def run() -> None:
    k(torch.randn(4, 64), torch.empty(16, 1), 4)
