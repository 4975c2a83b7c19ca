# oracle: compiles (the kernel's (16, 16) tile is aligned for the helper's BF16 amax)
# expect: OK
import pypto
from pkg.common import softmax_rows


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 64], pypto.DT_BF16), out: pypto.Tensor([16, 64], pypto.DT_BF16)):
    pypto.set_vec_tile_shapes(16, 16)
    out[:] = softmax_rows(x)
