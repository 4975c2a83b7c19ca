# oracle: RuntimeError: Errcode: FC3000! operand1 dim[0] = -1, must be > 0 (CheckOperandShape, at trace time)
# expect: pypto-dynamic-dim 11
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32), w: pypto.Tensor([64, 64], pypto.DT_FP32),
      out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_cube_tile_shapes([16, 16], [64, 64], [64, 64])
    m = pypto.matmul(x, w, pypto.DT_FP32)
    out[:] = m


def run() -> None:
    k(torch.ones(16, 64), torch.ones(64, 64), torch.ones(16, 64))
