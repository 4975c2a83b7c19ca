"""A run that checks nothing imports none of the checks (mypy_plugin/lazy_modules.py).

With every module fresh in mypy's cache, mypy calls no checking hook; importing the checks was
then most of the plugin's share of such a run (an editor's save, CI with a kept cache). Each run
is a process of its own: in one process the first run's imports would still be there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

KERNEL = """\
import pypto

@pypto.frontend.jit()
def rowsum(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = x.sum(-1, keepdim=True)
"""

# What the plugin loads only when a hook needs it, and what the kernel above needs; the tracer,
# which the source rewrite's first parse of a pypto module imports (not the parser probe's).
CHECKS = ("mypy_plugin.calls.call_sites", "mypy_plugin.hooks.op_calls", "mypy_plugin.hooks.session",
          "mypy_plugin.trace.written_dtypes")

RUN = """\
import json, sys, types
from mypy import api
out, err, status = api.run(sys.argv[2:])
loaded = {{name: type(sys.modules[name]) is types.ModuleType for name in {checks!r} if name in sys.modules}}
json.dump({{"out": out, "status": status, "loaded": loaded}}, open(sys.argv[1], "w"))
"""


def _run(tmp_path: Path, tag: str) -> dict[str, object]:
    report = tmp_path / f"{tag}.json"
    script = RUN.format(checks=CHECKS)
    args = ["--config-file", "mypy.ini", "--cache-dir", ".cache", "kernel.py"]
    proc = subprocess.run([sys.executable, "-c", script, str(report), *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(report.read_text())
    return result


def test_a_warm_run_imports_none_of_the_checks(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    (tmp_path / "kernel.py").write_text(KERNEL)
    cold = _run(tmp_path, "cold")
    warm = _run(tmp_path, "warm")
    assert cold["loaded"] == {name: True for name in CHECKS}  # the cold run checked the kernel with them
    assert warm["loaded"] == {name: False for name in CHECKS if name in warm["loaded"]}
    assert warm["out"] == cold["out"] and warm["status"] == cold["status"]
    assert "pypto-reduce-align" in str(cold["out"])  # the finding itself, from the cache on the warm run
