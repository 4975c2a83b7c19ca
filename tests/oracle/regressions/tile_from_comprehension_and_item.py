# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': [8 for _ in range(rank)] then t[-1] = 12 is (8, 12)
# expect: pypto-reduce-align 12
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    tile_shapes = [8 for _ in range(a.dim)]
    tile_shapes[-1] = 12
    pypto.set_vec_tile_shapes(*tile_shapes)
    out[:] = a.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
