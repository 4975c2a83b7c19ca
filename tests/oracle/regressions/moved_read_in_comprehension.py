# oracle: ValueError 'Empty tensor.' when the comprehension's iterable reads t after out1[:] = t moved it
# expect: pypto-use-after-move 12
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out1: pypto.Tensor([8, 16], pypto.DT_FP32),
      out2: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    t = a * 2.0
    out1[:] = t
    parts = [x * 2.0 for x in (a, t)]
    out2[:] = parts[0] + parts[1]
