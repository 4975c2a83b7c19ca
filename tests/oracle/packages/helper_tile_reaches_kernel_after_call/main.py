# oracle: FC1001 (the helper's (8, 4) tile is in force at the kernel's reduction after the call)
# expect: pypto-reduce-align 10
import pypto
from pkg.setup import scaled


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    o1[:] = scaled(x)
    out[:] = x.sum(-1, keepdim=True)
