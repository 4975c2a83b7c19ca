# oracle: TypeError "Compare(): incompatible function arguments": `0 == a` is int.__eq__ -> NotImplemented
# -> a.__eq__(0), a comparison with a Python int (mypy types the int's __eq__ as bool)
# expect: pypto-compare-int 10
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_BOOL)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = 0 == a
