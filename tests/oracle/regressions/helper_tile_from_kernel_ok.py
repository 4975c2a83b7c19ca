# oracle: OK: the kernel's aligned tile (8, 16) is in force inside the helpers; a list changed after the tile is set does not change the tile
# expect: OK
import pypto
import torch


def inner(x):
    return x.sum(-1, keepdim=True)


def core(x: pypto.Tensor, hidden):
    return inner(x) / hidden


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    tile = [8] * len(a.shape)
    tile[-1] = 16
    pypto.set_vec_tile_shapes(*tile)
    tile[-1] = 4
    out[:] = core(a, 64)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
