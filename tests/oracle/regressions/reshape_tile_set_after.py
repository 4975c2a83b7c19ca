# oracle: OK -- a reshape takes its copy tile from the kernel: a vec tile set after it is enough (probe of 2026-11-30; DeepSeek-V4 hc_pre_impl.py reshapes with inplace=True before its first tile)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([3], pypto.DT_FP32), out: pypto.Tensor([3, 1], pypto.DT_FP32)):
    t = pypto.reshape(a, [3, 1])
    out[:] = t
    pypto.set_vec_tile_shapes(8, 8)
