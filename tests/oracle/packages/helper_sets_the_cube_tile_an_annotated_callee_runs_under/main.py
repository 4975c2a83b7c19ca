# oracle: FC4001 kL0(32) and nL0(8) must be aligned to 16 elements (block sets the cube tile core's matmul runs under; package differential seed 1, case 166)
# expect: pypto-cube-tile 10
import pypto
from pkg.ops import block


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([16, 32], pypto.DT_FP32), b: pypto.Tensor([32, 16], pypto.DT_FP32), out: pypto.Tensor([16, 16], pypto.DT_FP32)):
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
    out[:] = block(a, b)
