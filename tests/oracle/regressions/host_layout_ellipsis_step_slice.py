# oracle: RuntimeError "not all tensors are contiguous" at the call (a step slice through an Ellipsis index; probe of 2026-12-01)
# expect: pypto-call-layout 14
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([4, 64], pypto.DT_FP32), out: pypto.Tensor([4, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 64)
    out[:] = x + x


def run() -> None:
    k(torch.zeros(4, 64), torch.zeros(4, 128)[..., ::2])
