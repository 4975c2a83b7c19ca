# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the helper sets the tile from the list its caller passes
# expect: pypto-reduce-align 10
# compiler blames: 15
import pypto
import torch


def rms_core(x, tile_shape):
    pypto.set_vec_tile_shapes(*tile_shape)
    return x * x.sum(-1, keepdim=True)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    out[:] = rms_core(a, [8, 12])


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 64))
