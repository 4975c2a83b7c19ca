# oracle: compiles and runs (the comprehension's own t is not the moved one)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out1: pypto.Tensor([8, 16], pypto.DT_FP32),
      out2: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    t = a * 2.0
    out1[:] = t
    parts = [t * 3.0 for t in (a, a)]
    out2[:] = parts[0] + parts[1]
