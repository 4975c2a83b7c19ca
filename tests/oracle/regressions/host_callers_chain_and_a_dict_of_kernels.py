# oracle: RuntimeError "Errcode: FC0000! shape not support binary operation" at the multiplication: the
# [] kernel is traced with the tensors that run() has built three helpers up ([8, 32] and [1, 64]), the
# kernel reached through a dict; the checker follows the callers (probe of 2026-12-04)
# expect: pypto-broadcast 13
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def scale(x: pypto.Tensor([], pypto.DT_FP32), w: pypto.Tensor([], pypto.DT_FP32),
          out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * w


KERNELS = {"scale": scale}


def wrapper(name, x, w):
    out = torch.empty(x.shape[0], x.shape[1])
    KERNELS[name](x, w, out)
    return out


def run_case(rows, cols):
    return wrapper("scale", torch.randn(rows, cols), torch.randn(1, 64))


def check(cols):
    run_case(8, cols)


def run() -> None:
    check(32)
