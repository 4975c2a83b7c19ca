# oracle: runtime_debug_mode=3 on the decorator: 0.2.0 raises "ValueError: The dtype of 1st input tensor torch.float16 does not match the dtype of input tensor definition DT_FP32." at the call (probe for issue 38)
# expect: pypto-call-dtype 16
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM},
                    debug_options={"runtime_debug_mode": 3})
def k(x: pypto.Tensor([8, 32], pypto.DT_FP32), out: pypto.Tensor([8, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = x * 2.0


def run() -> None:
    x = torch.randn(8, 32).half()
    k(x, torch.empty(8, 32))
