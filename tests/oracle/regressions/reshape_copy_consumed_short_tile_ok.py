# oracle: compiles and runs (differential case 961: the copy under a 2-byte tile entry is consumed by an op, not written whole into an output)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP16), out: pypto.Tensor([16, 2, 4], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(16, 2, 4)
    t = a.reshape([16, 2, 4])
    out[:] = t * 2.0
