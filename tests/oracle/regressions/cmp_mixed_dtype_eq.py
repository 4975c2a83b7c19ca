# oracle: OK (PyPTO 0.2.0 comparisons do not check operand dtypes)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_BF16), b: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_BOOL)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = a == b
