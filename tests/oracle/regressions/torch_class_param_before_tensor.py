# oracle: ValueError: Non-tensor parameters must come after all tensor parameters. Found tensor parameter 'z' after non-tensor parameter(s). (torch.Tensor has no to_tensor: a non-tensor annotation; torch is not analysed by mypy here)
# expect: pypto-kernel-signature 8
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(y: torch.Tensor, z: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    z[:] = z * 2.0


def run() -> None:
    k(torch.ones(8, 16), torch.zeros(8, 16))
