# oracle: RuntimeError K-dimension valid shape mismatch (the helper's ones vector has 32 rows)
# expect: pypto-matmul-k 11
import pypto
from pkg.layers import rms_norm


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    pypto.set_cube_tile_shapes([16, 16], [64, 64], [16, 16])
    out[:] = rms_norm(x, 32)
