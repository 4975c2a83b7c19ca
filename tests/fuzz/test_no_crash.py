"""Random kernel bodies, sensible and not: mypy with the plugin never crashes.

Each example is a module of generated annotations and statements (odd dims, bad axes,
starred tiles, broken slices, calls with the wrong arity, garbage annotations). The only
assertion is mypy's own: no INTERNAL ERROR, no traceback, an exit status of 0 or 1
(or 2 for a generated syntax error).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mypy import api

# A long run (random kernel bodies through mypy): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow

DIMS = st.sampled_from(["8", "64", "1", "0", "-1", "N", "pypto.DYNAMIC", "pypto.STATIC", "...", "2 * N", "x.shape[0]", "'M'", "1.5", "[]", "None"])
DTYPES = st.sampled_from(["pypto.DT_FP32", "pypto.DT_FP16", "pypto.DT_BF16", "pypto.DT_INT8", "pypto.DT_BOOL", "dt", "'x'", "3", "pypto.TileOpFormat.TILEOP_NZ"])
NAMES = st.sampled_from(["a", "b", "c", "s", "t", "1.0", "2", "pypto.DT_FP32", "None", "[a, b]", "(a, b)"])
INTS = st.sampled_from(["0", "1", "-1", "-3", "2", "7", "100", "N", "x", "True", "*T", "**kw"])


@st.composite
def annotation(draw: st.DrawFn) -> str:
    dims = ", ".join(draw(st.lists(DIMS, max_size=4)))
    dtype = draw(DTYPES)
    form = draw(st.integers(0, 6))
    return [
        f"pypto.Tensor([{dims}], {dtype})",
        f"pypto.Tensor[[{dims}], {dtype}]",
        f"pypto.Tensor(({dims}), dtype={dtype}, format=fmt, name='n')",
        f"pypto.Tensor[{{'shape': [{dims}], 'dtype': {dtype}}}]",
        "pypto.Tensor()",
        f"pypto.Tensor(*{dims or 'x'})",
        f"pypto.Tensor[{dims or '...'}]",
    ][form]


@st.composite
def statement(draw: st.DrawFn) -> str:
    x, y = draw(NAMES), draw(NAMES)
    i, j = draw(INTS), draw(INTS)
    kind = draw(st.integers(0, 15))
    return [
        f"s = {x} + {y} * {x}",
        f"s = pypto.sum({x}, {i}, keepdim={draw(st.sampled_from(['True', 'False', 'k']))})",
        f"s = {x}.amax({i})",
        f"s = pypto.matmul({x}, {y}, {draw(DTYPES)}, a_trans={draw(st.sampled_from(['True', 'False', 'f']))}, b_trans=True)",
        f"s = {x} @ {y}",
        f"pypto.set_vec_tile_shapes({i}, {j})",
        f"pypto.set_cube_tile_shapes([{i}, {j}], [{j}], [{i}, {i}, {i}])",
        f"s = {x}[{i}:{j}, ::{draw(st.sampled_from(['1', '2', 'i']))}]",
        f"s = {x}[..., {i}, ...]",
        f"s = {x}.reshape([{i}, {j}])",
        f"s = pypto.view({x}, [{i}], [{j}])",
        f"s = pypto.concat([{x}, {y}], {i})",
        f"s = pypto.transpose({x}, {i}, {j}).T",
        f"s = {x}.abs().mean({i})",
        f"for it in pypto.loop({i}):\n        s = {x}[it * {j}:(it + 1) * {j}, :]\n        pypto.set_vec_tile_shapes({j}, {i})",
        f"if {x}:\n        pypto.set_vec_tile_shapes({i})\n    else:\n        s = pypto.softmax({y}, {i})",
    ][kind]


@st.composite
def module(draw: st.DrawFn) -> str:
    params = [f"p{n}: {draw(annotation())}" for n in range(draw(st.integers(0, 3)))]
    body = draw(st.lists(statement(), min_size=1, max_size=8))
    head = "import pypto\nfrom typing import Final\nN = 8\nT = (8, 4)\nK: Final = 16\n"
    return (
        head
        + "@pypto.frontend.jit\n"
        + f"def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), b: pypto.Tensor([64, 8], pypto.DT_FP16), {', '.join(params)}):\n"
        + "".join(f"    {line}\n" for line in body)
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(source=module())
def test_mypy_never_crashes(tmp_path: Path, source: str) -> None:
    path = tmp_path / "kernel.py"
    path.write_text(source)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = mypy_plugin\n")
    stdout, stderr, status = api.run(
        ["--config-file", str(config), "--no-incremental", "--show-traceback", str(path)]
    )
    report = stdout + stderr
    assert "INTERNAL ERROR" not in report and "Traceback" not in report, f"{source}\n{report}"
    # 2 is also mypy's status for a syntax error in the generated code, which is fine.
    assert status in (0, 1) or "[syntax]" in report, f"{source}\n{report}"
