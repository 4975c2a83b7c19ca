# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align' for the sum inside the list comprehension
# expect: pypto-reduce-align 10
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), b: pypto.Tensor([8, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    sums = [x.sum(-1, keepdim=True) for x in (a, b)]
    out[:] = sums[0] + sums[1]
