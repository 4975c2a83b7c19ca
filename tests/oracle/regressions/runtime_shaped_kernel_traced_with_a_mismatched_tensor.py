# oracle: RuntimeError "K-dimension valid shape mismatch" at the matmul: with a [] parameter every tensor
# takes its shape from the call, so b's [64, 32] annotation is ignored and the kernel is traced with the
# [48, 32] tensor passed (rule: host-tensors-not-checked); the checker reports the call (pypto-call-shape)
# and the kernel traced with its tensors (probe of 2026-12-01)
# expect: pypto-matmul-k 14
# expect: pypto-call-shape 18
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def mm(a: pypto.Tensor([], pypto.DT_FP16), b: pypto.Tensor([64, 32], pypto.DT_FP16), c: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])
    c[:] = pypto.matmul(a, b, pypto.DT_FP32)


def run() -> None:
    mm(torch.randn(16, 64).half(), torch.randn(48, 32).half(), torch.empty(16, 32))
