# oracle: FC1001 (the method's rank argument is a.dim = 1: its vec tile is (12,), 48 bytes of INT32)
# expect: pypto-reduce-align 11
# compiler blames: 11
import pypto
from pkg.layout import LAYOUT


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([16], pypto.DT_INT32), out: pypto.Tensor([16], pypto.DT_INT32)):
    pypto.set_vec_tile_shapes(16)
    out[:] = LAYOUT.forward(a, a.dim)
