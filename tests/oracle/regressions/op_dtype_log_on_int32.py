# oracle: RuntimeError "Errcode: FC0001! The datatype is not supported, func Log" (pypto.log takes FP32, FP16, BF16 only), before any tile is looked at
# expect: pypto-op-dtype 8
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_INT32), out: pypto.Tensor([8, 64], pypto.DT_INT32)):
    out[:] = pypto.log(a)
