# oracle: OK (the note's fix: the elementwise pypto.maximum)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), b: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = pypto.maximum(a * 2.0, b - 3.0)


def run() -> None:
    k(torch.ones(8, 16), torch.ones(8, 16), torch.zeros(8, 16))
