# oracle: RuntimeError: Errcode: FFFFFF! The shape size of tensor must less than or equal to INT32_MAX
# (CheckTensorShape): the DYNAMIC dim is -1 in the trace
# expect: pypto-dynamic-dim 12
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * 2.0


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
