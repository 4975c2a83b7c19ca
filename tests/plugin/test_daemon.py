"""The daemon after an edit answers as a cold run does, and never crashes on pypto-* codes.

Each scenario is a project, one edit, and the findings it must change (a test of an edit that
changes nothing proves nothing). The daemon (``dmypy run``, or ``dmypy check`` on a started
daemon) is compared with a cold ``mypy`` run of the edited project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# slow: a daemon per scenario, edited and compared with cold runs (tests/plugin/test_consistency.py
# keeps daemon runs in the default suite)
pytestmark = [pytest.mark.skipif(shutil.which("dmypy") is None, reason="dmypy not on PATH"), pytest.mark.slow]

INI = "[mypy]\nplugins = mypy_plugin\n"

AMAX_KERNEL = '''import pypto
{imports}

@pypto.frontend.jit
def k(x: pypto.Tensor([16, 64], pypto.DT_FP16), out: pypto.Tensor([16, 1], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes({tile})
    out[:] = x.amax(-1, keepdim=True)
'''

HELPER_KERNEL = '''import pypto
from tiles import COLS


def row_max(x):
    pypto.set_vec_tile_shapes(16, COLS)
    return x.amax(-1, keepdim=True)


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 64], pypto.DT_FP16), out: pypto.Tensor([16, 1], pypto.DT_FP16)):
    out[:] = row_max(x)
'''


# A kernel called through a dict (PyPTO's own tests do this): a cold run reported mypy's "Too many
# arguments" for the unpacked list, and the daemon re-checked the body with the variable's
# narrowed type and reported it again naming the kernel (issue 37). A kernel as a value is the
# runtime wrapper's callable (hooks/kernel_calls.py): no error either way.
KERNEL_MAP = '''import pypto
from tiles import COLS


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 64], pypto.DT_FP16), out: pypto.Tensor([16, 1], pypto.DT_FP16), n: int):
    pypto.set_vec_tile_shapes(16, COLS)
    out[:] = x.amax(-1, keepdim=True)


_KERNELS = {"normal": k}
reveal_type(_KERNELS)


def worker(name: str, inputs: list[object]) -> None:
    kernel = _KERNELS[name]
    kernel(*inputs, 3)
    kernel(inputs[0], inputs[1], 3, 4)
'''


@dataclass
class Scenario:
    files: dict[str, str]
    edit_file: str
    old: str
    new: str
    config: str = "mypy.ini"
    extra: dict[str, str] = field(default_factory=dict)


SCENARIOS: dict[str, Scenario] = {
    # (16, 16) fp16 is 32 bytes: aligned; (16, 8) is 16 bytes: FC1001.
    "tile_literal_becomes_misaligned": Scenario(
        {"kernel.py": AMAX_KERNEL.format(imports="", tile="16, 16")}, "kernel.py",
        "set_vec_tile_shapes(16, 16)", "set_vec_tile_shapes(16, 8)",
    ),
    # The tile value lives in another module: the kernel's module is not parsed again.
    "imported_tile_becomes_misaligned": Scenario(
        {"tiles.py": "import pypto\n\nCOLS = 16\n", "kernel.py": AMAX_KERNEL.format(imports="from tiles import COLS", tile="16, COLS")},
        "tiles.py", "COLS = 16", "COLS = 8",
    ),
    # ... and back: a stale error would be a false positive.
    "imported_tile_becomes_aligned": Scenario(
        {"tiles.py": "import pypto\n\nCOLS = 8\n", "kernel.py": AMAX_KERNEL.format(imports="from tiles import COLS", tile="16, COLS")},
        "tiles.py", "COLS = 8", "COLS = 16",
    ),
    # A tile-setting helper of the same module changes.
    "helper_tile_becomes_misaligned": Scenario(
        {"kernel.py": AMAX_KERNEL.format(imports="\ndef tiles():\n    pypto.set_vec_tile_shapes(16, 16)\n",
                                         tile="16, 16").replace("    pypto.set_vec_tile_shapes(16, 16)\n    out", "    tiles()\n    out")},
        "kernel.py", "set_vec_tile_shapes(16, 16)", "set_vec_tile_shapes(16, 8)",
    ),
    # A dim constant read only by an annotation, in a kernel that had no error before.
    "annotation_constant_in_other_module": Scenario(
        {"dims.py": "import pypto\n\nROWS = 8\n",
         "kernel.py": "import pypto\nfrom dims import ROWS\n\n@pypto.frontend.jit\n"
                      "def k(x: pypto.Tensor([ROWS, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):\n"
                      "    pypto.set_vec_tile_shapes(8, 64)\n    out[:] = x + x\n"},
        "dims.py", "ROWS = 8", "ROWS = 16",
    ),
    # A helper checked again for the kernel's call reads a tile from another module: the finding
    # of its copy goes (a copy check kept from before the edit would be a stale false positive),
    # and comes back.
    "helper_copy_tile_becomes_aligned": Scenario(
        {"tiles.py": "import pypto\n\nCOLS = 8\n", "kernel.py": HELPER_KERNEL}, "tiles.py", "COLS = 8", "COLS = 16",
    ),
    "helper_copy_tile_becomes_misaligned": Scenario(
        {"tiles.py": "import pypto\n\nCOLS = 16\n", "kernel.py": HELPER_KERNEL}, "tiles.py", "COLS = 16", "COLS = 8",
    ),
    # A kernel through a dict; the edit is in another module, so the daemon re-checks this module's
    # targets without parsing it again (issue 37).
    "kernel_called_through_a_dict": Scenario(
        {"tiles.py": "import pypto\n\nCOLS = 16\n", "kernel.py": KERNEL_MAP},
        "tiles.py", "COLS = 16", "COLS = 8",
    ),
    # A plugin option: 0.3 has no reduction alignment rule.
    "plugin_option": Scenario(
        {"kernel.py": AMAX_KERNEL.format(imports="", tile="16, 8"),
         "mypy.ini": INI + "\n[pypto-stubs]\npypto_version = 0.2\n"},
        "mypy.ini", "pypto_version = 0.2", "pypto_version = 0.3",
    ),
}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    st = path.stat()  # mtime granularity: the daemon must see a change even within one second
    os.utime(path, (st.st_atime + 5, st.st_mtime + 5))


def _project(root: Path, files: dict[str, str]) -> None:
    (root / "mypy.ini").write_text(INI)
    for name, text in files.items():
        (root / name).write_text(text)


def _lines(stdout: str) -> list[str]:
    return sorted(line for line in stdout.splitlines() if ": error:" in line or ": note:" in line)


def _cold(root: Path, config: str = "mypy.ini") -> list[str]:
    cmd = [sys.executable, "-m", "mypy", "--cache-dir", str(root / ".cold-cache"), "--config-file", config, "kernel.py"]
    return _lines(subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False).stdout)


class Daemon:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.cmd = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(root / ".dmypy.json")]

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        out = subprocess.run([*self.cmd, *args], cwd=self.root, capture_output=True, text=True, check=False,
                             timeout=180)
        assert "Daemon crashed" not in out.stdout + out.stderr, out.stdout + out.stderr
        assert "Traceback" not in out.stdout + out.stderr, out.stdout + out.stderr
        return out

    def stop(self) -> None:
        subprocess.run([*self.cmd, "stop"], cwd=self.root, capture_output=True, check=False, timeout=60)


# `dmypy check` (a started daemon) on the edits that go through another module or a cache; the
# option edit only with `run` (`check` keeps the options the daemon started with, as for mypy's).
_CHECKED = ("annotation_constant_in_other_module", "imported_tile_becomes_aligned", "kernel_called_through_a_dict",
            "tile_literal_becomes_misaligned", "helper_copy_tile_becomes_aligned", "helper_copy_tile_becomes_misaligned")
CASES = [("run", name) for name in sorted(SCENARIOS)] + [("check", name) for name in _CHECKED]


@pytest.mark.parametrize(("how", "name"), CASES)
def test_daemon_after_edit_matches_cold(tmp_path: Path, name: str, how: str) -> None:
    sc = SCENARIOS[name]
    _project(tmp_path, sc.files)
    daemon = Daemon(tmp_path)
    flags = ["--", "--config-file", sc.config, "kernel.py"]

    def findings() -> list[str]:
        if how == "run":
            return _lines(daemon("run", *flags).stdout)
        return _lines(daemon("check", "kernel.py").stdout)

    try:
        if how == "check":
            daemon("start", "--", "--config-file", sc.config)
        before = findings()
        assert before == _cold(tmp_path, sc.config)
        _edit(tmp_path / sc.edit_file, sc.old, sc.new)
        after = findings()
    finally:
        daemon.stop()
    assert after == _cold(tmp_path, sc.config)
    assert after != before, "the edit must change the findings, or the test proves nothing"


TRANSPOSE_KERNEL = '''import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([16, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = x.T
'''


@pytest.mark.parametrize("option", ["enable_error_code = pypto-matmul-dtype-doc",
                                    "disable_error_code = pypto-transpose"])
def test_dmypy_accepts_pypto_codes_in_options(tmp_path: Path, option: str) -> None:
    """dmypy reads its options before it loads any plugin: the codes must be known by then."""
    _project(tmp_path, {"kernel.py": TRANSPOSE_KERNEL, "mypy.ini": f"{INI}{option}\n"})
    daemon = Daemon(tmp_path)
    try:
        out = daemon("run", "--", "--config-file", "mypy.ini", "kernel.py")
        again = daemon("run", "--", "--config-file", "mypy.ini", "kernel.py")
    finally:
        daemon.stop()
    assert out.returncode in (0, 1), out.stdout + out.stderr
    assert _lines(out.stdout) == _lines(again.stdout) == _cold(tmp_path)
    assert ("pypto-transpose" in out.stdout) == ("disable" not in option)


def test_foreground_daemon_accepts_pypto_codes_in_options(tmp_path: Path) -> None:
    """`dmypy daemon` serves in the foreground (no fork): the codes are known there too."""
    _project(tmp_path, {"kernel.py": TRANSPOSE_KERNEL, "mypy.ini": f"{INI}disable_error_code = pypto-transpose\n"})
    daemon = Daemon(tmp_path)
    server = subprocess.Popen([*daemon.cmd, "daemon", "--", "--config-file", "mypy.ini"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for _ in range(600):  # the status file appears once the daemon listens
            if (tmp_path / ".dmypy.json").exists() or server.poll() is not None:
                break
            time.sleep(0.1)
        out = daemon("run", "--", "--config-file", "mypy.ini", "kernel.py")
    finally:
        daemon.stop()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        log = server.communicate()[0]
    assert "Traceback" not in log and "KeyError" not in log, log
    assert out.returncode == 0, out.stdout + out.stderr + log
    assert _lines(out.stdout) == _cold(tmp_path) == []
