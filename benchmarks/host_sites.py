#!/usr/bin/env python3
"""Cost of the host evaluation with many call sites in one module (issue 31).

    python benchmarks/host_sites.py [-n 4000 16000] [--repeat 1]

For each N: a module of N kernel calls, each on tensors of its own (``x{i} = torch.randn(...)``,
``k(x{i}, out)``; every fourth call under an ``if``, lists built and appended to), and a kernel
module. Measured in a child process each (peak RSS from ``os.wait4``, CPU = user + sys):
- ``evaluator``: the host evaluator alone on the module's source (``HostEvaluator.call_sites``);
- ``mypy plugin``: a cold ``mypy`` run with ``plugins = mypy_plugin`` (a fresh cache);
- ``mypy plugin, host_calls = false``: the same without the host-call checks (their cost).
torch is the benchmarks' stand-in (``gen_kernels.FAKE_TORCH``), as in run.py.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen_kernels  # noqa: E402

KERNEL = '''import pypto


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 64], pypto.DT_FP16), out: pypto.Tensor([16, 64], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(16, 64)
    out[:] = x + x
'''
INI = "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\nmypy_path = typings\n"
EVALUATE = '''import ast, sys
from mypy_plugin.host.evaluate import HostEvaluator
tree = ast.parse(open(sys.argv[1]).read())
sites = HostEvaluator(tree, lambda c: "k" if isinstance(c, ast.Name) and c.id == "k" else None).call_sites()
print(len(sites))
'''


def host_module(n: int) -> str:
    lines = ["import torch", "from kern import k", "", "out = torch.randn(16, 64, dtype=torch.float16)"]
    for i in range(n):
        lines.append(f"x{i} = torch.randn(16, 64, dtype=torch.float16)")
        if i % 4 == 0:
            lines += [f"if flag{i % 3}:", f"    k(x{i}, out)", f"xs{i} = [x{i}]", f"xs{i}.append(out)"]
        else:
            lines.append(f"k(x{i}, out)")
    lines.insert(1, "flag0 = flag1 = flag2 = bool(len(__name__) % 2)")
    return "\n".join(lines) + "\n"


def run(cmd: list[str], cwd: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, peak RSS bytes) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # mypy exits 1 on errors
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def measure(n: int, repeat: int) -> dict[str, tuple[float, float, int]]:
    out: dict[str, tuple[float, float, int]] = {}
    with tempfile.TemporaryDirectory(prefix="pypto-host-sites-") as tmp:
        proj = Path(tmp)
        (proj / "typings" / "torch").mkdir(parents=True)
        (proj / "typings" / "torch" / "__init__.pyi").write_text(gen_kernels.FAKE_TORCH)
        (proj / "kern.py").write_text(KERNEL)
        (proj / "host.py").write_text(host_module(n))
        (proj / "plugin.ini").write_text(INI)
        (proj / "no-calls.ini").write_text(INI + "\n[pypto-stubs]\nhost_calls = false\n")
        (proj / "evaluate.py").write_text(EVALUATE)
        runs = {
            "evaluator": [sys.executable, "evaluate.py", "host.py"],
            "mypy plugin": [sys.executable, "-m", "mypy", "--config-file", "plugin.ini", "host.py", "kern.py"],
            "mypy plugin, host_calls = false": [sys.executable, "-m", "mypy", "--config-file", "no-calls.ini",
                                                "host.py", "kern.py"],
        }
        for name, cmd in runs.items():
            best: tuple[float, float, int] | None = None
            for r in range(repeat):
                cache = proj / f".cache-{name.replace(' ', '_').replace(',', '').replace('=', '')}-{r}"
                result = run(cmd + (["--cache-dir", str(cache)] if "mypy" in cmd else []), proj)
                best = result if best is None or result[1] < best[1] else best
            assert best is not None
            out[name] = best
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, nargs="+", default=[4000, 16000], help="call sites in the module")
    ap.add_argument("--repeat", type=int, default=1, help="runs per measure (the lowest CPU is kept)")
    args = ap.parse_args(argv)
    print("| call sites | run | wall s | CPU s | peak RSS MB |")
    print("|---|---|---|---|---|")
    for n in args.n:
        for name, (wall, cpu, rss) in measure(n, args.repeat).items():
            print(f"| {n} | {name} | {wall:.1f} | {cpu:.1f} | {rss / 2**20:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
