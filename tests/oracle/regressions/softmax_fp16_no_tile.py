# oracle: F21004 'op [CAST]tile shape not set' (the FP16 input is cast to FP32 before the softmax; not the SIGSEGV of an FP32 reduction)
# expect: pypto-tile-missing 8
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP16), out: pypto.Tensor([8, 16], pypto.DT_FP16)):
    out[:] = pypto.softmax(a, -1)
