# oracle: Shape size not match (the list bound to `shape` is the shape, as if written inline)
# expect: pypto-reshape 10
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([16, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 64)
    shape = [16, 64]
    out[:] = x.reshape(shape)
