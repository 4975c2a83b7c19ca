# oracle: TypeError: 'SymbolicScalar' object cannot be interpreted as an integer (range() of the symbol)
# expect: pypto-not-concrete 11
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32), out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    rows, cols = x.shape
    for i in range(rows // 8):
        xs = pypto.view(x, [8, 64], [i * 8, 0])
        pypto.assemble(xs * 2.0, [i * 8, 0], out)


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
