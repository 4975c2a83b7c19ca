# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the helper builds the tile (8, 4) from its own parameter's rank
# expect: pypto-reduce-align 10
# compiler blames: 15
import pypto
import torch


def row_sum(x):
    pypto.set_vec_tile_shapes(*([8] * (x.dim - 1) + [4]))
    return x.sum(-1, keepdim=True)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    out[:] = row_sum(a)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
