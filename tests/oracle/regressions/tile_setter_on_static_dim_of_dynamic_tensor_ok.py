# oracle: compiles and runs (a tile entry from the static dim of a tensor with a dynamic one)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32), out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, a.shape[1])
    for i in pypto.loop(a.shape[0] // 8):
        v = pypto.view(a, [8, 16], [i * 8, 0])
        pypto.assemble(v * 2.0, [i * 8, 0], out)


def run() -> None:
    k(torch.ones(16, 16), torch.ones(16, 16))
