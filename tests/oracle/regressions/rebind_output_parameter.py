# oracle: compiles, wrong result: the graph has no op at all (the assignment only rebinds the name "out" in the parser's context, the tensor passed in is never written)
# expect: pypto-param-rebind 10
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out = a + 1.0


def run() -> None:
    k(torch.ones(8, 16), torch.zeros(8, 16))
