# oracle: compiles (on a DYNAMIC dim: cast, comparisons, where, views in a loop, an if statement on
# the dim, its .min() method, sum() of a list)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      o16: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP16),
      ow: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    o16[:] = pypto.cast(x, pypto.DT_FP16)
    ow[:] = pypto.where(x > 0.0, x, 0.0)
    rows = x.shape[0].min(64)
    total = sum([x.shape[0], 8])
    if x.shape[0] > 4:
        pass
    for i in pypto.loop(x.shape[0] // 8):
        xs = pypto.view(x, [8, 64], [i * 8, 0])
        pypto.assemble(xs * 2.0, [i * 8, 0], out)


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64, dtype=torch.float16), torch.ones(16, 64), torch.ones(16, 64))
