# oracle: RuntimeError "Errcode: FC0001! The datatype is not supported, func Minimum" (the scalar form; minimum of two INT8 tensors compiles)
# expect: pypto-op-dtype 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([32], pypto.DT_INT8), out: pypto.Tensor([32], pypto.DT_INT8)):
    pypto.set_vec_tile_shapes(32)
    out[:] = pypto.minimum(a, 1)
