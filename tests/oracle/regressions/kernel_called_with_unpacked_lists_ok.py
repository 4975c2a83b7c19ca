# oracle: runs (the jit wrapper binds k(*[x, out], ...) and k(*inputs, scale, n) at run time)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32), scale: float, n: int):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * scale


def run() -> None:
    x, out = torch.ones(8, 64), torch.zeros(8, 64)
    inputs = [x, out]
    k(*inputs, 2.0, 3)
    k(*[x, out], 2.0, 3)
