# oracle: fails (halves() is annotated -> Tuple[pypto.Tensor, pypto.Tensor]; its views are [8, 32] each, and [8, 32] + [8, 64] does not broadcast; the declared tuple hid the shapes before)
# expect: pypto-broadcast 20
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
    out[:] = left + x


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
