# oracle: compiles and runs (each nested scope reads only its own names and builtins; the first iterable and lambda defaults are evaluated outside)
# expect: OK
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    parts = [x * 2.0 for x in (a, a)]
    d = {i: x * float(i) for i, x in enumerate(parts)}
    scale = (lambda x, s=d[1]: x + s)(a)
    out[:] = sum((x for x in (parts[0], scale)), d[0])
