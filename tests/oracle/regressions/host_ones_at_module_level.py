# oracle: RuntimeError "Errcode: F21003! , func Operation, file operation.cpp, line 140" when the module is imported (no function is being traced)
# expect: pypto-host-creation 7
import pypto
import torch

try:
    ONES = pypto.ones([8, 16], dtype=pypto.DT_FP32)
except ImportError:
    ONES = None


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    z = pypto.zeros([8, 16], dtype=pypto.DT_FP32)
    out[:] = a + z


def run() -> None:
    k(torch.ones(8, 16), torch.zeros(8, 16))
