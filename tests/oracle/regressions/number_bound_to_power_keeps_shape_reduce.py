# oracle: FC1001 (scale = 1.0 / d ** 0.5 is a Python float, so pypto.mul(x, scale) is x's [16, 64] FP32; its last-axis sum runs under vec tile (16, 4): 4 x 4 bytes = 16 bytes)
# expect: pypto-reduce-align 14
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([16, 1], pypto.DT_FP32)):
    d = x.shape[1]
    scale = 1.0 / d ** 0.5
    s = d ** -0.5
    pypto.set_vec_tile_shapes(16, 4)
    y = pypto.mul(pypto.mul(x, scale), s)
    out[:] = y.sum(-1, keepdim=True)


def run() -> None:
    k(torch.randn(16, 64), torch.empty(16, 1))
