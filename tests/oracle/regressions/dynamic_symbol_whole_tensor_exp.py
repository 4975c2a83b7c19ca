# oracle: RuntimeError: Errcode: FFFFFF! The shape size of tensor must less than or equal to INT32_MAX
# (a frontend.dynamic("N") symbol is -1 in the trace too, whatever the call passes)
# expect: pypto-dynamic-dim 13
import pypto
import torch

N = pypto.frontend.dynamic("N")


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([N, 64], pypto.DT_FP32), out: pypto.Tensor([N, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    y = pypto.exp(x)
    out[:] = y


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
