# oracle: compiles (Tensor.maximum is annotated `other: Tensor` in 0.2.0 but forwards to pypto.maximum,
# which takes a number too; found by the 1,000-kernel differential run, seed 0)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor[[16, 16], pypto.DT_INT32], out: pypto.Tensor[[16, 16], pypto.DT_INT32]):
    pypto.set_vec_tile_shapes(16, 16)
    out[:] = a.maximum(1)
