# oracle: compiles (a STATIC dim is the tensor's int: min() of it is fine; only DYNAMIC dims are symbols)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.STATIC, 64], pypto.DT_FP32), out: pypto.Tensor([pypto.STATIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    rows = min(x.shape[0], 8)
    out[:] = x * 2.0


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
