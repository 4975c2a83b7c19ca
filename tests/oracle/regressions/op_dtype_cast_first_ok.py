# oracle: compiles and runs (log on FP16 and on an INT32 tensor cast to FP32; ceil_div on INT32, and on FP32 tensors cast to INT32)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_INT32), h: pypto.Tensor([8, 64], pypto.DT_FP16), f: pypto.Tensor([8, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 64], pypto.DT_FP32), out_h: pypto.Tensor([8, 64], pypto.DT_FP16), out_i: pypto.Tensor([8, 64], pypto.DT_INT32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = pypto.log(pypto.cast(a, pypto.DT_FP32))
    out_h[:] = pypto.log(h)
    out_i[:] = pypto.ceil_div(pypto.cast(f, pypto.DT_INT32), pypto.cast(f, pypto.DT_INT32)) + pypto.ceil_div(a, a)
