"""Whole projects through mypy after random edits: cold == warm (same cache) == daemon.

A project is ``benchmarks/gen_kernels.py``'s (kernel modules importing shared dims), each round
edits a few integers the findings depend on (a shared dim, a module constant, a tile value, a
literal dim of an annotation), then runs mypy three ways and compares the findings:

* cold: a fresh cache directory;
* warm: one cache directory kept across rounds (mypy's incremental mode);
* daemon: one ``dmypy`` kept across rounds (``dmypy run``: fine-grained updates).

Used by ``tests/fuzz/test_project_edits.py`` (a few rounds in CI) and by
``scripts/fuzz_projects.py`` (thousands of modules, outside CI).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
if str(_BENCH) not in sys.path:
    sys.path.insert(0, str(_BENCH))
import gen_kernels  # noqa: E402

INI = "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n"
VALUES = (1, 2, 4, 8, 16, 24, 32, 64, 128)
# NAME = 8 / NAME: Final = 8 (module constants and shared dims)
_CONST = re.compile(r"^([A-Z_][A-Z0-9_]*)(: Final)? = (\d+)$", re.M)
_TILE = re.compile(r"set_vec_tile_shapes\(([^()]*)\)")
_ANN_DIM = re.compile(r"(pypto\.Tensor\(?\[+)(\d+)")


@dataclass
class Mismatch:
    round: int
    edits: list[str]
    cold: list[str]
    other: list[str]
    how: str


@dataclass
class Result:
    modules: int = 0
    rounds: int = 0
    edits: int = 0
    crashes: list[str] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    changed_rounds: int = 0  # rounds whose edit changed the cold findings (the edits matter)


def _findings(out: subprocess.CompletedProcess[str], crashes: list[str], how: str) -> list[str]:
    text = out.stdout + out.stderr
    if out.returncode not in (0, 1) or "INTERNAL ERROR" in text or "Traceback" in text or "crashed" in text:
        crashes.append(f"{how}: exit {out.returncode}: {text[-3000:]}")
    return sorted(line for line in out.stdout.splitlines() if ": error:" in line or ": note:" in line)


def _touch(path: Path) -> None:
    st = path.stat()  # mtime granularity: a change within the same second must still be seen
    os.utime(path, (st.st_atime, st.st_mtime + 2))


def random_edit(root: Path, rng: random.Random) -> str:
    """One edit of an integer the findings depend on; returns a description."""
    files = sorted((root / "kernels").rglob("*.py"))
    dims = root / "kernels" / "dims.py"
    path = dims if rng.random() < 0.3 else rng.choice(files)
    text = path.read_text()
    kinds = [k for k, rx in (("const", _CONST), ("tile", _TILE), ("ann", _ANN_DIM)) if rx.search(text)]
    if not kinds:
        return f"{path.name}: nothing to edit"
    kind = rng.choice(kinds)
    value = str(rng.choice(VALUES))
    if kind == "const":
        m = rng.choice(list(_CONST.finditer(text)))
        new = f"{m.group(1)}{m.group(2) or ''} = {value}"
    elif kind == "tile":
        m = rng.choice(list(_TILE.finditer(text)))
        parts = m.group(1).split(", ")
        parts[rng.randrange(len(parts))] = value
        new = f"set_vec_tile_shapes({', '.join(parts)})"
    else:
        m = rng.choice(list(_ANN_DIM.finditer(text)))
        new = f"{m.group(1)}{value}"
    path.write_text(text[: m.start()] + new + text[m.end():])
    _touch(path)
    return f"{path.relative_to(root)}: {m.group(0)!r} -> {new!r}"


class Runner:
    def __init__(self, root: Path, python: str = sys.executable, timeout: float = 900) -> None:
        self.root = root
        self.python = python
        self.timeout = timeout
        (root / "mypy.ini").write_text(INI)
        self.dmypy = [python, "-m", "mypy.dmypy", "--status-file", str(root / ".dmypy.json")]

    def _run(self, cmd: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, cwd=self.root, capture_output=True, text=True, check=False, timeout=self.timeout)

    def mypy(self, cache: str) -> subprocess.CompletedProcess[str]:
        return self._run([self.python, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", cache, "kernels"])

    def cold(self) -> subprocess.CompletedProcess[str]:
        cache = self.root / ".cold-cache"
        shutil.rmtree(cache, ignore_errors=True)
        return self.mypy(str(cache))

    def warm(self) -> subprocess.CompletedProcess[str]:
        return self.mypy(str(self.root / ".warm-cache"))

    def daemon(self) -> subprocess.CompletedProcess[str]:
        return self._run([*self.dmypy, "run", "--", "--config-file", "mypy.ini", "kernels"])

    def stop(self) -> None:
        subprocess.run([*self.dmypy, "stop"], cwd=self.root, capture_output=True, check=False, timeout=120)


def fuzz_project(root: Path, modules: int, rounds: int, edits_per_round: int, seed: int,
                 python: str = sys.executable, result: Result | None = None) -> Result:
    """Generate one project of ``modules`` modules and run ``rounds`` rounds of edits on it."""
    result = result or Result()
    rng = random.Random(seed)
    gen_kernels.generate(modules, root, seed=seed, bug_rate=0.1)
    result.modules += modules
    runner = Runner(root, python)
    try:
        previous = _findings(runner.cold(), result.crashes, "cold")
        for how, run in (("warm", runner.warm), ("daemon", runner.daemon)):
            got = _findings(run(), result.crashes, how)
            if got != previous:
                result.mismatches.append(Mismatch(0, [], previous, got, how))
        for r in range(1, rounds + 1):
            done = [random_edit(root, rng) for _ in range(edits_per_round)]
            result.edits += len(done)
            result.rounds += 1
            cold = _findings(runner.cold(), result.crashes, "cold")
            if cold != previous:
                result.changed_rounds += 1
            previous = cold
            for how, run in (("warm", runner.warm), ("daemon", runner.daemon)):
                got = _findings(run(), result.crashes, how)
                if got != cold:
                    result.mismatches.append(Mismatch(r, done, cold, got, how))
    finally:
        runner.stop()
    return result
