# hidden: a list argument whose items are a union, one item type of which would not fit (0.2.0 runs the ints it gets)
from typing import List

import pypto
import torch
from pypto import SymInt


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([16, 64], pypto.DT_FP32), view_shape: List[SymInt]):
    pypto.set_vec_tile_shapes(16, 64)
    tile = pypto.view(x, view_shape, [0, 0])
    pypto.assemble(tile * 2.0, [0, 0], out)


def run() -> None:
    k(torch.ones(16, 64), torch.zeros(16, 64), [16, 64])
