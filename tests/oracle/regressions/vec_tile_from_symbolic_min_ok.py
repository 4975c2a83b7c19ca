# oracle: compiles (set_vec_tile_shapes makes a SymbolicScalar entry concrete: pypto.min of two ints)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 32], pypto.DT_FP32), out: pypto.Tensor([16, 32], pypto.DT_FP32)):
    a = 16
    b = 32
    pypto.set_vec_tile_shapes(pypto.min(a, b), b)
    out[:] = x * 2.0


def run() -> None:
    k(torch.ones(16, 32), torch.zeros(16, 32))
