# oracle: RuntimeError "Errcode: FC0001! The datatype is not supported, func Maximum" (the scalar form; a + 1 before it compiles on INT8)
# expect: pypto-op-dtype 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 32], pypto.DT_INT8), out: pypto.Tensor([8, 32], pypto.DT_INT8)):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = pypto.maximum(a + 1, 0)
