# shown: Name "scale" is not defined (0.2.0: NameError at trace time)
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = pypto.mul(a, scale)


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
