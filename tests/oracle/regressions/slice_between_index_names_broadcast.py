# oracle: fails (start = i * 8 and end = (i + 1) * 8 bound in the loop: x[start:end, :] is [8, 32], and [8, 32] + [16, 32] does not broadcast; the slice's extent was unknown before)
# expect: pypto-broadcast 14
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([64, 32], pypto.DT_FP32), y: pypto.Tensor([16, 32], pypto.DT_FP32),
      out: pypto.Tensor([64, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    for i in pypto.loop(4):
        start = i * 8
        end = (i + 1) * 8
        out[start:end, :] = x[start:end, :] + y


def run() -> None:
    k(torch.ones(64, 32), torch.ones(16, 32), torch.zeros(64, 32))
