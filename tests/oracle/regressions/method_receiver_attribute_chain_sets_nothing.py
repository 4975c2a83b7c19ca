# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': CFG.layout.describe() sets no tile, the sum runs under (8, 4)
# expect: pypto-reduce-align 31
import torch
import pypto


class Layout:
    def __init__(self, rows, width):
        self.rows = rows
        self.width = width

    def tile(self):
        pypto.set_vec_tile_shapes(self.rows, self.width)

    def describe(self):
        return (self.rows, self.width)


class Config:
    def __init__(self, layout: Layout):
        self.layout = layout


CFG = Config(Layout(8, 16))


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    CFG.layout.describe()
    out[:] = x.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
