# oracle: compiles (the called jit of bare_jit_factory_annotation_only_name captures the factory's variables)
# expect: OK
import pypto
import torch

pypto.set_options(runtime_options={"run_mode": pypto.RunMode.SIM})


def make(rows):
    @pypto.frontend.jit()
    def k(x: pypto.Tensor([rows, 64], pypto.DT_FP32), out: pypto.Tensor([rows, 64], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        out[:] = x * 2.0
    return k


def run() -> None:
    make(8)(torch.ones(8, 64), torch.zeros(8, 64))
