# oracle: F21004 (no vec tile is ever set: the op of the second helper fails; the first one sets no tile)
# expect: pypto-tile-missing 11
import pypto
from pkg.blocks import project, scale


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([32, 64], pypto.DT_FP16), b: pypto.Tensor([16, 64], pypto.DT_FP16), out: pypto.Tensor([32, 16], pypto.DT_FP32)):
    pypto.set_cube_tile_shapes([32, 32], [32, 32], [32, 32])
    t = project(a, b)
    out[:] = scale(t)
