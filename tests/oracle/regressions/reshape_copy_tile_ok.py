# oracle: compiles and runs (32-byte tile at the copy, a short tile only after it; a tile with
# fewer entries than the output's dims; a reshape to the tensor's own dims does not copy)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([2, 4, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 8)
    r = a.reshape([16, 8])
    pypto.set_vec_tile_shapes(8, 4)
    same = r.reshape([16, 8])
    out[:] = same.reshape([2, 4, 16])
