# oracle: F21004 "lhs.size():2, rhs.size():1, func Add, file tensor_offset.h, line 70" when it compiles (no line of the kernel)
# expect: pypto-view-rank 10
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    v = pypto.view(a, [8, 16], [0])
    out[:] = v + 1.0


def run() -> None:
    k(torch.ones(8, 16), torch.zeros(8, 16))
