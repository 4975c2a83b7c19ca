# oracle: ValueError: Not concrete value (builtin min() asks a symbolic dim for its value at trace time)
# expect: pypto-not-concrete 11
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    rows = min(x.shape[0], 8)
    y = pypto.view(x, [8, 64], [0, 0])
    out[0:8, :] = y * 2.0


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
