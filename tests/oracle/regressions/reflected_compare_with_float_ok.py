# oracle: compiles (`2.0 == a` and `2.0 != a` run a.__eq__(2.0) / a.__ne__(2.0): BOOL tensors)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), o1: pypto.Tensor([8, 16], pypto.DT_BOOL),
      o2: pypto.Tensor([8, 16], pypto.DT_BOOL)):
    pypto.set_vec_tile_shapes(8, 16)
    o1[:] = 2.0 == a
    o2[:] = 2.0 != a
