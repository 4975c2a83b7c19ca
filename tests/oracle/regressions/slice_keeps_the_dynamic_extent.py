# oracle: TypeError: Cannot convert symbols to int (the slice's extent on the dynamic axis is the
# symbol; the op on the result is not a second root cause)
# expect: pypto-not-concrete 13
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      o: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    n = x.shape[0]
    v = x[:, 0:32]
    o[:, 0:32] = v * 2.0


def run() -> None:
    k(torch.ones(16, 64), torch.ones(8, 64))
