# oracle: compiles, and each output is written (the graph ends in COPY_OUT): out[:] = ..., out.move(...), and an input rebound and then read
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32),
      o2: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = a * 1.0
    out[:] = out + a
    a = a * 2.0
    for i in range(2):
        a = a + 1.0
    o2.move(a)


def run() -> None:
    k(torch.ones(8, 16), torch.zeros(8, 16), torch.zeros(8, 16))
