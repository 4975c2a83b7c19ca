# oracle: FC1001 (the imported helper's amax runs in the kernel's trace, under its (16, 8) tile)
# expect: pypto-reduce-align 11
# compiler blames: 11
import pypto
from pkg.common import softmax_rows


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 64], pypto.DT_BF16), out: pypto.Tensor([16, 64], pypto.DT_BF16)):
    pypto.set_vec_tile_shapes(16, 8)
    out[:] = softmax_rows(x)
