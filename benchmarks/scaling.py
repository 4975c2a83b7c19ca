#!/usr/bin/env python3
"""Time vs N for the inputs that once made the plugin super-linear: each must scale linearly.

    python benchmarks/scaling.py                 # every case at N, 2N, 4N (its default N)
    python benchmarks/scaling.py --case plus_chain --base 2000

Cases (each a single module checked cold by ``mypy`` with the plugin, in a fresh cache):

* ``many_kernels``: one module with N ``@pypto.frontend.jit`` kernels;
* ``plus_chain``: ``y = t + t + ... + t`` (N terms) after ``t`` was moved into an output;
* ``recursive_helper``: a tile-setting helper called N times from a kernel that calls itself
  N times;
* ``rebound_names``: a kernel of N statements that bind two names again and again
  (``y = y + x``, ``z = y.sum(...)``, ``y = y - z``), with a method call every few lines (the tile
  pass asks for the type of each method call's receiver: it once walked every binding of the name
  at each ask, 30 s at N=1600).

Prints a markdown table: seconds for N, 2N, 4N, and the ratio t(4N) / t(N) (linear: ~4;
quadratic: ~16), mypy's start-up subtracted. Run it with the interpreter of a venv where pypto-stubs is installed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HEADER = "import pypto\n\n"


def many_kernels(n: int) -> str:
    parts = [HEADER]
    for i in range(n):
        parts.append(
            f"@pypto.frontend.jit\n"
            f"def k{i}(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):\n"
            f"    pypto.set_vec_tile_shapes(8, 64)\n"
            f"    out[:] = x.sum(-1, keepdim=True)\n\n"
        )
    return "".join(parts)


def plus_chain(n: int) -> str:
    chain = " + ".join(["t"] * n)
    return (
        HEADER
        + "@pypto.frontend.jit\n"
        + "def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 64], pypto.DT_FP32),\n"
        + "      o2: pypto.Tensor([8, 64], pypto.DT_FP32)):\n"
        + "    pypto.set_vec_tile_shapes(8, 64)\n"
        + "    t = x + x\n"
        + "    o1[:] = t\n"
        + f"    o2[:] = {chain}\n"
    )


def recursive_helper(n: int) -> str:
    helper_calls = "".join("    _tiles()\n    t = x + x\n" for _ in range(n))
    self_calls = "".join("    k(x, out)\n" for _ in range(n))
    return (
        HEADER
        + "def _tiles():\n    pypto.set_vec_tile_shapes(8, 64)\n\n\n"
        + "@pypto.frontend.jit\n"
        + "def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):\n"
        + "    pypto.set_vec_tile_shapes(8, 32)\n"  # the kernel sets tiles too: each self-call applies it
        + helper_calls
        + self_calls
        + "    out[:] = x.sum(-1, keepdim=True)\n"
    )


def rebound_names(n: int) -> str:
    ops = ("y = y + x", "y = pypto.exp(y)", "z = y.sum(-1, keepdim=True)", "y = y - z", "y = y * 0.5")
    body = "".join(f"    {ops[i % len(ops)]}\n" for i in range(n))
    return (
        HEADER
        + "@pypto.frontend.jit\n"
        + "def k(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([16, 64], pypto.DT_FP32)):\n"
        + "    pypto.set_vec_tile_shapes(16, 64)\n"
        + "    y = x\n"
        + body
        + "    out[:] = y\n"
    )


CASES: dict[str, tuple[Callable[[int], str], int]] = {
    "many_kernels": (many_kernels, 500),
    "plus_chain": (plus_chain, 1000),
    "recursive_helper": (recursive_helper, 20),
    "rebound_names": (rebound_names, 800),
}


def time_one(source: str, python: str) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "k.py").write_text(source)
        (root / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n")
        start = time.perf_counter()
        out = subprocess.run(
            [python, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", str(root / ".cache"), "k.py"],
            cwd=root, capture_output=True, text=True, check=False,
        )
        elapsed = time.perf_counter() - start
        if out.returncode not in (0, 1) or "INTERNAL ERROR" in out.stderr + out.stdout:
            raise SystemExit(f"mypy failed ({out.returncode}):\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
        return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", choices=sorted(CASES), action="append")
    ap.add_argument("--base", type=int, help="N (default: per case)")
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    # mypy's start-up and the stubs: subtracted, so the ratio is the plugin's and mypy's per-N work.
    startup = min(time_one(HEADER, args.python) for _ in range(2))
    print(f"mypy start-up (subtracted): {startup:.2f} s\n")
    print("| case | N | t(N) s | t(2N) s | t(4N) s | t(4N)/t(N) |")
    print("|---|---|---|---|---|---|")
    for name in args.case or sorted(CASES):
        make, default = CASES[name]
        n = args.base or default
        times = [max(time_one(make(k * n), args.python) - startup, 0.01) for k in (1, 2, 4)]
        print(f"| {name} | {n} | {times[0]:.2f} | {times[1]:.2f} | {times[2]:.2f} | {times[2] / times[0]:.1f} |",
              flush=True)


if __name__ == "__main__":
    main()
