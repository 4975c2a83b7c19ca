# oracle: Shape size not match (reshape to another tensor's .shape of a different element count)
# expect: pypto-reshape 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), b: pypto.Tensor([8, 32], pypto.DT_FP32), out: pypto.Tensor([8, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    t = pypto.reshape(a, b.shape)
    out[:] = t
