# oracle: compiles with no vec tile (issue 38, scripts/probe_no_tile.py): unary + and a cast to the dtype the tensor has build no op
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    t = +a
    out[:] = pypto.cast(t, pypto.DT_FP32)
