# oracle: ValueError: Not concrete value (set_vec_tile_shapes asks a symbolic dim for its value at trace time)
# expect: pypto-not-concrete 10
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32), out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)):
    n = a.shape[0]
    pypto.set_vec_tile_shapes(n, 16)
    for i in pypto.loop(a.shape[0] // 8):
        v = pypto.view(a, [8, 16], [i * 8, 0])
        pypto.assemble(v * 2.0, [i * 8, 0], out)


def run() -> None:
    k(torch.ones(16, 16), torch.ones(16, 16))
