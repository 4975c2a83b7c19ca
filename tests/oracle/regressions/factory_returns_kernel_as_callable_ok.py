# oracle: runs (a factory annotated -> Callable[...] returning its jit kernel; the caller unpacks a list)
# expect: OK
from typing import Callable

import pypto
import torch


def make(rows: int) -> Callable[[pypto.Tensor, pypto.Tensor], tuple[pypto.Tensor, pypto.Tensor]]:
    @pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
    def kernel(x: pypto.Tensor([rows, 64], pypto.DT_FP32), y: pypto.Tensor([rows, 64], pypto.DT_FP32),
               out: pypto.Tensor([rows, 64], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        out[:] = x + y
    return kernel


KERNELS = {"normal": make(8)}


def run() -> None:
    kernel = KERNELS["normal"]
    inputs = [torch.ones(8, 64), torch.ones(8, 64)]
    kernel(*inputs, torch.zeros(8, 64))
