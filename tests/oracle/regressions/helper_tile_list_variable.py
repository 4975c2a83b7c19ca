# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the helper sets the tile from the list variable its caller passes
# expect: pypto-reduce-align 10
# compiler blames: 17
import pypto
import torch


def row_sum(x, tile_shape):
    pypto.set_vec_tile_shapes(*tile_shape)
    return x.sum(-1, keepdim=True)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    tile = [8] * a.dim
    tile[-1] = 4
    out[:] = row_sum(a, tile)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
