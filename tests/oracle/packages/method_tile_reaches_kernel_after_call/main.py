# oracle: compiles (LAYOUT.tile() sets the vec tile the kernel's ops after the call run under)
# expect: OK
import pypto
from pkg.layers import LAYOUT


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    LAYOUT.tile()
    out[:] = x.sum(-1, keepdim=True)
