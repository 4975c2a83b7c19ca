# oracle: OK for a [64] row written through out[i] into [8, 64]: the frontend reshapes it to [1, 64] and assembles (probe of 2026-11-30)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    for i in pypto.loop(8):
        row = pypto.reshape(a[i:i + 1, :] * 2.0, [64])
        out[i] = row
