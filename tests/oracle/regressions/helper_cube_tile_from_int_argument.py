# oracle: FC4001 'kL0(341) and nL0(96) must be aligned to 16 elements': the helper's cube tile is computed from the int its kernel passes (32768 // 96), as in a public model's backward kernel
# expect: pypto-cube-tile 10
# compiler blames: 16
import pypto
import torch


def grad_alpha(a, b, l_max):
    pypto.set_cube_tile_shapes([1, 1], [32768 // l_max, 32768 // l_max], [l_max, l_max])
    return pypto.matmul(a, b, pypto.DT_FP32, b_trans=True)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([2, 1, 512], pypto.DT_FP32), b: pypto.Tensor([2, 96, 512], pypto.DT_FP32),
      out: pypto.Tensor([2, 1, 96], pypto.DT_FP32)):
    out[:] = grad_alpha(a, b, 96)


def run() -> None:
    k(torch.ones(2, 1, 512), torch.ones(2, 96, 512), torch.ones(2, 1, 96))
