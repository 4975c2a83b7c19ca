# oracle: compiles (valid_shape, offsets, a local pypto.tensor and an inplace=True reshape take the
# symbolic dim; other shape lists must be ints)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      o: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    n = x.shape[0]
    buf = pypto.tensor([n, 64], pypto.DT_FP32)
    flat = pypto.reshape(x, [n * 64], inplace=True)
    for i in pypto.loop(n // 8):
        t = pypto.view(x, [8, 64], [i * 8, 0], valid_shape=[(n - i * 8).min(8), 64])
        pypto.assemble(t * 2.0, [i * 8, 0], o)


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
