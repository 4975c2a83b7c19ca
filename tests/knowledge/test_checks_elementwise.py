"""Direct tests of knowledge/checks/elementwise.py: each check on one Call, no mypy (docs/rules.md,
Elementwise ops: no-dtype-promotion, scalar-keeps-dtype, compare-float-scalar; concat-dtypes)."""

from __future__ import annotations

from typing import Any

import pytest

from mypy_plugin.knowledge.checks import elementwise as ew
from mypy_plugin.knowledge.codes import op_codes

from knowledge.fakes import assert_finding, op_call, t

F32, F16, BF16, I32 = "DT_FP32", "DT_FP16", "DT_BF16", "DT_INT32"
_FC0000 = "; PyPTO does not promote dtypes: the compiler raises FC0000 (The dtype of input tensors are not same.)"


# --- dtype_mismatch (rule: no-dtype-promotion) -----------------------------------------------

def test_dtype_mismatch_names_both_casts() -> None:
    c = op_call("__mul__", t((8, 16), BF16), t((8, 16), F32), sources={0: "a", 1: "b"})
    assert_finding(
        ew.dtype_mismatch(c), op_codes.DTYPE_MISMATCH,
        "operator * mixes DT_BF16 [8, 16] and DT_FP32 [8, 16]" + _FC0000,
        "cast one side first, e.g. pypto.cast(b, pypto.DT_BF16) (or pypto.cast(a, pypto.DT_FP32))",
    )


def test_dtype_mismatch_without_names() -> None:
    c = op_call("maximum", t((8, 1), I32), t((None, 16), F16))
    assert_finding(
        ew.dtype_mismatch(c), op_codes.DTYPE_MISMATCH,
        "pypto.maximum mixes DT_INT32 [8, 1] and DT_FP16 [?, 16]" + _FC0000,
        "cast one side first, e.g. pypto.cast(other, pypto.DT_INT32)",
    )


def test_dtype_mismatch_in_where_compares_x_and_y() -> None:
    c = op_call("where", named={"condition": t((8, 16), "DT_BOOL"), "input": t((8, 16), F16),
                                "other": t((8, 16), F32)}, sources={"other": "y"})
    assert_finding(
        ew.dtype_mismatch(c), op_codes.DTYPE_MISMATCH,
        "pypto.where mixes DT_FP16 [8, 16] and DT_FP32 [8, 16]" + _FC0000,
        "cast one side first, e.g. pypto.cast(y, pypto.DT_FP16)",
    )


@pytest.mark.parametrize("x, y", [
    (t((8, 16), BF16), t((8, 16), BF16)),
    (t((8, 16), BF16), 1.5),  # rule scalar-keeps-dtype: a scalar takes the tensor's dtype
    (t((8, 16), I32), 1.5),
    (2, t((8, 16), F16)),
    (t((8, 16), None), t((8, 16), F32)),  # unknown dtype
    (t((8, 16), F16), t(None, None)),
    (t((8, 16), F16), object()),  # a tensor or a scalar, we cannot tell
])
def test_dtype_mismatch_silent(x: object, y: object) -> None:
    assert ew.dtype_mismatch(op_call("add", x, y)) is None


# --- concat_dtypes (rule: concat-dtypes) ------------------------------------------------------

def test_concat_dtypes() -> None:
    c = op_call("concat", [t((8, 16), F32), t((8, 16), BF16)], 0)
    assert_finding(
        ew.concat_dtypes(c), op_codes.DTYPE_MISMATCH,
        "pypto.concat joins tensors of dtypes DT_FP32, DT_BF16; the compiler raises FC0000 "
        "(The dataType of all tensors should be equal)",
        "cast them to one dtype with pypto.cast first",
    )
    # Every known dtype is listed, in order (repeats too); an unknown one is left out.
    c = op_call("concat", [t((8, 16), F16), t((8, 16), None), t((8, 16), F16), t((8, 16), F32)], 0)
    found = ew.concat_dtypes(c)
    assert found is not None and found.code is op_codes.DTYPE_MISMATCH
    assert found.message.startswith("pypto.concat joins tensors of dtypes DT_FP16, DT_FP16, DT_FP32; ")


@pytest.mark.parametrize("tensors", [
    [t((8, 16), F32), t((8, 16), F32)],
    [t((8, 16), F32), t((8, 16), None), t((4, 16), F32)],  # the unknown one may be FP32
    [t((8, 16), None), t((8, 16), None)],
    [t((8, 16), BF16)],
    [],
    None,  # not a list literal
])
def test_concat_dtypes_silent(tensors: Any) -> None:
    assert ew.concat_dtypes(op_call("concat", tensors, 0)) is None


# --- int_scalar (rule: compare-float-scalar) ----------------------------------------------------

_TYPE_ERROR = ("; 0.2.0 compares a tensor only with a tensor or a float and fails at trace time "
               "(TypeError: Compare(): incompatible function arguments)")


@pytest.mark.parametrize("op, values, sources, written, fix", [
    ("gt", (t((8, 16)), 0), {}, "the Python int 0", "0.0"),
    ("__lt__", (t((8, 16), I32), 4), {}, "the Python int 4", "4.0"),  # an INT32 tensor too
    ("lt", (0, t((8, 16))), {}, "the Python int 0", "0.0"),  # an int on the left
    ("eq", (t((8, 16)), 8), {1: "n"}, "the Python int n (= 8)", "float(n)"),
    ("__ne__", (t((8, 16)), -1), {}, "the Python int -1", "-1.0"),
])
def test_int_scalar(op: str, values: tuple[object, ...], sources: dict[Any, str], written: str, fix: str) -> None:
    assert_finding(
        ew.int_scalar(op_call(op, *values, sources=sources)), op_codes.COMPARE_INT,
        f"compares a tensor with {written}" + _TYPE_ERROR, f"compare with a float: {fix}",
    )


@pytest.mark.parametrize("op, values", [
    ("gt", (t((8, 16)), 0.0)),  # a float compiles
    ("gt", (t((8, 16)), t((8, 16)))),  # a tensor compiles
    ("ge", (1, 2)),  # no tensor: not a tensor comparison
    ("gt", (t((8, 16)), object())),  # not provably an int
    ("add", (t((8, 16)), 1)),  # elementwise ops take ints
    ("logical_and", (t((8, 16), "DT_BOOL"), 1)),  # its row takes int scalars
])
def test_int_scalar_silent(op: str, values: tuple[object, ...]) -> None:
    assert ew.int_scalar(op_call(op, *values)) is None
