# oracle: compiles (the call passes smooth=False: the branch that would multiply by a [16, 64] factor, a broadcast 0.2.0 rejects, is never traced; the sum reduces under vec tile (16, 8): 8 x 4 bytes = 32 bytes)
# expect: OK
import pypto
import torch


def quant(x: pypto.Tensor, factor: pypto.Tensor, smooth: bool) -> pypto.Tensor:
    y = pypto.cast(x, pypto.DT_FP32)
    if smooth:
        y = pypto.mul(y, factor)
    return y.sum(-1, keepdim=True)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 128], pypto.DT_BF16), f: pypto.Tensor([16, 64], pypto.DT_FP32),
      out: pypto.Tensor([16, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 8)
    out[:] = quant(x, f, False)


def run() -> None:
    k(torch.randn(16, 128, dtype=torch.bfloat16), torch.randn(16, 64), torch.empty(16, 1))
