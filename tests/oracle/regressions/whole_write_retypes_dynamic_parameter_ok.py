# oracle: compiles (a whole write gives the DYN parameter the view's static [129, 128]: `a * 2.0`
# is no op on a dynamic dim any more; the pattern of PyPTO's own compile-pipeline test)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([pypto.DYN, 128]), out: pypto.Tensor([pypto.DYN, 128])):
    pypto.set_vec_tile_shapes(64, 128)
    a[:] = pypto.view(a, [129, 128], [0, 0])
    rows = min(a.shape[0], 129)
    pypto.assemble(a * 2.0, [0, 0], out)


def run() -> None:
    k(torch.ones(129, 128), torch.ones(129, 128))
