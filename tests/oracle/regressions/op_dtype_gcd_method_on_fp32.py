# oracle: RuntimeError "Errcode: FC0001! This datatype is not supported, func Gcd" (on DT_INT32 the op is built, and SIM mode then has no pipe for GCD: F92001)
# expect: pypto-op-dtype 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), b: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = a.gcd(b)
