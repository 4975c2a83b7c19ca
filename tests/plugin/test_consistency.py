"""Every way of running mypy gives the findings of a cold run, on mypy's native parser.

Each scenario edits one thing the findings depend on -- a constant used as a dim in another
module, a set_vec_tile_shapes value, a plugin option in pyproject.toml -- and compares a warm
run (same cache), ``--num-workers`` runs, and the daemon (still running, with and without the
fine-grained cache) with a cold run of the edited project. Every run must stay on the native
parser (no fallback notice) and read the call-form annotations (no ``valid-type``): the source
rewrite happens inside the native parser on every parse, including the re-parse of stale
dependents that warm and worker runs do.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

DIMS = "import pypto\n\nROWS = 8\nCOLS = 64\n"
KERNEL = '''import pypto
from dims import COLS, ROWS

@pypto.frontend.jit
def k(x: pypto.Tensor([ROWS, COLS], pypto.DT_FP32), ones: pypto.Tensor([64, 1], pypto.DT_FP32),
      out: pypto.Tensor([ROWS, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 8)
    pypto.set_cube_tile_shapes([16, 16], [64, 64], [16, 16])
    out[:] = x.sum(-1, keepdim=True)
    out[:] = pypto.matmul(x, ones, pypto.DT_FP32)
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = x.amax(-1, keepdim=True)


def prep() -> None:
    pypto.set_vec_tile_shapes(8, 64)


@pypto.frontend.jit
def k2(x: pypto.Tensor([ROWS, COLS], pypto.DT_FP32), out: pypto.Tensor([ROWS, COLS], pypto.DT_FP32)):
    prep()
    y = x * 2.0
    z = pypto.exp(y)
    out[:] = z + y
'''
# disallow_untyped_defs (as --strict): the kernel has no return annotation, which the frontend
# requires; every run must accept that, including the warm re-parse of the stale kernel module.
PYPROJECT = (
    '[tool.mypy]\nplugins = ["mypy_plugin"]\ndisallow_untyped_defs = true\n\n[tool.pypto-stubs]\npypto_version = "0.2"\n'
)


def _project(root: Path) -> None:
    (root / "dims.py").write_text(DIMS)
    (root / "kernel.py").write_text(KERNEL)
    (root / "pyproject.toml").write_text(PYPROJECT)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    # mtime granularity: make sure mypy and dmypy see a change even within one second
    st = path.stat()
    os.utime(path, (st.st_atime + 5, st.st_mtime + 5))


def _errors(stdout: str) -> list[str]:
    """The errors, each with its notes (one finding per root cause names the others in a note)."""
    lines = [line for line in stdout.splitlines() if ": error:" in line or ": note:" in line]
    errors = [line for line in lines if ": error:" in line]
    # The call-form annotations were read (a lost rewrite shows up as valid-type) ...
    assert not [e for e in errors if "[valid-type]" in e], stdout
    # ... and the findings come from the plugin, not from a crash or a config error.
    assert all("[pypto-" in e for e in errors), stdout
    return sorted(lines)


def _on_native_parser(stderr: str) -> None:
    assert "pypto-stubs:" not in stderr, stderr  # the fallback notice


def _mypy(root: Path, cache: Path, *extra: str) -> list[str]:
    cmd = [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--config-file", "pyproject.toml", *extra,
           "kernel.py"]
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False, timeout=300)
    _on_native_parser(out.stderr)
    return _errors(out.stdout)


def _cold(root: Path) -> list[str]:
    return _mypy(root, root / ".cold-cache")


Edit = Callable[[Path], None]

SCENARIOS: dict[str, Edit] = {
    # COLS feeds x's annotation in another module: 64 -> 32 makes the ones vector [64, 1] wrong.
    "constant_in_other_module": lambda root: _edit(root / "dims.py", "COLS = 64", "COLS = 32"),
    # the tile fixes the reduction: (8, 8) is aligned, (8, 4) is not.
    "vec_tile_value": lambda root: _edit(root / "kernel.py", "set_vec_tile_shapes(8, 8)", "set_vec_tile_shapes(8, 4)"),
    # a helper called first sets the vec tile: without it every op of k2 runs with no tile, one
    # finding at the first (its note names the others: kernel.root_causes).
    "helper_sets_the_tile": lambda root: _edit(root / "kernel.py", "def prep() -> None:\n    pypto.set_vec_tile_shapes(8, 64)",
                                              "def prep() -> None:\n    pass"),
    # pypto_version 0.3 has no reduction alignment rule.
    "plugin_option": lambda root: _edit(root / "pyproject.toml", 'pypto_version = "0.2"', 'pypto_version = "0.3"'),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_warm_incremental_run_matches_cold(tmp_path: Path, name: str) -> None:
    _project(tmp_path)
    warm_cache = tmp_path / ".warm-cache"
    before = _mypy(tmp_path, warm_cache)
    SCENARIOS[name](tmp_path)
    after_warm = _mypy(tmp_path, warm_cache)
    after_cold = _cold(tmp_path)
    assert after_warm == after_cold
    assert after_cold != before, "the edit must change the findings, or the test proves nothing"


def _fresh_checkout(src: Path, dst: Path) -> None:
    """The project as a CI job sees it: the same files written anew in another directory, every
    modification time new (mypy then compares the files' hashes with its cache's)."""
    dst.mkdir()
    for path in src.iterdir():
        if path.is_file():
            (dst / path.name).write_bytes(path.read_bytes())
            st = (dst / path.name).stat()
            os.utime(dst / path.name, (st.st_atime + 10, st.st_mtime + 10))


def _reused(root: Path, cache: Path) -> tuple[list[str], str]:
    """The findings of a run with ``cache``, and mypy's log of what it took from the cache."""
    cmd = [sys.executable, "-m", "mypy", "-v", "--cache-dir", str(cache), "--config-file", "pyproject.toml", "kernel.py"]
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False, timeout=300)
    return _errors(out.stdout), out.stderr


@pytest.mark.parametrize("name", ["constant_in_other_module", "plugin_option"])
def test_a_cache_restored_in_a_fresh_checkout_is_used_and_matches_cold(tmp_path: Path, name: str) -> None:
    # A CI job that restores the mypy cache of an earlier job (docs/integrations.md): another
    # checkout directory, new modification times. The modules whose text is the same are taken
    # from the cache (nothing the plugin records for a module names a directory or a time), and
    # an edit since is seen as in any warm run.
    first, cache = tmp_path / "first", tmp_path / ".cache"
    first.mkdir()
    _project(first)
    before = _mypy(first, cache)
    second = tmp_path / "second"
    _fresh_checkout(first, second)
    same, log = _reused(second, cache)
    assert same == before == _cold(second)
    for module, path in (("kernel", "kernel.py"), ("dims", str(second / "dims.py"))):
        assert f"Updating mtime for {module}: file {path}," in log, log  # its hash matched: reused
    assert "Metadata abandoned" not in log, log
    SCENARIOS[name](second)
    after, _ = _reused(second, cache)
    assert after == _cold(second)
    assert after != before, "the edit must change the findings, or the test proves nothing"


@pytest.mark.parametrize("name", ["constant_in_other_module", "vec_tile_value", "helper_sets_the_tile"])
def test_worker_runs_match_cold(tmp_path: Path, name: str) -> None:
    # --num-workers: the coordinator parses, the workers re-parse stale modules on their own.
    _project(tmp_path)
    cache = tmp_path / ".workers-cache"
    before = _mypy(tmp_path, cache, "--num-workers", "2")
    SCENARIOS[name](tmp_path)
    after = _mypy(tmp_path, cache, "--num-workers", "2")
    assert after == _cold(tmp_path)
    assert after != before


@pytest.mark.parametrize("fine_grained_cache", [False, True], ids=["no_fg_cache", "fg_cache"])
@pytest.mark.parametrize("name", ["constant_in_other_module", "vec_tile_value", "helper_sets_the_tile"])
def test_dmypy_after_edit_matches_cold(tmp_path: Path, name: str, fine_grained_cache: bool) -> None:
    _project(tmp_path)
    status = tmp_path / ".dmypy.json"
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(status)]
    flags = ["--config-file", "pyproject.toml"]
    if fine_grained_cache:
        # The daemon starts from a cache written by a plain run, as editors' setups do.
        cache = tmp_path / ".fg-cache"
        assert _mypy(tmp_path, cache, "--cache-fine-grained") == _cold(tmp_path)
        flags += ["--cache-dir", str(cache), "--use-fine-grained-cache"]

    def check() -> list[str]:
        out = subprocess.run([*dmypy, "run", "--log-file", str(log), "--", *flags, "kernel.py"],
                             cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120)
        return _errors(out.stdout)

    log = tmp_path / "dmypy.log"
    try:
        before = check()
        SCENARIOS[name](tmp_path)
        after = check()
    finally:
        subprocess.run([*dmypy, "stop"], cwd=tmp_path, capture_output=True, check=False, timeout=60)
    _on_native_parser(log.read_text())  # the daemon's stderr
    assert after == _cold(tmp_path)
    assert after != before


def test_a_grouped_finding_goes_with_its_cause(tmp_path: Path) -> None:
    # The reverse of helper_sets_the_tile: the tile-missing finding of k2 and its note of
    # dependents are out, then the helper sets the tile again: warm and daemon runs drop both.
    _project(tmp_path)
    _edit(tmp_path / "kernel.py", "def prep() -> None:\n    pypto.set_vec_tile_shapes(8, 64)", "def prep() -> None:\n    pass")
    warm_cache = tmp_path / ".warm-cache"
    status = tmp_path / ".dmypy.json"
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(status)]

    def daemon() -> list[str]:
        out = subprocess.run([*dmypy, "run", "--", "--config-file", "pyproject.toml", "kernel.py"],
                             cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120)
        return _errors(out.stdout)

    try:
        before = _mypy(tmp_path, warm_cache)
        assert before == daemon()
        assert any("not reported again" in line for line in before), before
        _edit(tmp_path / "kernel.py", "def prep() -> None:\n    pass", "def prep() -> None:\n    pypto.set_vec_tile_shapes(8, 64)")
        after_daemon = daemon()
    finally:
        subprocess.run([*dmypy, "stop"], cwd=tmp_path, capture_output=True, check=False, timeout=60)
    after_cold = _cold(tmp_path)
    assert _mypy(tmp_path, warm_cache) == after_cold == after_daemon
    assert not any("k2" in line or "not reported again" in line for line in after_cold)
