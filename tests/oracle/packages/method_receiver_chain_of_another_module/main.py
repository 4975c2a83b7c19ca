# oracle: compiles (CFG.layout.tile() and get_layout().tile(), methods of another module reached through an attribute chain and a call, set (8, 16): the sums after them run under it, not under the (8, 4) before)
# expect: OK
import pypto
from pkg.layers import CFG, get_layout


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 1], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    CFG.layout.tile()
    o1[:] = x.sum(-1, keepdim=True)
    pypto.set_vec_tile_shapes(8, 4)
    get_layout().tile()
    out[:] = x.sum(-1, keepdim=True)
