# oracle: compiles (a negative start, int bounds and the whole tensor have an int extent)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      o: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    n = x.shape[0]
    v = x[-8:, 0:32]
    w = x[0:8, 0:32]
    z = x[:, :]
    o[:] = pypto.view(x, [8, 64], [0, 0]) * 2.0


def run() -> None:
    k(torch.ones(16, 64), torch.ones(8, 64))
