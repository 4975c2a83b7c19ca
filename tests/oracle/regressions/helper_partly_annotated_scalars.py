# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': a helper with untyped scalar parameters is checked with the call's values
# expect: pypto-reduce-align 9
# compiler blames: 18
import pypto
import torch


def layernorm_core(x: pypto.Tensor, gamma: pypto.Tensor, eps, hidden):
    mean = x.sum(-1, keepdim=True) / hidden
    centered = x - mean
    return centered * gamma + eps


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), g: pypto.Tensor([1, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = layernorm_core(a, g, 1e-6, 64)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(1, 64), torch.ones(8, 64))
