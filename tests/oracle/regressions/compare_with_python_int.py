# oracle: TypeError "Compare(): incompatible function arguments" (a comparison binds tensor or float, never a Python int)
# expect: pypto-compare-int 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_INT32), out: pypto.Tensor([8, 16], pypto.DT_BOOL)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = 0 < a
