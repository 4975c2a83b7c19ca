# oracle: compiles, wrong result: the graph is COPY_IN, MULS, COPY_OUT: "out += a" is evaluated as "out = out + a", a rebinding, and its ADD is dropped
# expect: pypto-param-rebind 11
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = a * 1.0
    out += a


def run() -> None:
    k(torch.ones(8, 16), torch.zeros(8, 16))
