"""Real PyPTO 0.2.0 kernels (SIM mode) for the boundary guard tests; imported only by driver.py."""

import pypto

SIM = {"run_mode": pypto.RunMode.SIM}
N = pypto.frontend.dynamic("N")


@pypto.frontend.jit(runtime_options=SIM)
def static_scale(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([16, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 64)
    out[:] = x * 2.0


@pypto.frontend.jit(runtime_options=SIM)
def static_no_dtype(x: pypto.Tensor([16, 64]), out: pypto.Tensor([16, 64])):
    pypto.set_vec_tile_shapes(16, 64)
    out[:] = x * 2.0


@pypto.frontend.jit(runtime_options=SIM)
def scaled(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([16, 64], pypto.DT_FP32), scale=2.0):
    pypto.set_vec_tile_shapes(16, 64)
    out[:] = x * scale


@pypto.frontend.jit(runtime_options=SIM)
def any_shape(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = x * 2.0


@pypto.frontend.jit(runtime_options=SIM)
def dyn_rows(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32), out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    for i in pypto.loop(x.shape[0] // 8):
        out[i * 8:(i + 1) * 8, :] = x[i * 8:(i + 1) * 8, :] * 2.0


@pypto.frontend.jit(runtime_options=SIM)
def shared_rows(a: pypto.Tensor([N, 64], pypto.DT_FP32), b: pypto.Tensor([N, 64], pypto.DT_FP32),
                out: pypto.Tensor([N, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    for i in pypto.loop(a.shape[0] // 8):
        out[i * 8:(i + 1) * 8, :] = a[i * 8:(i + 1) * 8, :] + b[i * 8:(i + 1) * 8, :]
