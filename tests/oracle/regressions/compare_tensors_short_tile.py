# oracle: Run pass failed. (plog: Tile shape size 2 is not matched the output shape size 3) for a tensor-tensor comparison (differential case 582)
# expect: pypto-tile-rank 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8], pypto.DT_INT8), b: pypto.Tensor([1, 1, 8], pypto.DT_INT8), out: pypto.Tensor([1, 1, 8], pypto.DT_BOOL)):
    pypto.set_vec_tile_shapes(1, 8)
    t = pypto.lt(b, a)
    out[:] = t
