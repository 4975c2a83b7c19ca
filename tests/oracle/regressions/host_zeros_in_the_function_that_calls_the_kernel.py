# oracle: RuntimeError "Errcode: F21003! , func Operation" in run(): a function that calls a jit kernel is host code, no function is being traced there
# expect: pypto-host-creation 16
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    z = pypto.zeros([8, 16], dtype=pypto.DT_FP32)
    out[:] = a + z


def run() -> None:
    x = torch.ones(8, 16)
    scale = pypto.zeros([8, 16], dtype=pypto.DT_FP32)
    k(x, torch.zeros(8, 16))
