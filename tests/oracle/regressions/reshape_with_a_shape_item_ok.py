# oracle: compiles (a static dim read from x.shape is an int while the kernel is traced)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 8, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 8, 8)
    y = pypto.reshape(x, [x.shape[0], 8, 8])
    out[:] = y * 2.0


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 8, 8))
