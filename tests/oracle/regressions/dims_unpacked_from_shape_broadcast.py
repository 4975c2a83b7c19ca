# oracle: fails (rows, cols = x.shape binds 8 and 64: the full is [8, 32] and [8, 64] + [8, 32] does not broadcast; the names were symbols before, and the add unchecked)
# expect: pypto-broadcast 12
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    rows, cols = x.shape
    half = pypto.full([rows, cols // 2], 1.0, pypto.DT_FP32)
    out[:] = x + half


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
