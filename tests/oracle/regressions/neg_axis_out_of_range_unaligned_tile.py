# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align!' (not a SIGSEGV: with an unaligned last tile entry a negative out-of-range axis is checked as the last axis)
# expect: pypto-reduce-align 9
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = a.sum(-3, keepdim=True)
