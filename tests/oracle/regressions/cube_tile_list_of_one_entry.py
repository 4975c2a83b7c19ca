# oracle: ValueError "m must have exactly 2 elements, got 1" at the set_cube_tile_shapes line (k: "k must have 2 or 3 elements, got 1")
# expect: pypto-cube-tile-entries 11
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([16, 32], pypto.DT_FP16), b: pypto.Tensor([32, 16], pypto.DT_FP16),
      out: pypto.Tensor([16, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 16)
    pypto.set_cube_tile_shapes([16], [32], [16])
    out[:] = pypto.matmul(a, b, pypto.DT_FP32)


def run() -> None:
    k(torch.ones(16, 32, dtype=torch.float16), torch.ones(32, 16, dtype=torch.float16), torch.zeros(16, 16))
