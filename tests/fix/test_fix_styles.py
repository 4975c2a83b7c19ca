"""``pypto-check --fix --fix-style operators|subscript``: the exact rewritten text, comments and
lines kept, idempotence, and what each style must leave alone."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mypy_plugin import fix
from mypy_plugin.fix import styles
from mypy_plugin.fix.apply import run

# A long run (each style rewrite is re-checked by mypy several times): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow

CONFIG = "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n"
HEAD = "import pypto\n\n\n@pypto.frontend.jit\n"


def _restyle(tmp_path: Path, body: str, style: str) -> tuple[str, int]:
    """Fix and restyle ``body`` (a kernel after HEAD); the new text and how many rewrites."""
    (tmp_path / "mypy.ini").write_text(CONFIG)
    src = tmp_path / "kernel.py"
    if body:
        src.write_text(HEAD + textwrap.dedent(body))
    args = ["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache")]
    outcome = run([str(src)], args)
    count = styles.restyle([str(src)], args, style, outcome)
    outcome.write()
    return src.read_text(), count


def _kernel(text: str) -> str:
    return HEAD + textwrap.dedent(text)


def test_the_cli_names_every_style() -> None:
    assert fix.STYLES == tuple(styles.STYLES)


def test_operators_nested_with_the_parentheses_they_need(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), y: pypto.Tensor([8, 64], pypto.DT_FP32),
          out: pypto.Tensor([8, 64], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        a = pypto.mul(pypto.add(x, y), 2.0)  # scaled sum
        b = pypto.sub(x, pypto.sub(a, y))
        c = pypto.div(pypto.mul(a, b), pypto.add(b, 1.0)).exp()
        out[:] = pypto.add(c, pypto.mul(a, b))
    '''
    text, count = _restyle(tmp_path, body, "operators")
    assert text == _kernel(body.replace(
        "pypto.mul(pypto.add(x, y), 2.0)", "(x + y) * 2.0").replace(
        "pypto.sub(x, pypto.sub(a, y))", "x - (a - y)").replace(
        "pypto.div(pypto.mul(a, b), pypto.add(b, 1.0)).exp()", "(a * b / (b + 1.0)).exp()").replace(
        "pypto.add(c, pypto.mul(a, b))", "c + a * b"))
    assert count == 9
    assert _restyle(tmp_path, "", "operators") == (text, 0)  # a second run changes nothing


def test_operators_leave_a_scalar_first_an_alpha_and_a_multi_line_call(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        a = pypto.add(2.0, pypto.mul(x, 3.0))
        b = pypto.add(a, x, alpha=2.0)
        out[:] = pypto.sub(
            b, x  # keep
        )
    '''
    text, count = _restyle(tmp_path, body, "operators")
    # pypto.add(2.0, y) is not 2.0 + y (y.__radd__): refuted by its first operand, the rest kept
    assert (text, count) == (_kernel(body.replace("pypto.mul(x, 3.0)", "x * 3.0")), 1)


def test_subscript_annotations_in_the_forms_0_2_0_compiles(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP16),  # input
          y: pypto.Tensor((8, 64), pypto.DT_FP16, "y"),
          z: pypto.Tensor([pypto.STATIC, 64], pypto.DT_FP16),
          out: pypto.Tensor([8, ...], pypto.DT_FP16)):
        pypto.set_vec_tile_shapes(8, 64)
        out[:] = x + y + z
    '''
    text, count = _restyle(tmp_path, body, "subscript")
    assert text == _kernel(body.replace("pypto.Tensor([8, 64], pypto.DT_FP16)", "pypto.Tensor[[8, 64], pypto.DT_FP16]")
                           .replace('pypto.Tensor((8, 64), pypto.DT_FP16, "y")', 'pypto.Tensor[(8, 64), pypto.DT_FP16, "y"]')
                           .replace("pypto.Tensor([pypto.STATIC, 64], pypto.DT_FP16)",
                                    "pypto.Tensor[[pypto.STATIC, 64], pypto.DT_FP16]")
                           .replace("pypto.Tensor([8, ...], pypto.DT_FP16)", "pypto.Tensor[[8, ...], pypto.DT_FP16]"))
    assert count == 4
    assert _restyle(tmp_path, "", "subscript") == (text, 0)


def test_subscript_leaves_no_dtype_dynamic_dims_the_body_and_other_functions(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64]), y: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
          out: pypto.Tensor([], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        t = pypto.Tensor([8, 64], pypto.DT_FP32)
        out[:] = x


    def helper(x: pypto.Tensor([8, 64], pypto.DT_FP32)) -> None:  # not a kernel: its annotation stays
        pass
    '''
    text, count = _restyle(tmp_path, body, "subscript")
    assert text == _kernel(body.replace("out: pypto.Tensor([], pypto.DT_FP32)", "out: pypto.Tensor[[], pypto.DT_FP32]"))
    assert count == 1
