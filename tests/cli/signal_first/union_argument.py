# hidden: a union argument, one item of which would not fit (0.2.0 runs the item it gets)
import pypto
import torch


def factor(x: pypto.Tensor, plain: bool) -> pypto.Tensor | float:
    return 2.0 if plain else x * 0.5


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = pypto.exp(factor(a, False))


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
