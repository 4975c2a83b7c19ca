# oracle: RuntimeError "function nested is not allowed" (any def in a jit kernel's body, even unused or decorated)
# expect: pypto-kernel-signature 10
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = a * 2.0
    def unused():
        pass
