# oracle: F21004 'op [MUL]tile shape not set' (the one-axis expansion check comes after the tile check; a plain shape mismatch [8,16]*[4,16] reports FC0000 first)
# expect: pypto-tile-missing 8
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([2, 4, 16], pypto.DT_FP32), b: pypto.Tensor([16], pypto.DT_FP32), out: pypto.Tensor([2, 4, 16], pypto.DT_FP32)):
    out[:] = a * b
