"""Findings from helpers of other modules (calls/cross_module.py) are the same in every way of
running mypy: a warm run, worker runs and the daemon (with and without the fine-grained cache),
after an edit of the kernel's module, of the helper's module, or of a module the helper calls
into that the kernel's module does not import (only the read sources' digests say it changed:
calls/module_sources.py). Each edit brings a finding into a clean project: mypy checks a module
with errors again anyway, so only that direction tests that the edit is seen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_consistency import _edit, _errors, _on_native_parser

DEEP = "import pypto\n\n\ndef reduce_rows(x):\n    return x.amax(-1, keepdim=True)\n"
CLEAN_DEEP = DEEP.replace("x.amax(-1, keepdim=True)", "x")
MID = ("import pypto\nfrom .deep import reduce_rows\n\n\ndef softmax_rows(x):\n    m = reduce_rows(x)\n"
       "    return pypto.exp(x - m)\n")
SETUP = "import pypto\n\n\ndef warm(x):\n    pypto.set_vec_tile_shapes(16, 8)\n    return x\n"
KERNEL = '''import pypto
from pkg.mid import softmax_rows
from pkg.setup import warm


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 64], pypto.DT_BF16), out: pypto.Tensor([16, 64], pypto.DT_BF16),
      s: pypto.Tensor([16, 1], pypto.DT_BF16)):
    pypto.set_vec_tile_shapes(16, 8)
    out[:] = softmax_rows(x)
    warm(x)
    s[:] = x.sum(-1, keepdim=True)
'''
INI = "[mypy]\nplugins = mypy_plugin\n"

# (file, text of the clean project, text the edit brings)
SCENARIOS = {
    # a module only the helper imports: its reduction comes back
    "module_the_helper_calls_into": ("pkg/deep.py", "return x\n", "return x.amax(-1, keepdim=True)\n"),
    # the helper's own module: it calls the reduction
    "helpers_module": ("pkg/mid.py", "    m = x * 0.5\n", "    m = reduce_rows(x)\n"),
    # the caller's tile: (16, 16) is aligned, (16, 8) is not
    "callers_tile": ("kernel.py", "set_vec_tile_shapes(16, 16)", "set_vec_tile_shapes(16, 8)"),
    # a helper of another module sets the tile the kernel's reduction after the call runs under
    "tile_a_helper_sets": ("pkg/setup.py", "set_vec_tile_shapes(16, 16)", "set_vec_tile_shapes(16, 8)"),
}


def _project(root: Path, name: str) -> None:
    """The project with the finding, then made clean the way ``name``'s edit undoes."""
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "deep.py").write_text(DEEP)
    (root / "pkg" / "mid.py").write_text(MID)
    (root / "pkg" / "setup.py").write_text(SETUP)
    (root / "kernel.py").write_text(KERNEL if name != "tile_a_helper_sets" else KERNEL.replace("(16, 8)", "(16, 16)"))
    (root / "mypy.ini").write_text(INI)
    # (the helper that sets the tile sets an aligned one, but in its own scenario)
    (root / "pkg" / "setup.py").write_text(SETUP.replace("(16, 8)", "(16, 16)") if name != "tile_a_helper_sets" else SETUP)
    path, clean, buggy = SCENARIOS[name]
    text = (root / path).read_text()
    assert buggy in text
    (root / path).write_text(text.replace(buggy, clean))


def _notes(stdout: str) -> list[str]:
    return sorted(line for line in stdout.splitlines() if ": note: at " in line)


def _mypy(root: Path, cache: Path, *extra: str) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--config-file", "mypy.ini",
                          *extra, "kernel.py"], cwd=root, capture_output=True, text=True, check=False, timeout=300)
    _on_native_parser(out.stderr)
    return _errors(out.stdout) + _notes(out.stdout)


def _apply(root: Path, name: str) -> None:
    path, clean, buggy = SCENARIOS[name]
    _edit(root / path, clean, buggy)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_warm_and_worker_runs_match_cold(tmp_path: Path, name: str) -> None:
    _project(tmp_path, name)
    for _ in range(2):  # the second run finds fresh caches (which list what each check read)
        assert _mypy(tmp_path, tmp_path / ".warm") == []
        assert _mypy(tmp_path, tmp_path / ".workers", "--num-workers", "2") == []
    _apply(tmp_path, name)
    cold = _mypy(tmp_path, tmp_path / ".cold")
    if name == "tile_a_helper_sets":  # the kernel's own reduction, under the helper's tile
        assert cold and cold[0].startswith("kernel.py:12: error: Tensor.sum reduces the last axis of [16, 64] DT_BF16: vec tile (16, 8)")
    else:
        assert cold and "pkg/deep.py:5, through reduce_rows at mid.py:6" in cold[-1]
    assert _mypy(tmp_path, tmp_path / ".warm") == cold
    assert _mypy(tmp_path, tmp_path / ".workers", "--num-workers", "2") == cold


@pytest.mark.parametrize("fine_grained_cache", [False, True], ids=["no_fg_cache", "fg_cache"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_dmypy_after_edit_matches_cold(tmp_path: Path, name: str, fine_grained_cache: bool) -> None:
    _project(tmp_path, name)
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / ".dmypy.json")]
    flags = ["--config-file", "mypy.ini"]
    if fine_grained_cache:
        cache = tmp_path / ".fg-cache"
        _mypy(tmp_path, cache, "--cache-fine-grained")
        flags += ["--cache-dir", str(cache), "--use-fine-grained-cache"]
    log = tmp_path / "dmypy.log"

    def check() -> list[str]:
        out = subprocess.run([*dmypy, "run", "--log-file", str(log), "--", *flags, "kernel.py"],
                             cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120)
        return _errors(out.stdout) + _notes(out.stdout)

    try:
        before = check()
        _apply(tmp_path, name)
        after = check()
    finally:
        subprocess.run([*dmypy, "stop"], cwd=tmp_path, capture_output=True, check=False, timeout=60)
    _on_native_parser(log.read_text())
    assert before == []
    assert after == _mypy(tmp_path, tmp_path / ".cold")
    assert after != before


def test_the_first_warm_run_checks_no_reader_again(tmp_path: Path) -> None:
    """The cache entry of a module whose check read other modules' sources stays valid while each
    has the digest it had when read: the warm run right after a cold one checks it again only
    when one of them changed (before: always, as the entry was written before the check listed
    what it read). A reader that imports every module it read keeps no list: mypy checks it again
    as the edited module's interface (its text's digest) changed."""
    _project(tmp_path, "module_the_helper_calls_into")

    def warm_run() -> tuple[list[str], list[str]]:
        out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / ".warm"), "--config-file",
                              "mypy.ini", "-v", "kernel.py"], cwd=tmp_path, capture_output=True, text=True,
                             check=False, timeout=300)
        lines = out.stderr.splitlines()
        return ([line.split("Metadata abandoned for ")[1] for line in lines if "Metadata abandoned for " in line],
                [line.split("Scheduling SCC singleton ")[1] for line in lines if "as stale due to deps" in line])

    assert warm_run() == ([], [])  # cold: no entry
    assert warm_run() == ([], [])  # the first warm run: every entry holds
    # kernel reads pkg.deep through pkg.mid without importing it: a list; pkg.mid imports it: none
    assert sorted(p.name for p in (tmp_path / ".warm" / "pypto-stubs" / "sources").iterdir()) == ["kernel.json"]
    (tmp_path / "pkg" / "deep.py").write_text(CLEAN_DEEP + "# an edit\n")
    abandoned, stale = warm_run()
    abandoned.sort()
    # the edited module, and the two whose checks read it (the helper's module traces into it)
    assert abandoned[0] == "kernel: plugin configuration differs"
    assert abandoned[1].startswith("pkg.deep: file ") and abandoned[1].endswith("deep.py has different size")
    assert abandoned[2:] == []
    assert stale == ["(pkg.mid) as stale due to deps (pkg.deep)"]
    assert warm_run() == ([], [])
