# oracle: Errcode: F21004! op [MULS]tile shape not set (issue 38, scripts/probe_no_tile.py: not a SIGSEGV like sum)
# expect: pypto-tile-missing 8
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    out[:] = pypto.var(a, -1, keepdim=True)
