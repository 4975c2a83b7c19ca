# oracle: IndexError: map::at at the first call (a runtime option 0.2.0 does not have)
# expect: pypto-jit-keyword 7
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM, "launch_sched_aicpu_num": 4})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * 2.0


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
