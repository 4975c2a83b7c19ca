# oracle: compiles (the same helper; its halves added together, [8, 32] + [8, 32])
# expect: OK
from typing import Tuple

import pypto
import torch


def halves(x: pypto.Tensor) -> Tuple[pypto.Tensor, pypto.Tensor]:
    left = pypto.view(x, [8, 32], [0, 0])
    right = pypto.view(x, [8, 32], [0, 32])
    return left, right


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    left, right = halves(x)
    out[:, 0:32] = left + right


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
