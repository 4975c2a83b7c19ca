# oracle: AssertionError: The number of slice in key (1) must match the length of input Tensor (2). at trace time, for a [1, 64] row written through out[i] into [8, 64] (probe of 2026-11-30; also out[2] = row and out[2, :] = row)
# expect: pypto-out-shape 11
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    for i in pypto.loop(8):
        row = a[i:i + 1, :] * 2.0
        out[i] = row
