# oracle: compiles (the same slices, added to a [8, 32] tensor)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([64, 32], pypto.DT_FP32), y: pypto.Tensor([8, 32], pypto.DT_FP32),
      out: pypto.Tensor([64, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    for i in pypto.loop(4):
        start = i * 8
        end = (i + 1) * 8
        out[start:end, :] = x[start:end, :] + y


def run() -> None:
    k(torch.ones(64, 32), torch.ones(8, 32), torch.zeros(64, 32))
