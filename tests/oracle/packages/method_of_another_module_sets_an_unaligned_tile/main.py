# oracle: FC1001 (LAYOUT.forward sets (8, 12) in another module; the kernel's reduction after the call runs under it; package differential seed 1)
# expect: pypto-reduce-align 10
import pypto
from pkg.layers import LAYOUT


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_INT32), out: pypto.Tensor([8, 1], pypto.DT_INT32)):
    t = LAYOUT.forward(x)
    out[:] = pypto.amin(t, -1, keepdim=True)
