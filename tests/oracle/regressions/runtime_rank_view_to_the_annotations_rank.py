# oracle: F21004 "Their size actually are 3 and 2" (GetViewValidShape): the [DYNAMIC, STATIC]
# parameter is traced with the 3-D tensor the call passes, so a 2-D view of it fails
# expect: pypto-reshape 13
# expect: pypto-call-rank 19
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, pypto.STATIC], pypto.DT_FP32),
      out: pypto.Tensor([8, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 8)
    v = pypto.view(x, [8, 8], [0, 0])
    out[:] = v * 2.0


def run() -> None:
    x = torch.ones(8, 4, 2)
    k(x, torch.zeros(8, 8))
