# oracle: compiles (n = x.shape[1] and rows, cols = x.shape are 8 and 64: the slice x[:, :n] and the full [rows, cols] are [8, 64])
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    rows, cols = x.shape
    n = x.shape[1]
    ones = pypto.full([rows, cols], 1.0, pypto.DT_FP32)
    out[:] = x[:, :n] + ones


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
