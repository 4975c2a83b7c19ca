# oracle: F21004 (no vec tile before the imported helper's elementwise ops)
# expect: pypto-tile-missing 10
# compiler blames: 10
import pypto
import pkg.act as act


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    out[:] = act.silu(x)
