# oracle: FC1001 (the pypto.loop body is traced at least once, so after it kv is the [2, 8, 128] reshape, not the [16, 128] it was before; its last-axis sum runs under vec tile (2, 8, 4): 4 x 4 bytes = 16 bytes)
# expect: pypto-reduce-align 14
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 128], pypto.DT_FP32), out: pypto.Tensor([2, 8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 128)
    kv = pypto.exp(x)
    for _ in pypto.loop(1, name="ONCE", idx_name="i"):
        kv = pypto.reshape(kv, [2, 8, 128], inplace=True)
    pypto.set_vec_tile_shapes(2, 8, 4)
    out[:] = pypto.sum(kv, -1, keepdim=True)


def run() -> None:
    k(torch.randn(16, 128), torch.empty(2, 8, 1))
