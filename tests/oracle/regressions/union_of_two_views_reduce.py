# oracle: FC1001 (a is [16, 64] or [16, 32] as flag says; either way its last-axis sum runs under vec tile (16, 4): 4 x 4 bytes = 16 bytes)
# expect: pypto-reduce-align 15
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 128], pypto.DT_FP32), out: pypto.Tensor([16, 1], pypto.DT_FP32), flag: int):
    pypto.set_vec_tile_shapes(16, 4)
    if flag > 0:
        a = pypto.view(x, [16, 64], [0, 0])
    else:
        a = pypto.view(x, [16, 32], [0, 0])
    b = pypto.exp(a)
    out[:] = b.sum(-1, keepdim=True)


def run() -> None:
    k(torch.randn(16, 128), torch.empty(16, 1), 1)
