# oracle: FC1001 (a method of a module-level object runs in the kernel's trace, under its (16, 4) tile)
# expect: pypto-reduce-align 11
# compiler blames: 11
import pypto
from pkg.layers import LAYOUT


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 512], pypto.DT_FP32), out: pypto.Tensor([16, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 4)
    out[:] = LAYOUT.rows(x)
