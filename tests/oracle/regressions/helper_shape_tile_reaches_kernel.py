# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the helper sets (8, 4), built from its parameter's rank, and the kernel's sum after the call runs under it
# expect: pypto-reduce-align 17
import pypto
import torch


def setup(x):
    pypto.set_vec_tile_shapes(*([8] * (x.dim - 1) + [4]))
    return x * 2.0


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    o1[:] = setup(a)
    out[:] = a.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 64), torch.ones(8, 1))
