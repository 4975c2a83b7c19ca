# oracle: TypeError: Full(): incompatible function arguments (zeros/ones/full sizes must be ints)
# expect: pypto-not-concrete 12
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      o: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    n = x.shape[0]
    z = pypto.zeros(n, 64, dtype=pypto.DT_FP32)
    o[0:8, :] = pypto.view(x, [8, 64], [0, 0]) * 2.0


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
