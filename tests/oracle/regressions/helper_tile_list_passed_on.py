# oracle: FC1001 'Reduce op: the tileShape of last axis need to 32Byte align': the outer helper passes its list parameter on to the helper that sets it
# expect: pypto-reduce-align 10
# compiler blames: 19
import pypto
import torch


def row_sum(x, tile_shape):
    pypto.set_vec_tile_shapes(*tile_shape)
    return x.sum(-1, keepdim=True)


def block(x, tile_shape):
    return row_sum(x, tile_shape)


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    out[:] = block(a, [8, 4])


def run() -> None:
    k(torch.ones(8, 64), torch.ones(8, 1))
