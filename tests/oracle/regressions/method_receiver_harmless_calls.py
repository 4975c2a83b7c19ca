# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': list, str and tensor methods and LAYOUT.describe() set no tile; the helper's (8, 4) is in force at the kernel's sum
# expect: pypto-reduce-align 36
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
    pypto.set_vec_tile_shapes(8, 4)
    y = x.exp()
    return y.view([8, 64], [0, 0])


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    parts = []
    parts.append(x)
    name = "-".join(["a", "b"])
    LAYOUT.describe()
    o1[:] = scale(parts[0])
    out[:] = x.sum(-1, keepdim=True)


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 64), torch.ones(8, 1))
