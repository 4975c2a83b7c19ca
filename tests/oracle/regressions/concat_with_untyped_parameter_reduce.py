# oracle: FC1001 (y, an unannotated parameter, is given a host-made [8, 64] fp32 pypto tensor: concat([x, y], 0) is [16, 64], its last-axis sum runs under vec tile (16, 4): 4 x 4 bytes = 16 bytes; the checker knows the last axis from x alone, as 0.2.0 joins only tensors whose dims agree off the axis)
# expect: pypto-reduce-align 12
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([16, 1], pypto.DT_FP32), y):
    pypto.set_vec_tile_shapes(16, 4)
    c = pypto.concat([x, y], 0)
    e = pypto.exp(c)
    out[:] = e.sum(-1, keepdim=True)


def run() -> None:
    k(torch.randn(8, 64), torch.empty(16, 1), pypto.tensor([8, 64], pypto.DT_FP32, "y"))
