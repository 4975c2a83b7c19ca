# oracle: FC1001 (b_trans comes from the caller: the product is [16, 64] whichever it is, since w is [64, 64]; its last-axis sum runs under vec tile (16, 4): 16 bytes)
# expect: pypto-reduce-align 13
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 64], pypto.DT_FP32), w: pypto.Tensor([64, 64], pypto.DT_FP32),
      out: pypto.Tensor([16, 1], pypto.DT_FP32), trans: bool):
    pypto.set_cube_tile_shapes([16, 16], [64, 64], [64, 64])
    y = pypto.matmul(x, w, pypto.DT_FP32, b_trans=trans)
    pypto.set_vec_tile_shapes(16, 4)
    out[:] = y.sum(-1, keepdim=True)


def run() -> None:
    k(torch.randn(16, 64), torch.randn(64, 64), torch.empty(16, 1), False)
