# oracle: RuntimeError "Errcode: FC0001! CeilDiv only supports same data type for self and other! And it should be in DT_INT32." (the scalar form)
# expect: pypto-op-dtype 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = pypto.ceil_div(a, 2)
