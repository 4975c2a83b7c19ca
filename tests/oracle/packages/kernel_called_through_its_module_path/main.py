# oracle: FC1001 (the kernel takes its shapes from the call: [8, 64] FP32 under a (8, 4) tile)
# expect: pypto-reduce-align 10
# compiler blames: 7 in kern/norm.py
# checker: known gap (host code names a jit kernel as NAME or MODULE.NAME, not pkg.module.NAME)
import torch
import kern.norm


def run() -> None:
    kern.norm.norm(torch.randn(8, 64), torch.empty(8, 64))
