# oracle: compiles and runs (the same comparisons with a float)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = pypto.where(pypto.gt(a, 0.0), a, a * 2.0)
