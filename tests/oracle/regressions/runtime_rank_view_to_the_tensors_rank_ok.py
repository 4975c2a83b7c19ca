# oracle: compiles, wrong result: the [DYNAMIC, STATIC] parameter is traced with the 3-D tensor the
# call passes (also with runtime_debug_mode=3), so the 3-D view compiles; the annotation does not
# describe the kernel 0.2.0 builds, which the checker reports once, at the call
# expect: pypto-call-rank 19
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([pypto.DYNAMIC, pypto.STATIC], pypto.DT_FP32),
      out: pypto.Tensor([8, 4, 2], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4, 2)
    v = pypto.view(x, [8, 4, 2], [0, 0, 0])
    out[:] = v * 2.0


def run() -> None:
    x = torch.ones(8, 4, 2)
    k(x, torch.zeros(8, 4, 2))
