# oracle: NameError: name 'rows' is not defined at the first call (a bare jit in a factory whose
# variable only the annotations read)
# expect: pypto-kernel-scope 12
import pypto
import torch

pypto.set_options(runtime_options={"run_mode": pypto.RunMode.SIM})


def make(rows):
    @pypto.frontend.jit
    def k(x: pypto.Tensor([rows, 64], pypto.DT_FP32), out: pypto.Tensor([rows, 64], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        out[:] = x * 2.0
    return k


def run() -> None:
    make(8)(torch.ones(8, 64), torch.zeros(8, 64))
