# shown: Missing positional argument "dim1" in call to "transpose" (0.2.0: TypeError at trace time)
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 8], pypto.DT_FP32), out: pypto.Tensor([8, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.transpose(a, [1, 0])


def run() -> None:
    k(torch.ones(8, 8), torch.zeros(8, 8))
