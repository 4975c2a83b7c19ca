# oracle: NameError "name 'a' is not defined" at trace time (the frontend evals kernel code with empty globals; Python < 3.12)
# expect: pypto-kernel-scope 10
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    # a comprehension's first iterable is evaluated outside it; its element is not
    parts = [a * float(i) for i in range(2)]
    out[:] = parts[0] + parts[1]
