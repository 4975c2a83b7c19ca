# oracle: OK: the helper's helper sets the aligned tile (8, 16), which the kernel's sum after the call runs under
# expect: OK
import pypto
import torch


def set_tile(x):
    pypto.set_vec_tile_shapes(8, 16)
    return x * 2.0


def scale(x):
    return set_tile(x)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    o1[:] = scale(a)
    out[:] = a.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 64), torch.ones(8, 1))
