# oracle: CHECK FAILED FwkOp tile shape's last dim is not aligned (the reshape the helper returns is the output)
# expect: pypto-reshape-align 10
import pypto
from pkg.ops import flat


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([64], pypto.DT_FP16), out: pypto.Tensor([64, 1], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(64, 1)
    t = flat(a)
    out[:] = t
