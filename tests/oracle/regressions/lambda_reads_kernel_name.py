# oracle: NameError "name 'a' is not defined" at trace time (a lambda body sees only builtins and its parameters)
# expect: pypto-kernel-scope 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = (lambda x: x * a)(a)
