# oracle: F21004 'op [ADDS]tile shape not set' at the scalar-on-the-left addition (differential case 452)
# expect: pypto-tile-missing 8
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16, 16], pypto.DT_INT8), out: pypto.Tensor([8, 16, 16], pypto.DT_INT8)):
    t = 2.0 + a
    out[:] = t
