# oracle: compiles (the dtype of an annotation read from a module-level config object)
# expect: OK
import pypto
import torch


class Config:
    def __init__(self) -> None:
        self.in_dtype = pypto.DT_FP32
        self.rows = 8


cfg = Config()


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([cfg.rows, 64], cfg.in_dtype), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * 2.0


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
