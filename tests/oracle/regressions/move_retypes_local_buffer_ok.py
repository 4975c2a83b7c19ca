# oracle: compiles and runs (buf[:] = a hands a's [8, 64] storage to the [8, 16] buffer: buf is [8, 64] after it)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    buf = pypto.tensor([8, 16], pypto.DT_FP32)
    buf[:] = a * 2.0
    out[:] = buf + 1.0
