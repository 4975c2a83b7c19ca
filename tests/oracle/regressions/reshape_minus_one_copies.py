# oracle: F21004 'op [REGISTER_COPY]tile shape not set': a reshape with -1 copies even to the same shape (differential cases 149, 487)
# expect: pypto-tile-missing 8
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([32], pypto.DT_FP32), out: pypto.Tensor([32], pypto.DT_FP32)):
    t = a.reshape([-1])
    out[:] = t
