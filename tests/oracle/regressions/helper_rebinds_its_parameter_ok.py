# oracle: compiles (x = pypto.cast(x, FP32) in the helper: the sum runs on FP32, 8 x 4 bytes = 32 bytes; the copy kept the call's BF16 and reported reduce-align and out-dtype)
# expect: OK
import pypto
import torch


def upcast_sum(x):
    x = pypto.cast(x, pypto.DT_FP32)
    return x.sum(-1, keepdim=True)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_BF16), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = upcast_sum(a)


def run() -> None:
    k(torch.randn(8, 64, dtype=torch.bfloat16), torch.empty(8, 1))
