# oracle: F21004 'op [CAST]tile shape not set': no vec tile is set before the helper's softmax (FP16 is cast to FP32 first)
# expect: pypto-tile-missing 9
# compiler blames: 14
import pypto
import torch


def probs(x: pypto.Tensor) -> pypto.Tensor:
    return pypto.softmax(x, -1)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP16), out: pypto.Tensor([8, 64], pypto.DT_FP16)):
    out[:] = probs(a)


def run() -> None:
    k(torch.ones(8, 64, dtype=torch.float16), torch.ones(8, 64, dtype=torch.float16))
