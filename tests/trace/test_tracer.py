"""The body tracer (mypy_plugin/trace/) on its own: no mypy. Each case traces one function of a
module written here and asserts its findings (code, line, message) and what it returns."""

from __future__ import annotations

import ast
import textwrap

import pytest

from mypy_plugin.knowledge.tiles import HELPER_ENTRY, NOT_SET, UNKNOWN, TileState
from mypy_plugin.knowledge.values import TensorVal
from mypy_plugin.trace.modules import TracedModule
from mypy_plugin.trace.run import Outcome, trace_function
from mypy_plugin.trace.state import Options, Shared
from mypy_plugin.trace.values import NONE, Num, Seq, Value, join

XB = TensorVal((16, 64), "DT_BF16")
XF = TensorVal((8, 64), "DT_FP32")


def _module(name: str, text: str) -> TracedModule:
    text = textwrap.dedent(text)
    return TracedModule(name, f"{name.replace('.', '/')}.py", text, ast.parse(text))


def trace(text: str, func: str, params: dict[str, Value], tiles: TileState = HELPER_ENTRY,
          vec_set: bool | None = True, others: dict[str, str] | None = None) -> Outcome:
    modules = {n: _module(n, t) for n, t in (others or {}).items()}
    shared = Shared(Options(), modules.get)
    found = trace_function(_module("m", text), func, params, tiles, vec_set, shared)
    assert found is not None
    return found


def codes(found: Outcome) -> list[tuple[str, int]]:
    return [(f.finding.code.name, f.line) for f in found.findings]


ROWS = """
import pypto


def rows(x):
    m = x.amax(-1, keepdim=True)
    return pypto.exp(x - m)
"""


def test_reduce_under_the_callers_tile() -> None:
    found = trace(ROWS, "rows", {"x": XB}, TileState((16, 8), NOT_SET))
    assert codes(found) == [("pypto-reduce-align", 6)]
    assert found.findings[0].message.startswith("Tensor.amax reduces the last axis of [16, 64] DT_BF16: vec tile (16, 8)")
    assert found.returned == XB


def test_aligned_tile_and_unknown_tiles_are_silent() -> None:
    assert codes(trace(ROWS, "rows", {"x": XB}, TileState((16, 16), NOT_SET))) == []
    assert codes(trace(ROWS, "rows", {"x": XB})) == []  # the helper's own entry: nothing known


def test_a_branch_on_an_unknown_python_value_is_silent_a_symbolic_one_is_not() -> None:
    text = """
    import pypto


    def f(x, flag):
        if flag:
            x = x.amax(-1, keepdim=True)
        for i in pypto.loop(4):
            if i == 0:
                x = x.sum(-1, keepdim=True)
        return x
    """
    found = trace(text, "f", {"x": XB, "flag": UNKNOWN_VALUE}, TileState((16, 8), NOT_SET))
    assert codes(found) == [("pypto-reduce-align", 10)]  # only under the loop index
    found = trace(text, "f", {"x": XB, "flag": True}, TileState((16, 8), NOT_SET))
    assert codes(found) == [("pypto-reduce-align", 7), ("pypto-reduce-align", 10)]


UNKNOWN_VALUE: Value = Num("int")


def test_tiles_set_in_a_loop_are_unknown_after_it() -> None:
    text = """
    import pypto


    def f(x, n):
        for i in range(n):
            pypto.set_vec_tile_shapes(16, 8)
        return x.sum(-1)
    """
    found = trace(text, "f", {"x": XB, "n": 3}, TileState(NOT_SET, NOT_SET))
    assert codes(found) == []  # (16, 8) after 3 passes, or no tile after none: the join is unknown
    assert found.exit_tiles.vec is UNKNOWN


def test_helpers_of_other_modules_with_the_chain() -> None:
    kernel = """
    import pypto
    from pkg.mid import softmax_rows


    def k(x):
        pypto.set_vec_tile_shapes(16, 8)
        return softmax_rows(x)
    """
    mid = "import pypto\nfrom .deep import reduce_rows\n\n\ndef softmax_rows(x):\n    return x - reduce_rows(x)\n"
    deep = "def reduce_rows(x):\n    return x.amax(-1, keepdim=True)\n"
    found = trace(kernel, "k", {"x": XB}, TileState(NOT_SET, NOT_SET), None,
                  {"pkg": "", "pkg.mid": mid, "pkg.deep": deep})
    assert [(f.module, f.line, f.via) for f in found.findings] == [
        ("pkg.deep", 2, ("softmax_rows at m.py:8", "reduce_rows at mid.py:6"))]
    assert found.exit_tiles == TileState((16, 8), NOT_SET)


def test_writes_into_outputs_and_local_lists() -> None:
    text = """
    import pypto


    def f(x, out):
        t = [16, 64]
        t[-1] = 4
        pypto.set_vec_tile_shapes(*t)
        out[:] = x.sum(-1)
    """
    found = trace(text, "f", {"x": XF, "out": XF}, TileState(NOT_SET, NOT_SET))
    assert codes(found) == [("pypto-out-shape", 9), ("pypto-reduce-align", 9)]


def test_list_comprehensions_and_range_items() -> None:
    text = """
    import pypto


    def f(x):
        tile = [1 for _ in range(len(x.shape) - 1)] + [4]
        pypto.set_vec_tile_shapes(*tile)
        return x.sum(-1)
    """
    assert codes(trace(text, "f", {"x": XF}, TileState(NOT_SET, NOT_SET))) == [("pypto-reduce-align", 8)]


def test_binding_keywords_defaults_and_star_args() -> None:
    text = """
    import pypto


    def g(x, *, axis=-1, keep=True):
        return x.amax(axis, keepdim=keep)


    def f(x):
        a = g(x)
        b = g(x, axis=0, keep=False)
        return a, b
    """
    found = trace(text, "f", {"x": XF}, TileState((8, 64), NOT_SET))
    assert found.returned == Seq((TensorVal((8, 1), "DT_FP32"), TensorVal((64,), "DT_FP32")), False)


def test_a_call_that_does_not_fit_the_helper_is_not_entered() -> None:
    text = "def g(x):\n    return x.sum(-1)\n\n\ndef f(x):\n    return g(x, 1)\n"
    found = trace(text, "f", {"x": XF}, TileState((8, 4), NOT_SET))
    assert codes(found) == [] and found.exit_tiles.vec is UNKNOWN


def test_recursion_and_budget_end_in_unknown() -> None:
    text = "def f(x):\n    return f(x)\n"
    assert trace(text, "f", {"x": XF}).returned is not XF


@pytest.mark.parametrize(("a", "b", "joined"), [
    (1, 1, 1), (1, 2, Num("int")), (1, 2.0, Num("number")), (NONE, NONE, NONE),
    (TensorVal((8, 64), "DT_FP32"), TensorVal((8, 32), "DT_FP32"), TensorVal((8, None), "DT_FP32")),
    (TensorVal((8, 64), "DT_FP32"), TensorVal((8,), "DT_FP16"), TensorVal(None, None)),
])
def test_join(a: Value, b: Value, joined: Value) -> None:
    assert join(a, b) == joined


def test_a_missing_member_is_reported_and_gives_its_torch_meaning() -> None:
    """.abs() is reported by the tracer too (a tensor only the call gives: an unannotated helper
    parameter; the plugin shows one finding per missing member); its result is torch's, so the
    ops after it are still checked."""
    text = "def f(x):\n    return x.abs().sum(-1)\n"
    found = trace(text, "f", {"x": XF}, TileState((8, 4), NOT_SET))
    assert codes(found) == [("pypto-no-method", 2), ("pypto-reduce-align", 2)]
    assert found.returned == TensorVal((8,), "DT_FP32")
