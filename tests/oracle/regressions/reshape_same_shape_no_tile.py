# oracle: OK -- a reshape to the shape the tensor already has copies nothing, so it needs no vec tile (differential case 55)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([2], pypto.DT_INT8), out: pypto.Tensor([2], pypto.DT_INT8)):
    t = pypto.reshape(a, [2])
    out[:] = t
