# oracle: OK: Tiled(8, 16) runs an __init__ that sets (8, 16) before the sum
# expect: OK
import torch
import pypto


class Tiled:
    def __init__(self, rows, width):
        pypto.set_vec_tile_shapes(rows, width)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    Tiled(8, 16)
    out[:] = x.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
