# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the kernel's tile reaches a helper two calls down
# expect: pypto-reduce-align 9
# compiler blames: 19
import pypto
import torch


def inner(x):
    return x.sum(-1, keepdim=True)


def outer(x, scale):
    return inner(x * scale)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP16), out: pypto.Tensor([8, 1], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = outer(a, 2.0)


def run() -> None:
    k(torch.ones(8, 64, dtype=torch.float16), torch.ones(8, 1, dtype=torch.float16))
