# oracle: compiles (offsets, valid_shape, a local pypto.tensor's shape and an inplace reshape's
# shape bound to a name before the call, with a SymbolicScalar in them: mypy types such a list
# list[object], the join of SymbolicScalar and int, which the stubs accept)
# expect: OK
import pypto
import torch

N = pypto.frontend.dynamic("N")


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([N, 64], pypto.DT_FP32), o: pypto.Tensor([N, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    n = x.shape[0]
    flat_shape = [N * 64]
    flat = pypto.reshape(x, flat_shape, inplace=True)
    buf_shape = [N, 64]
    buf = pypto.tensor(buf_shape, pypto.DT_FP32)
    for i in pypto.loop(n // 8):
        offsets = [i * 8, 0]
        valid = [(n - i * 8).min(8), 64]
        t = pypto.view(x, [8, 64], offsets, valid_shape=valid)
        pypto.assemble(t * 2.0, offsets, o)
        u = x.view([8, 64], offsets, valid_shape=valid)
        pypto.assemble([(u * 3.0, offsets)], o)


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
