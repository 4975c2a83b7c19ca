# oracle: Run pass failed. (plog: Tile shape size 1 is not matched the output shape size 2): a leading dim of 1 does not excuse a short tile for a reduction (differential case 734)
# expect: pypto-tile-rank 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([1, 32]), out: pypto.Tensor([1, 32])):
    pypto.set_vec_tile_shapes(32)
    out[:] = a.var(0, keepdim=True)
