# oracle: F21004 'op [CMP]tile shape not set' at the comparison (its shape check runs later, in EndFunction)
# expect: pypto-tile-missing 8
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), b: pypto.Tensor([16, 16], pypto.DT_FP32), out: pypto.Tensor([16, 16], pypto.DT_BOOL)):
    out[:] = a >= b
