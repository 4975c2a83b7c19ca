# oracle: AttributeError: 'Tensor' object has no attribute 'clamp' (differential case 125)
# expect: pypto-no-method 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([4, 4, 2], pypto.DT_FP32), out: pypto.Tensor([4, 4, 2], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(1, 4, 4, 2)
    t = a.clamp(0.0, 1.0)
    out[:] = t
