# oracle: RuntimeError: Errcode: FFFFFF! The shape size of tensor must less than or equal to INT32_MAX
# (one dynamic operand is enough, even when the other one is static)
# expect: pypto-dynamic-dim 12
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32), y: pypto.Tensor([8, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    z = y - x
    out[:] = z


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 64), torch.ones(8, 64))
