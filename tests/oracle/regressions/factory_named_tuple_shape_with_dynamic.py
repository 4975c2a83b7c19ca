# oracle: ValueError: Invalid value type when make() defines the kernel (the factory names a tuple shape holding pypto.DYNAMIC; hicann/pypto 0.2.0's chunk_gated_delta_rule_unaligned does this)
# expect: pypto-kernel-signature 14
import pypto
import torch

pypto.set_options(runtime_options={"run_mode": pypto.RunMode.SIM})


def make(n):
    t = pypto.DYNAMIC
    x_shape = (t, n)

    @pypto.frontend.jit()
    def k(x: pypto.Tensor(x_shape, pypto.DT_FP32), out: pypto.Tensor([t, n], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        for i in pypto.loop(x.shape[0] // 8):
            out[i * 8:(i + 1) * 8, :] = pypto.view(x, [8, n], [i * 8, 0]) * 2.0
    return k


def run() -> None:
    make(64)(torch.ones(16, 64), torch.zeros(16, 64))
