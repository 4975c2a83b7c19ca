# oracle: ValueError: Not concrete value (builtin min() asks the pypto.loop index for its value at trace time)
# expect: pypto-not-concrete 15
import pypto
import torch

BATCH = 16


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([16, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    tile_b = 8
    for idx in pypto.loop(2):
        b_offset = idx * tile_b
        b_end = min((idx + 1) * tile_b, BATCH)
        v = pypto.view(x, [8, 64], [b_offset, 0], valid_shape=[b_end - b_offset, 64])
        pypto.assemble(v * 2.0, [b_offset, 0], out)


def run() -> None:
    k(torch.ones(16, 64), torch.zeros(16, 64))
