# oracle: compiles and runs (the scalar forms after the suggested cast: minimum and clip on INT8 cast to INT32, ceil_div on FP32 cast to INT32; minimum of two INT8 tensors; 2 - a and a // 2 on INT8)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([4, 32], pypto.DT_INT8), b: pypto.Tensor([4, 32], pypto.DT_INT8), f: pypto.Tensor([4, 32], pypto.DT_FP32),
      out_i: pypto.Tensor([4, 32], pypto.DT_INT32), out_b: pypto.Tensor([4, 32], pypto.DT_INT8)):
    pypto.set_vec_tile_shapes(4, 32)
    out_i[:] = pypto.minimum(pypto.cast(a, pypto.DT_INT32), 1) + pypto.clip(pypto.cast(a, pypto.DT_INT32), -8, 7)
    out_i[:] = pypto.ceil_div(pypto.cast(f, pypto.DT_INT32), 2)
    out_b[:] = pypto.minimum(a, b) + (2 - a) + a // 2
