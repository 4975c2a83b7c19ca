# oracle: silent: 0.2.0 runs the call (kernel compiled for [8, 32] over a [8, 64] buffer); runtime_debug_mode=3 raises "ValueError: The shape of 2nd input tensor" (probe of 2026-12-01)
# oracle: silent
# expect: pypto-call-shape 16
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 32], pypto.DT_FP32), out: pypto.Tensor([8, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = x * 2.0


def run() -> None:
    x = torch.randn(8, 32)
    k(x, torch.empty(8, 64))
