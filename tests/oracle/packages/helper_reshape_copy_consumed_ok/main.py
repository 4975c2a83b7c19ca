# oracle: compiles (the reshape the helper returns is consumed by the kernel's multiplication)
# expect: OK
import pypto
from pkg.ops import flat


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([64], pypto.DT_FP16), out: pypto.Tensor([64, 1], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(64, 1)
    out[:] = flat(a) * 2.0
