#!/usr/bin/env python3
"""pypto-lsp on a warm server: unsaved edit to diagnostics, hover, inlay hints, memory.

    python benchmarks/lsp.py [--edits 20] [--corpus DIR] [--file PATH]

- A generated 400-line kernel file (``kernel_file()``: norm kernels with a helper, matmul
  kernels whose shapes come from host calls, the tests that call them twice each), opened in
  a server started as an editor starts it (``python -m mypy_plugin.lsp`` over stdio, the tests'
  client). Then ``--edits`` unsaved edits, each alternating a misaligned vec tile (8, 4) in and
  out of the first ``set_vec_tile_shapes`` line (every other edit adds one ``pypto-reduce-align``): the time from ``didChange`` to the
  ``publishDiagnostics`` of that version, with the default debounce (100 ms) and with
  ``debounceMs: 0`` (the engine's own time); hover on a tensor and the whole file's inlay
  hints, each ``--edits`` times, on the current version. ``--file``: the same on another file
  (hover on the first assignment after its first vec tile).
- ``--corpus DIR``: every ``.py`` file under DIR opened in one server in turn, the one before
  closed (browsing): the time to its diagnostics, and the server's resident memory (VmRSS) and
  peak (VmHWM); then ``--together`` (10) of them open at once and an edit of one of them (mypy's
  fine-grained engine re-checks every function with an error in the build at each update).

Figures are wall-clock medians (and max); the server's CPU time per edit (/proc/<pid>/stat, in
clock ticks of 10 ms) does not depend on what else the machine runs.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "lsp"))

from stdio_client import Client  # noqa: E402

_HEADER = '''"""A generated kernel file for benchmarks/lsp.py."""

import pypto
import torch

ROWS = 16
HIDDEN = 64
EPS = 1e-6
'''

_BLOCK = '''

@pypto.frontend.function
def scaled_{i}(x, factor):
    y = x * factor
    return y


@pypto.frontend.jit
def norm_{i}(
    x: pypto.Tensor([ROWS, HIDDEN], pypto.DT_FP32),
    gamma: pypto.Tensor([1, HIDDEN], pypto.DT_FP32),
    out: pypto.Tensor([ROWS, HIDDEN], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(ROWS, HIDDEN)
    sq = x * x
    mean_sq = sq.sum(-1, keepdim=True) / HIDDEN
    inv = pypto.rsqrt(mean_sq + EPS)
    scaled = scaled_{i}(x * inv, 2.0)
    out[:] = scaled * gamma


@pypto.frontend.jit
def proj_{i}(
    a: pypto.Tensor([], pypto.DT_FP16),
    w: pypto.Tensor([], pypto.DT_FP16),
    out: pypto.Tensor([], pypto.DT_FP32),
):
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
    out[:] = pypto.matmul(a, w, pypto.DT_FP32)


def test_{i}() -> None:
    norm_{i}(torch.randn(16, 64), torch.ones(1, 64), torch.empty(16, 64))
    for m in (16, 32):
        proj_{i}(torch.randn(m, 64, dtype=torch.float16), torch.randn(64, 32, dtype=torch.float16),
                 torch.empty(m, 32))
'''


def kernel_file(lines: int = 400) -> str:
    text = _HEADER
    i = 0
    while text.count("\n") < lines:
        text += _BLOCK.format(i=i)
        i += 1
    return text


def _median(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:.0f} ms (max {max(xs) * 1000:.0f} ms, n={len(xs)})"


def _memory(client: Client) -> str:
    status = Path(f"/proc/{client.process.pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    rss, hwm = (int(fields[k].split()[0]) // 1024 for k in ("VmRSS", "VmHWM"))
    return f"{rss} MB resident, {hwm} MB peak"


def _cpu(client: Client) -> float:
    """The server process's CPU seconds so far (user + system, /proc/<pid>/stat)."""
    fields = Path(f"/proc/{client.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _first_tensor_line(text: str) -> tuple[int, int]:
    """Where hover asks: the first ``name = ...`` line after the first vec tile."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "set_vec_tile_shapes" in line)
    for i in range(start + 1, len(lines)):
        stripped = lines[i].lstrip()
        if "=" in stripped and stripped.split("=")[0].strip().isidentifier():
            return i, len(lines[i]) - len(stripped)
    return start, 4


def edits(path: Path, text: str, n: int, debounce: int | None) -> dict[str, Any]:
    settings = {} if debounce is None else {"debounceMs": debounce}
    client = Client(path.parent, settings=settings)
    try:
        started = time.perf_counter()
        uri = client.open(path, text)
        client.diagnostics(uri, 1, timeout=600)
        opened = time.perf_counter() - started
        line = next(i for i, s in enumerate(text.splitlines()) if "set_vec_tile_shapes(" in s)
        old = text.splitlines()[line]
        new = re.sub(r"set_vec_tile_shapes\(.*\)", "set_vec_tile_shapes(8, 4)", old)
        times, cpu, counts = [], [], []
        for k in range(n):
            lines = text.splitlines(keepends=True)
            if k % 2 == 0:
                lines[line] = new + "\n"
            body = "".join(lines)
            t0, c0 = time.perf_counter(), _cpu(client)
            version = client.change(uri, body)
            diags = client.diagnostics(uri, version)
            times.append(time.perf_counter() - t0)
            cpu.append(_cpu(client) - c0)
            counts.append(len(diags))
        hover_at = _first_tensor_line(text)
        hovers, hints = [], []
        client.change(uri, text)
        client.diagnostics(uri, client.versions[uri])
        for _ in range(n):
            t0 = time.perf_counter()
            answer = client.hover(uri, *hover_at)
            hovers.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            found = client.inlay_hints(uri)
            hints.append(time.perf_counter() - t0)
        return {"open": opened, "edits": times, "cpu": cpu, "counts": counts, "hover": hovers, "hints": hints,
                "hover_text": (answer or {}).get("contents", {}).get("value", ""), "n_hints": len(found),
                "memory": _memory(client)}
    finally:
        client.shutdown()


def corpus(folder: Path, together: int) -> None:
    """Every file opened in turn (the one before closed, as when browsing), then ``together``
    files open at once and an edit of one of them."""
    files = sorted(p for p in folder.rglob("*.py"))
    client = Client(folder)
    times: list[tuple[float, str]] = []
    started = time.perf_counter()
    try:
        previous = None
        for path in files:
            t0 = time.perf_counter()
            uri = client.open(path, path.read_text(encoding="utf-8", errors="replace"))
            client.diagnostics(uri, 1, timeout=600)
            times.append((time.perf_counter() - t0, path.name))
            if previous is not None:
                client.close(previous)
            previous = uri
        print(f"corpus: {len(files)} files opened in turn (each closed after the next opened) in "
              f"{time.perf_counter() - started:.1f} s; server: {_memory(client)}")
        print(f"  open to diagnostics: {_median([t for t, _ in times])}; slowest: "
              + ", ".join(f"{name} {t:.2f} s" for t, name in sorted(times)[-3:]))
        if previous is not None:
            client.close(previous)
        uris = [client.open(p, p.read_text(encoding="utf-8", errors="replace")) for p in files[:together]]
        for uri in uris:
            client.diagnostics(uri, 1, timeout=600)
        edited: list[float] = []
        text = files[0].read_text(encoding="utf-8", errors="replace")
        for k in range(3):
            t0 = time.perf_counter()
            version = client.change(uris[0], text + "\n" * (k + 1))
            client.diagnostics(uris[0], version, timeout=600)
            edited.append(time.perf_counter() - t0)
        print(f"  {together} files open together, an edit of one to its diagnostics: {_median(edited)}; "
              f"server: {_memory(client)}")
    finally:
        client.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--together", type=int, default=10, help="corpus files open at once for the last figure")
    parser.add_argument("--file", type=Path, help="measure this file instead of the generated one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pypto-lsp-bench-") as tmp:
        if args.file is not None:
            path = Path(tmp) / args.file.name
            text = args.file.read_text(encoding="utf-8")
        else:
            path = Path(tmp) / "kernels_400.py"
            text = kernel_file()
        path.write_text(text, encoding="utf-8")
        print(f"{path.name}: {text.count(chr(10))} lines")
        for debounce in (None, 0):
            r = edits(path, text, args.edits, debounce)
            label = "default debounce (100 ms)" if debounce is None else "debounceMs 0"
            print(f"[{label}] open to diagnostics: {r['open']:.2f} s")
            print(f"  unsaved edit to diagnostics: {_median(r['edits'])}; the server's CPU for it: "
                  f"{_median(r['cpu'])}; diagnostics per edit: {sorted(set(r['counts']))}")
            print(f"  hover: {_median(r['hover'])}; inlay hints ({r['n_hints']}): {_median(r['hints'])}")
            print(f"  hover text: {r['hover_text']!r}")
            print(f"  server: {r['memory']}")
    if args.corpus is not None:
        corpus(args.corpus, args.together)


if __name__ == "__main__":
    main()
