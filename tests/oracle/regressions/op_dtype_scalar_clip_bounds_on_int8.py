# oracle: RuntimeError "Errcode: FC0001! The datatype is not supported, func Clip" (clip with Python bounds on INT8)
# expect: pypto-op-dtype 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(q: pypto.Tensor([16, 32], pypto.DT_INT8), out: pypto.Tensor([16, 32], pypto.DT_INT8)):
    pypto.set_vec_tile_shapes(16, 32)
    out[:] = pypto.clip(q, -8, 7)
