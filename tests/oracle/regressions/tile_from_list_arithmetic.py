# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the tile [1] * (rank - 1) + [4] is (1, 4)
# expect: pypto-reduce-align 11
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    rank = len(a.shape)
    pypto.set_vec_tile_shapes(*([1] * (rank - 1) + [4]))
    out[:] = a.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
