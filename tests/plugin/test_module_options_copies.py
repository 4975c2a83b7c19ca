"""Which modules get a copy of mypy's options of their own (hooks/module_options.py).

On mypy's native parser, a module that imports pypto gets one from the ``# mypy:`` line the source
rewrite appends (rewrite/module_marker.INLINE_OPTIONS); every other module keeps mypy's shared
options. Giving every module a copy (a catch-all ``[mypy-*.*]`` section) made mypy build a new
copy at every lookup, even in a warm run that analyses nothing: a sixth of such a run. Only mypy's
Python-ast parser, which reads ``# mypy:`` lines from the text before the rewrite, still needs the
catch-all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mypy.options import Options

from mypy_plugin.main import PyptoPlugin

KERNEL = """\
import pypto


@pypto.frontend.jit
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    t = pypto.exp(x)
    t = t[:, 0:32]
    out[:] = t


def untyped():
    y = 1
    y = "a"
    return y
"""

# The same rebinding in a module that does not import pypto: mypy's options, mypy's answer.
PLAIN = """\
def untyped():
    y = 1
    y = "a"
    return y
"""


@pytest.mark.parametrize("native", [True, False], ids=["native_parser", "python_ast_parser"])
def test_the_catch_all_section_only_on_the_python_ast_parser(native: bool) -> None:
    options = Options()
    options.native_parser = native
    PyptoPlugin(options)
    assert ("*.*" in options.per_module_options) is not native


@pytest.mark.parametrize("parser", [[], ["--no-native-parser"]], ids=["native_parser", "python_ast_parser"])
def test_a_module_importing_pypto_gets_the_options_and_no_other_does(tmp_path: Path, parser: list[str]) -> None:
    (tmp_path / "kernel.py").write_text(KERNEL)
    (tmp_path / "plain.py").write_text(PLAIN)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--config-file", "mypy.ini", *parser,
                          "kernel.py", "plain.py"], cwd=tmp_path, capture_output=True, text=True, check=False)
    # kernel.py: the tensor rebound to another shape and the untyped function are both accepted
    # (allow_redefinition, check_untyped_defs); plain.py: mypy's defaults skip the untyped body.
    assert out.stdout == "Success: no issues found in 2 source files\n", out.stdout + out.stderr
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n")
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--config-file", "mypy.ini", *parser,
                          "kernel.py", "plain.py"], cwd=tmp_path, capture_output=True, text=True, check=False)
    # With check_untyped_defs for everything, plain.py's rebinding is mypy's error; kernel.py's is not.
    assert [line.split(": error:")[0] for line in out.stdout.splitlines() if ": error:" in line] == ["plain.py:3"], \
        out.stdout
