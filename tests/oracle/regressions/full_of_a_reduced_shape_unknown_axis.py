# oracle: FC1001 Reduce op: the tileShape of last axis need to 32Byte align (the reduction over an axis the checker cannot read keeps the rank; full(m.shape) takes its dims)
# expect: pypto-reduce-align 10
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32), d: int = 0):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = pypto.sum(quant(a, d), -1, keepdim=True)


def quant(x, dim):
    m = pypto.amax(x, dim, keepdim=True)
    scale = pypto.div(pypto.full(m.shape, 127.0, pypto.DT_FP32), m)
    return pypto.mul(x, scale)


def run() -> None:
    k(torch.randn(8, 64), torch.zeros(8, 1))
