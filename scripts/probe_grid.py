"""The compile loop the probe scripts share: one kernel per (row, dtype), compiled by the real
PyPTO 0.2.0 compiler (SIM mode) through the oracle's runner (a forked compile server that imported
torch and pypto once), and its verdict.

``scripts/probe_op_dtypes.py`` and ``scripts/probe_no_tile.py`` give the kernel of a pair and how
a compile's outcome reads as a verdict; this module writes each kernel, compiles it, prints one
line per pair and returns the grid, ``row -> dtype -> (verdict, the compiler's words)``.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

Grid = dict[str, dict[str, tuple[str, str]]]
# (kernel path, work folder) -> the runner's verdict (tests.oracle.runner.CompilerVerdict)
Compile = Callable[[str, str], Any]


def _compile_file(path: str, workdir: str) -> Any:
    from tests.oracle.runner import compile_file  # needs the oracle's runner only when it compiles

    return compile_file(path, workdir)


def file_name(row: str, dt: str) -> str:
    """``minimum_DT_INT8.py``; a row key such as ``minimum/int`` gives ``minimum_int_DT_INT8.py``."""
    return re.sub(r"\W", "_", row.strip("_")) + f"_{dt}.py"


def run_grid(rows: Sequence[str], dtypes: Sequence[str], kernel: Callable[[str, str], str],
             verdict: Callable[[Any], tuple[str, str]], workdir: str, width: int = 5,
             compile: Compile | None = None) -> Grid:
    """Compiles ``kernel(row, dt)`` for every pair, in order; ``verdict`` reads the runner's
    outcome as (verdict, the compiler's words). Prints ``row dtype verdict words`` as it goes."""
    grid: Grid = {}
    compile = compile or _compile_file
    for row in rows:
        cells = grid.setdefault(row, {})
        for dt in dtypes:
            path = os.path.join(workdir, file_name(row, dt))
            with open(path, "w") as f:
                f.write(kernel(row, dt))
            cells[dt] = verdict(compile(path, os.path.join(workdir, "run")))
            print(f"{row:22} {dt:9} {cells[dt][0]:{width}} {cells[dt][1]}", flush=True)
    return grid


def data_file_head(docstring: Sequence[str], dtypes: Sequence[str]) -> list[str]:
    """The opening lines of a generated data file: its docstring (``docstring``, from its first line
    to the one before the closing quotes), the imports and the dtypes probed (PROBED)."""
    return [*docstring, '"""', "", "from __future__ import annotations", "", "from typing import Final", "",
            f"PROBED: Final[tuple[str, ...]] = {tuple(dtypes)!r}", ""]
