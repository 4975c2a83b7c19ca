# oracle: F21004 'op [REGISTER_COPY]tile shape not set' (EndFunction, no line marker): reshape and view need a vec tile
# expect: pypto-tile-missing 8
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([32], pypto.DT_FP16), out: pypto.Tensor([1, 32], pypto.DT_FP16)):
    out[:] = pypto.reshape(a, [1, 32])
