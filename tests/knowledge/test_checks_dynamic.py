"""Direct tests of knowledge/checks/dynamic.py: each check on one Call, no mypy (docs/rules.md:
dynamic-dim-whole-tensor-op, dynamic-dim-slice-extent, move-retypes-local)."""

from __future__ import annotations

from typing import Any

import pytest

from mypy_plugin.knowledge.checks import dynamic as dyn
from mypy_plugin.knowledge.codes import op_codes
from mypy_plugin.knowledge.indexing import INT_KEY, Span
from mypy_plugin.knowledge.ops import OPS, SCALAR
from mypy_plugin.knowledge.shapes import DYNAMIC, dynamic_symbol
from mypy_plugin.knowledge.tiles import UNKNOWN

from knowledge.fakes import assert_finding, op_call, t

F32, F16 = "DT_FP32", "DT_FP16"
N = dynamic_symbol("N")
X = t((DYNAMIC, 64))
FFFFFF = "FFFFFF (The shape size of tensor must less than or equal to INT32_MAX)"


def _loop(name: str, step: str, view: str, offsets: str, axis: int = 0) -> str:
    return (f"loop over the dynamic dim and work on static views: for i in pypto.loop({name}.shape[{axis}] // {step}): "
            f"v = pypto.view({name}, [{view}], [{offsets}]); ...; pypto.assemble(result, [{offsets}], <output>)")


# --- dynamic_operand (rule: dynamic-dim-whole-tensor-op) -------------------------------------

def test_dynamic_operand() -> None:
    c = op_call("__mul__", X, 2.0, vec=(8, 64), sources={0: "x"})
    assert_finding(
        dyn.dynamic_operand(c), op_codes.DYNAMIC_DIM,
        "operator *: x is [DYNAMIC, 64] DT_FP32, and the frontend traces its dynamic dim 0 (DYNAMIC) as -1, "
        f"whatever the call's tensors are; 0.2.0 fails here at trace time with {FFFFFF}",
        _loop("x", "8", "8, 64", "i * 8, 0"),
    )


def test_dynamic_operand_on_the_right_of_a_matmul() -> None:
    # One dynamic operand is enough; no name and no tile: "an operand", TILE.
    c = op_call("matmul", t((16, 32), F16), t((32, N), None), "DT_FP32")
    assert_finding(
        dyn.dynamic_operand(c), op_codes.DYNAMIC_DIM,
        "pypto.matmul: an operand is [32, N], and the frontend traces its dynamic dim 1 (N) as -1, whatever the "
        "call's tensors are; 0.2.0 fails here at trace time with FC3000 (operand dim = -1, must be > 0)",
        _loop("x", "TILE", "32, TILE", "0, i * TILE", axis=1),
    )


def test_dynamic_operand_names_every_dynamic_dim() -> None:
    c = op_call("var", t((N, 4, DYNAMIC), F16), vec=(8, 4), sources={0: "h"})  # tile of another rank: TILE
    assert_finding(
        dyn.dynamic_operand(c), op_codes.DYNAMIC_DIM,
        "pypto.var: h is [N, 4, DYNAMIC] DT_FP16, and the frontend traces its dynamic dim 0 (N) and 2 (DYNAMIC) "
        "as -1, whatever the call's tensors are; 0.2.0 fails here at trace time with FC0000 (The input shape "
        "should > 0)",
        _loop("h", "TILE", "TILE, 4, DYNAMIC", "i * TILE, 0, 0"),
    )


# The ops docs/rules.md (dynamic-dim-whole-tensor-op) lists as failing at trace time with FFFFFF ...
_FAILS = [
    "__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__", "__neg__",
    "add", "sub", "mul", "div", "fmod", "remainder", "pow", "maximum", "minimum", "copysign", "gcd", "ceil_div",
    "bitwise_and", "bitwise_not", "exp", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "abs", "neg", "relu",
    "ceil", "floor", "trunc", "sin", "cos", "sigmoid", "clip", "cbrt", "reciprocal", "lrelu", "isfinite",
    "softmax", "rms_norm",
]
# ... and as compiling, or failing only later when the result is used (not reported).
_COMPILES = [
    "cast", "eq", "gt", "__lt__", "where", "logical_and", "logical_not", "exp2", "expm1", "hypot", "round", "sign",
    "signbit", "view", "sum", "amax", "amin", "prod", "cumsum", "triu", "tril", "clone", "transpose", "concat",
]


@pytest.mark.parametrize("op", _FAILS)
def test_dynamic_operand_reports_the_ops_the_docs_list(op: str) -> None:
    found = dyn.dynamic_operand(op_call(op, X, t((8, 64)), sources={0: "x"}, result=None))
    assert found is not None and found.code is op_codes.DYNAMIC_DIM
    assert found.message.endswith(f"0.2.0 fails here at trace time with {FFFFFF}")


@pytest.mark.parametrize("op", _COMPILES)
def test_dynamic_operand_silent_on_the_ops_that_compile(op: str) -> None:
    assert dyn.dynamic_operand(op_call(op, X, X, result=None)) is None


@pytest.mark.parametrize("values, kw", [
    ((t((8, 64)), t((8, 64))), {}),  # static
    ((t(("n", 64)), 2.0), {}),  # a closure symbol is an int at run time
    ((X, 2.0), {"dynamic_dim_rule": False}),  # PyPTO after 0.2
    ((X, 2.0), {"sources": {0: "x"}, "retyped": frozenset({"x"})}),  # rule move-retypes-local
    ((t(None), X), {"sources": {1: "x"}, "retyped": frozenset({"x"})}),
    ((t(None), 2.0), {}),  # unknown rank
    ((2.0, 3.0), {}),
])
def test_dynamic_operand_silent(values: tuple[object, ...], kw: dict[str, Any]) -> None:
    assert dyn.dynamic_operand(op_call("mul", *values, **kw)) is None


# --- dynamic_slice (rule: dynamic-dim-slice-extent) ------------------------------------------------

_SYMBOL = ("has the symbol as its extent; 0.2.0 sizes each sliced axis as an int and fails here at trace time "
           "(TypeError: Cannot convert symbols to int)")


@pytest.mark.parametrize("x, keys, axis, dim, written, note", [
    (X, [slice(None), slice(0, 32)], 0, "DYNAMIC", ":", _loop("x", "8", "8, 64", "i * 8, 0")),
    (X, [slice(8, None)], 0, "DYNAMIC", "8:", _loop("x", "8", "8, 64", "i * 8, 0")),
    (t((8, N)), [slice(0, 4)], 1, "N", "left out", _loop("x", "64", "8, 64", "0, i * 64", axis=1)),
    (t((DYNAMIC, N)), [slice(0, 8)], 1, "N", "left out", _loop("x", "64", "DYNAMIC, 64", "0, i * 64", axis=1)),
])
def test_dynamic_slice(x: Any, keys: list[object], axis: int, dim: str, written: str, note: str) -> None:
    c = op_call("__getitem__", x, keys=keys, vec=(8, 64), sources={0: "x"}, result=None)
    assert_finding(
        dyn.dynamic_slice(c), op_codes.NOT_CONCRETE,
        f"operator []: x is {_fmt(x.shape)}, and the slice of its dynamic dim {axis} ({dim}; {written}) " + _SYMBOL,
        note,
    )


def _fmt(shape: tuple[object, ...]) -> str:
    return "[" + ", ".join(str(d).lstrip("~") for d in shape) + "]"


def test_dynamic_slice_without_a_name_or_a_tile() -> None:
    c = op_call("__getitem__", t((DYNAMIC, 64)), keys=[slice(None), Span(8)], vec=UNKNOWN, result=None)
    assert_finding(
        dyn.dynamic_slice(c), op_codes.NOT_CONCRETE,
        "operator []: the tensor is [DYNAMIC, 64], and the slice of its dynamic dim 0 (DYNAMIC; :) " + _SYMBOL,
        _loop("x", "TILE", "TILE, 64", "i * TILE, 0"),
    )


@pytest.mark.parametrize("x, keys, kw", [
    (X, [slice(None)], {}),  # x[:]: the whole tensor
    (X, [slice(None), slice(None)], {}),  # x[:, :]
    (X, [slice(-8, None)], {}),  # extent 8
    (X, [slice(0, 8)], {}),
    (X, [Span(8), slice(0, 32)], {}),  # x[i * 8:(i + 1) * 8, 0:32]
    (X, [slice(0, 8), slice(None)], {}),  # the static axis may be ':'
    (X, [0], {}),  # int keys: not modelled
    (X, [INT_KEY, slice(0, 8)], {}),
    (X, [Ellipsis, slice(0, 8)], {}),
    (X, [slice(None), slice(None), slice(None)], {}),  # more keys than dims
    (t((8, 64)), [slice(None), slice(0, 32)], {}),  # static
    (X, [slice(None), slice(0, 32)], {"dynamic_dim_rule": False}),
    (X, [slice(None), slice(0, 32)], {"sources": {0: "x"}, "retyped": frozenset({"x"})}),
    (t(None), [slice(0, 8)], {}),
])
def test_dynamic_slice_silent(x: Any, keys: list[object], kw: dict[str, Any]) -> None:
    assert dyn.dynamic_slice(op_call("__getitem__", x, keys=keys, result=None, **kw)) is None


# --- without_dynamic_dims: the result after a dynamic-dim finding ------------------------------------

def test_without_dynamic_dims() -> None:
    assert dyn.without_dynamic_dims(t((DYNAMIC, 64, N))) == t((None, 64, None))
    assert dyn.without_dynamic_dims((t((N, 4)), t((8,), F16))) == (t((None, 4)), t((8,), F16))
    assert dyn.without_dynamic_dims(t(None)) == t(None)
    assert dyn.without_dynamic_dims(SCALAR) is SCALAR
    assert dyn.without_dynamic_dims(None) is None


def test_the_docs_lists_match_the_op_table() -> None:
    # Every row the docs list as failing has a reaction in its row; none of the others has one.
    assert all(OPS[op].on_dynamic == FFFFFF for op in _FAILS)
    assert all(OPS[op].on_dynamic is None for op in _COMPILES)
