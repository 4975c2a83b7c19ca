# oracle: compiles (the working pattern on a dynamic dim: loop over it, work on static views)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
      out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    for i in pypto.loop(x.shape[0] // 8):
        xs = pypto.view(x, [8, 64], [i * 8, 0])
        pypto.assemble(xs * 2.0, [i * 8, 0], out)


def run() -> None:
    k(torch.ones(16, 64), torch.ones(16, 64))
