# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the kernel reduces the [8, 64] FP32 tensor the helper returns under (8, 4)
# expect: pypto-reduce-align 16
import pypto
import torch


def scale(x: pypto.Tensor) -> pypto.Tensor:
    return x * 2.0


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    t = scale(a)
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = t.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
