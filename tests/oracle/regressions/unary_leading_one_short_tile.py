# oracle: Run pass failed. (plog: Tile shape size 2 is not matched the output shape size 3): a leading dim of 1 does not excuse a short tile for a unary op (probe of 2026-11-30, twice; exp, sqrt, abs, neg, cast and a * 2.0 alike)
# expect: pypto-tile-rank 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([1, 4, 16], pypto.DT_FP32), out: pypto.Tensor([1, 4, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 16)
    out[:] = pypto.exp(a)
