# oracle: compiles (the pypto.loop body is traced at least once, so after it kv is the [2, 8, 128] reshape; its last-axis sum runs under vec tile (2, 8, 8): 8 x 4 bytes = 32 bytes, and it writes [2, 8, 1] into out [2, 8, 1])
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([16, 128], pypto.DT_FP32), out: pypto.Tensor([2, 8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 128)
    kv = pypto.exp(x)
    for _ in pypto.loop(1, name="ONCE", idx_name="i"):
        kv = pypto.reshape(kv, [2, 8, 128], inplace=True)
    pypto.set_vec_tile_shapes(2, 8, 8)
    out[:] = pypto.sum(kv, -1, keepdim=True)


def run() -> None:
    k(torch.randn(16, 128), torch.empty(2, 8, 1))
