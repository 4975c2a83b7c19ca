# oracle: TypeError: View(): incompatible function arguments (a view's shape must be ints; the
# dynamic dim is a SymbolicScalar at trace time)
# expect: pypto-not-concrete 13
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      o: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    n = x.shape[0]
    v = pypto.view(x, [n, 64], [0, 0])
    o[0:8, :] = pypto.view(x, [8, 64], [0, 0]) * 2.0


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
