# oracle: FC1001 (the helper's amax, reached through a name the package re-exports, runs under the kernel's (16, 8) tile)
# expect: pypto-reduce-align 12
# compiler blames: 12
# checker: known gap (pkg/__init__.py imports no pypto: it is not read, so blocks.py's 'from pkg import core' is unknown)
import pypto
from pkg.blocks import block


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 64], pypto.DT_BF16), out: pypto.Tensor([16, 1], pypto.DT_BF16)):
    pypto.set_vec_tile_shapes(16, 8)
    out[:] = block(x)
