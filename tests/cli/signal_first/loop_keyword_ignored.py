# hidden: a keyword pypto.loop does not know (a newer PyPTO's parallel=True): 0.2.0 ignores it and runs the loop
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([4, 16, 32], pypto.DT_FP32), out: pypto.Tensor([4, 16, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(1, 16, 32)
    for b in pypto.loop(4, name="LOOP_B", idx_name="b_idx", parallel=True):
        t = pypto.view(x, [1, 16, 32], [b, 0, 0])
        pypto.assemble(t * 2.0, [b, 0, 0], out)


def run() -> None:
    k(torch.ones(4, 16, 32), torch.zeros(4, 16, 32))
