# oracle: FC1001 (the helper's `if smooth:` branch is not traced: smooth is False by default, so y stays the [16, 128] FP32 cast (the [16, 64] factor, which does not broadcast, is never used) and its sum reduces under the caller's vec tile (16, 4): 4 x 4 bytes = 16 bytes)
# expect: pypto-reduce-align 11
import pypto
import torch


def quant(x: pypto.Tensor, factor: pypto.Tensor, sym: bool = True, smooth: bool = False) -> pypto.Tensor:
    y = pypto.cast(x, pypto.DT_FP32)
    if smooth:
        y = pypto.mul(y, factor)
    return y.sum(-1, keepdim=True)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 128], pypto.DT_BF16), f: pypto.Tensor([16, 64], pypto.DT_FP32),
      out: pypto.Tensor([16, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 4)
    out[:] = quant(x, f, True)


def run() -> None:
    k(torch.randn(16, 128, dtype=torch.bfloat16), torch.randn(16, 64), torch.empty(16, 1))
