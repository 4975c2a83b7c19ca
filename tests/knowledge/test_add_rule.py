"""Adding a rule takes a row of the code table, a check, and a test (and ``docs/rules.md`` for the
compiler fact): shown on a fake rule in a temporary copy of the plugin.

The copy gets one row in ``knowledge/codes/op_codes.py`` and one check in
``knowledge/checks/elementwise.py``, registered for elementwise ops in ``checks/registry.py``.
Nothing else changes: mypy reports the finding under its own code (which ``# type: ignore[...]``
silences), and ``--list-codes`` / ``--explain`` know it from the row.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

ROW = '''

SELF_OPERAND: Final = Code(
    "pypto-self-operand",
    summary="An elementwise op with the same tensor on both sides",
    catches="a + a, a * a: written where another tensor was meant.",
    compiler="Compiles it.",
    bad="y = a * a",
    fixed="y = a * b",
)
'''
CHECK = '''

def self_operand(c: Call) -> Finding | None:
    x, y = c.args.source("input", 0), c.args.source("other", 1)
    if x is None or x != y:
        return None
    return Finding(SELF_OPERAND, f"{c.label} takes {x} on both sides", "did you mean another tensor?")
'''
KERNEL = """\
import pypto

@pypto.frontend.jit
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = a + a
    out[:] = a + a  # type: ignore[pypto-self-operand]
    out[:] = a + 1.0
"""


def _copy_with_fake_rule(tmp: Path) -> Path:
    plugin = tmp / "plugin" / "mypy_plugin"
    shutil.copytree(ROOT / "mypy_plugin", plugin, ignore=shutil.ignore_patterns("__pycache__"))
    knowledge = plugin / "knowledge"
    with open(knowledge / "codes" / "op_codes.py", "a", encoding="utf-8") as f:
        f.write(ROW)
    checks = knowledge / "checks" / "elementwise.py"
    text = checks.read_text(encoding="utf-8").replace("from ..codes.op_codes import ", "from ..codes.op_codes import SELF_OPERAND, ")
    checks.write_text(text + CHECK, encoding="utf-8")
    registry = knowledge / "checks" / "registry.py"
    text = registry.read_text(encoding="utf-8")
    old = '"elementwise": (ew.dtype_mismatch,),'
    assert old in text
    registry.write_text(text.replace(old, '"elementwise": (ew.dtype_mismatch, ew.self_operand),'), encoding="utf-8")
    return tmp


def test_a_row_and_a_check_give_a_reported_code(tmp_path: Path) -> None:
    work = _copy_with_fake_rule(tmp_path)
    (work / "k.py").write_text(KERNEL, encoding="utf-8")
    (work / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(work / "plugin")}  # the copy before the installed plugin
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", "k.py"],
        cwd=work, env=env, capture_output=True, text=True, timeout=300,
    )
    out = proc.stdout
    assert "k.py:6: error: operator + takes a on both sides  [pypto-self-operand]" in out, out + proc.stderr
    assert "k.py:6: note: did you mean another tensor?" in out, out
    assert out.count(": error:") == 1, out
    listed = subprocess.run(
        [sys.executable, "-c", "from mypy_plugin.cli.catalogue import list_codes; print(list_codes())"],
        cwd=work, env=env, capture_output=True, text=True, timeout=60,
    ).stdout
    assert "pypto-self-operand" in listed and "same tensor on both sides" in listed
