# oracle: compiles (0.2.0 runtime options; runtime_option_launch_sched_aicpu_num has one it does not have)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM, "device_sched_mode": 1, "stitch_function_max_num": 4})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * 2.0


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))
