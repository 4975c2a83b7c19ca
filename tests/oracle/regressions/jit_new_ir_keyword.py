# oracle: TypeError: jit() got an unexpected keyword argument 'new_ir' (when the module is imported)
# expect: pypto-jit-keyword 7
import pypto
import torch


@pypto.frontend.jit(new_ir=True, runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * 2.0


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 64))
