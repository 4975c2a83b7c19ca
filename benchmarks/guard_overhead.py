"""Time the boundary guard adds to one kernel call (needs pypto 0.2.0 and torch).

    python benchmarks/guard_overhead.py [--calls 20000] [--sim]

Prints microseconds per guarded call for a static kernel, a ``[]`` kernel and a kernel with a
shared ``dynamic("N")`` symbol (the only case that runs jaxtyping's binder), each with good
tensors (the path every passing test takes). ``--sim`` also times one real SIM-mode call with
the guard off, for scale (0.2.0 re-traces and recompiles on every call).
"""

# No `from __future__ import annotations`: 0.2.0 needs the annotation objects (pypto-kernel-signature).

import argparse
import time
from typing import Any

import pypto
import torch

from mypy_plugin.guard.check import findings_for_call

SIM = {"run_mode": pypto.RunMode.SIM}
N = pypto.frontend.dynamic("N")


@pypto.frontend.jit(runtime_options=SIM)
def static2(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([16, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 64)
    out[:] = x * 2.0


@pypto.frontend.jit(runtime_options=SIM)
def any2(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = x * 2.0


@pypto.frontend.jit(runtime_options=SIM)
def shared3(a: pypto.Tensor([N, 64], pypto.DT_FP32), b: pypto.Tensor([N, 64], pypto.DT_FP32),
            out: pypto.Tensor([N, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    for i in pypto.loop(a.shape[0] // 8):
        out[i * 8:(i + 1) * 8, :] = a[i * 8:(i + 1) * 8, :] + b[i * 8:(i + 1) * 8, :]


def per_call_us(kernel: Any, args: tuple[Any, ...], calls: int) -> float:
    assert findings_for_call(kernel, args, {}) == []  # also warms the per-kernel caches
    t0 = time.process_time()  # CPU time: the shared 2-core machines are often loaded
    for _ in range(calls):
        findings_for_call(kernel, args, {})
    return (time.process_time() - t0) / calls * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--sim", action="store_true")
    a = ap.parse_args()
    x = torch.ones(16, 64)
    rows = [
        ("static [16, 64] x2", per_call_us(static2, (x, torch.empty(16, 64)), a.calls)),
        ("[] x2", per_call_us(any2, (x, torch.empty(16, 64)), a.calls)),
        ("[N, 64] x3 (jaxtyping binds N)", per_call_us(shared3, (x, x, torch.empty(16, 64)), a.calls)),
    ]
    print("| kernel | guard, us of CPU per call |")
    print("|---|---|")
    for name, us in rows:
        print(f"| {name} | {us:.1f} |")
    if a.sim:
        t0 = time.perf_counter()
        static2(x, torch.empty(16, 64))
        print(f"one SIM-mode call of the static kernel, guard off: {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
