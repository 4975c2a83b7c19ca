# hidden: typing only (a return value, a list item, an attribute of one union item): 0.2.0 runs it
import pypto
import torch


def pair(x: pypto.Tensor) -> pypto.Tensor:
    return [x, x]


def scaled(x: pypto.Tensor, plain: bool) -> pypto.Tensor | float:
    return 2.0 if plain else x * 0.5


def first(x):
    parts: list[pypto.Tensor] = [x, 2.0]
    y = scaled(x, False)
    return parts[0] + y.exp()


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    p = pair(a)
    out[:] = first(a)


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
