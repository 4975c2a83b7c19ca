# oracle: ParserError "While is not supported by the PTO parser yet. Please check the documentation for supported Python features." (at the while line)
# expect: pypto-kernel-while 11
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    i = 0
    while i < 1:
        i += 1
    out[:] = a + 1.0


def run() -> None:
    k(torch.ones(8, 16), torch.zeros(8, 16))
