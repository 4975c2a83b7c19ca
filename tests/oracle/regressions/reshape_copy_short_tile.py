# oracle: CHECK FAILED "FwkOp tile shape's last dim is not aligned. Last dim bytes: 16" (the tile in force at the reshape; a later tile does not help)
# expect: pypto-reshape-align 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([16, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    r = a.reshape([16, 8])
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = r
