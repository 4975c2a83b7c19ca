# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the kernel's tile (8, 4) is in force inside the helper
# expect: pypto-reduce-align 9
# compiler blames: 15
import pypto
import torch


def row_sum(x: pypto.Tensor) -> pypto.Tensor:
    return x.sum(-1, keepdim=True)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = row_sum(a)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
