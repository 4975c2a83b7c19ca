# oracle: compiles (issue 38 probe): out[...] = t is an assemble, not a move; t is still readable (a move, out[:] = t, would empty it: ValueError: Empty tensor.)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 64], pypto.DT_FP32), o2: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    t = a * 2.0
    o1[...] = t
    s = t.sum(-1, keepdim=True)
    o2[:] = s
