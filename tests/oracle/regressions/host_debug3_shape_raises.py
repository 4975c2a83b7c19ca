# oracle: runtime_debug_mode=3 on the decorator: 0.2.0 raises "ValueError: The shape of 2nd input tensor torch.Size([8, 64]) does not match the shape of input tensor definition [8, 32]." at the call (probe for issue 38)
# expect: pypto-call-shape 17
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM},
                    debug_options={"runtime_debug_mode": 3})
def k(x: pypto.Tensor([8, 32], pypto.DT_FP32), out: pypto.Tensor([8, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = x * 2.0


def run() -> None:
    x = torch.randn(8, 32)
    out = torch.empty(8, 64)
    k(x, out)
