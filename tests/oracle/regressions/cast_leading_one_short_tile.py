# oracle: Run pass failed. (plog: Tile shape size 1 is not matched the output shape size 2) for a cast of a [1, 16] tensor under a 1-entry tile (probe of 2026-11-30, twice)
# expect: pypto-tile-rank 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([1, 16], pypto.DT_FP32), out: pypto.Tensor([1, 16], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(16)
    out[:] = pypto.cast(a, pypto.DT_FP16)
