# oracle: OK: the helper's LAYOUT.tile() sets (8, 16), which the kernel's sum after the helper call runs under
# expect: OK
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

LAYOUT = Layout(8, 16)


def scale(x):
    LAYOUT.tile()
    return x * 2.0


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    o1[:] = scale(x)
    out[:] = x.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 64), torch.ones(8, 1))
