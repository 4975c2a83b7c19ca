# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': an unannotated helper parameter is the kernel's tensor
# expect: pypto-reduce-align 9
# compiler blames: 16
import pypto
import torch


def softmax_core(x):
    m = x.amax(-1, keepdim=True)
    return pypto.exp(x - m)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = softmax_core(a)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 64))
