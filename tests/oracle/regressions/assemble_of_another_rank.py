# oracle: CHECK FAILED: dest.GetShape().size() == tensor.GetShape().size() Assemble: src and dest requires same shape (issue 38 probe; out[:] = a.sum(-1) into the same output compiles)
# expect: pypto-out-shape 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[0:8, 0:1] = a.sum(-1)
