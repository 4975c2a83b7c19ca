# oracle: ValueError: Invalid value type when the module is imported (a tuple shape holding pypto.DYNAMIC)
# expect: pypto-kernel-signature 8
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor((pypto.DYNAMIC, 64), pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    v = pypto.view(x, [8, 64], [0, 0])
    out[:] = v * 2.0


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
