# oracle: nondeterministic: this exact kernel compiled (seed-7 run 3), failed with F3FFFF ConnectWithOverlap (run 2) and timed out (run 1); reciprocal under short tiles never gave "Run pass failed" in 30 probes, so the checker stays silent (differential case 302)
# expect: OK
import pypto

TILE = (1, 16)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor[[2, 1, 16], pypto.DT_FP32], out: pypto.Tensor[[2, 1, 16], pypto.DT_FP32]):
    pypto.set_vec_tile_shapes(*TILE)
    out[:] = pypto.reciprocal(a)
