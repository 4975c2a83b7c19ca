# oracle: FC1001 (the factory names the shape, rows_shape = [rows, 64], before the def: the annotation reads that list, so the reduction under the (8, 4) tile is checked)
# expect: pypto-reduce-align 15
import pypto
import torch

pypto.set_options(runtime_options={"run_mode": pypto.RunMode.SIM})


def make(rows):
    rows_shape = [rows, 64]

    @pypto.frontend.jit()
    def k(x: pypto.Tensor(rows_shape, pypto.DT_FP32), out: pypto.Tensor([rows, 1], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 4)
        out[:] = pypto.sum(x, -1, keepdim=True)
    return k


def run() -> None:
    make(8)(torch.ones(8, 64), torch.zeros(8, 1))
