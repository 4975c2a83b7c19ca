# hidden: an argument declared object (a parameters object's field holding a tensor, as PyPTO's own scaled_bmm test writes it): 0.2.0 runs the tensor it gets
from dataclasses import dataclass

import pypto
import torch


@dataclass
class Params:
    src: object
    out: object


def store(t: pypto.Tensor, offsets: list[int], dst: object) -> None:
    pypto.assemble(t, offsets, dst)


def scale(params: Params) -> None:
    pypto.assemble(pypto.mul(params.src, 2.0), [0, 0], params.out)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    store(x * 3.0, [0, 0], out)
    scale(Params(x, out))


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
