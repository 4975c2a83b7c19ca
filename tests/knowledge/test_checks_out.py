"""Direct tests of knowledge/checks/out.py: each write check on one Write, no mypy (docs/rules.md:
write-unchecked; the int-index reshape of ``Tensor.__setitem__``)."""

from __future__ import annotations

from typing import Any

import pytest

from mypy_plugin.knowledge.checks import out
from mypy_plugin.knowledge.codes import op_codes
from mypy_plugin.knowledge.indexing import INT_KEY, Span

from knowledge.fakes import assert_finding, t, write

F32, BF16 = "DT_FP32", "DT_BF16"
_SILENT = "PyPTO 0.2.0 does not check this: the kernel compiles and writes wrong data"
WHOLE = [slice(None)]


# --- write_rank: out[i] = row needs one dim per slice ---------------------------------------------

@pytest.mark.parametrize("dest, keys, value, region, ints", [
    (t((4, 64)), [0], t((1, 64)), "[64]", "1 int index"),
    (t((8, 16)), [INT_KEY, slice(None)], t((8, 16)), "[16]", "1 int index"),
    (t((2, 4, 64)), [INT_KEY, 1], t((1, 64)), "[64]", "2 int indices"),
])
def test_write_rank(dest: Any, keys: list[object], value: Any, region: str, ints: str) -> None:
    dest_text, value_text = (", ".join(map(str, s)) for s in (dest.shape, value.shape))
    assert_finding(
        out.write_rank(write(dest, value, keys)), op_codes.OUT_SHAPE,
        f"writes a [{value_text}] result into the region {region} of out [{dest_text}] through {ints}: the frontend "
        "needs a value with one dim per slice (1) and fails at trace time (AssertionError: The number of slice in "
        f"key (1) must match the length of input Tensor ({len(value.shape)}))",
        f"write a {region} value (pypto.reshape(x, {region})) or index with slices (out[i:i + 1, :] = x)",
    )


@pytest.mark.parametrize("dest, keys, value", [
    (t((4, 64)), [0], t((64,))),  # one dim per slice: assembled
    (t((4, 64)), [INT_KEY, slice(0, 32)], t((32,))),
    (t((4, 64)), [slice(0, 1), slice(None)], t((1, 64))),  # slices only: no reshape
    (t((4, 64)), WHOLE, t((1, 64))),  # a move: rule write-unchecked instead
    (t((4, 64)), None, t((1, 64))),  # out.move(value)
    (t((4, 64)), [0], t(None)),  # unknown rank
    (t(None), [0], t((1, 64))),
    (t((4, 64)), [0, None], t((1, 64))),  # an unknown key
])
def test_write_rank_silent(dest: Any, keys: list[object] | None, value: Any) -> None:
    assert out.write_rank(write(dest, value, keys)) is None


# --- write_shape (rule: write-unchecked) -------------------------------------------------------

@pytest.mark.parametrize("dest, keys, value, into, fix", [
    (t((8, 8)), WHOLE, t((8, 16)), "out [8, 8]", "make the result [8, 8], or fix the annotation of out"),
    (t((8, 8)), None, t((8, 16)), "out [8, 8]", "make the result [8, 8], or fix the annotation of out"),
    (t((8, 1)), [slice(None), slice(None)], t((8,)), "out [8, 1]",
     "the result has no size-1 axis 1: reduce with keepdim=True, or reshape it to [8, 1]"),
    (t((1, 8)), WHOLE, t((8,)), "out [1, 8]",
     "the result has no size-1 axis 0: reduce with keepdim=True, or reshape it to [1, 8]"),
    (t((8, 16)), [slice(None), slice(None)], t((16, 8)), "out [8, 16]",
     "same number of elements: reshape the result to [8, 16] before writing it"),
    (t((8, 16)), [slice(0, 4), slice(None)], t((8, 16)), "the region [4, 16] of out [8, 16]",
     "make the result [4, 16], or write it into a region of out of its shape [8, 16]"),
    (t((8, 16)), [Span(4)], t((8, 16)), "the region [4, 16] of out [8, 16]",
     "make the result [4, 16], or write it into a region of out of its shape [8, 16]"),
    (t((8, 16)), WHOLE, t((8, 16, 2)), "out [8, 16]", "make the result [8, 16], or fix the annotation of out"),
])
def test_write_shape(dest: Any, keys: list[object] | None, value: Any, into: str, fix: str) -> None:
    shape = ", ".join(map(str, value.shape))
    assert_finding(
        out.write_shape(write(dest, value, keys)), op_codes.OUT_SHAPE,
        f"writes a [{shape}] result into {into}; {_SILENT}", fix,
    )


# --- write_assemble_rank (rule: assemble-rank) ------------------------------------------------

@pytest.mark.parametrize("dest, keys, value, into", [
    (t((8, 1)), [slice(0, 8), slice(0, 1)], t((8,)), "the region [8, 1] of out [8, 1]"),
    (t((8, 1)), [Ellipsis], t((8,)), "out [8, 1]"),
    (t((8, 1)), [slice(0, 8)], t((8,)), "the region [8, 1] of out [8, 1]"),
    (t((8, 64)), [slice(0, 8), slice(None)], t((1, 8, 64)), "the region [8, 64] of out [8, 64]"),
])
def test_write_assemble_rank(dest: Any, keys: list[object], value: Any, into: str) -> None:
    found = out.write_assemble_rank(write(dest, value, keys))
    assert found is not None and found.code is op_codes.OUT_SHAPE
    assert found.message.startswith(f"writes a [{', '.join(map(str, value.shape))}] result into {into}: an assemble "
                                    f"needs a value of the destination's rank ({len(dest.shape)}), and 0.2.0 fails at "
                                    "trace time (CHECK FAILED: Assemble: src and dest requires same shape)")
    assert out.write_shape(write(dest, value, keys)) is None  # one finding: the trace-time one


@pytest.mark.parametrize("dest, keys, value", [
    (t((8, 1)), WHOLE, t((8,))),  # a move: compiles (write_shape says so)
    (t((8, 1)), None, t((8,))),
    (t((8, 64)), [slice(0, 8), slice(0, 32)], t((8, 64))),  # same rank: dims are not compared
    (t((4, 64)), [0], t((64,))),  # an int index: write_rank's reshape
    (t((8, 1)), [slice(0, 8), slice(0, 1)], t(None)),
])
def test_write_assemble_rank_silent(dest: Any, keys: list[object] | None, value: Any) -> None:
    assert out.write_assemble_rank(write(dest, value, keys)) is None


def test_write_shape_names_the_target() -> None:
    assert_finding(
        out.write_shape(write(t((8, 1)), t((8, 4)), None, target="o3")), op_codes.OUT_SHAPE,
        f"writes a [8, 4] result into o3 [8, 1]; {_SILENT}",
        "make the result [8, 1], or fix the annotation of o3",
    )


@pytest.mark.parametrize("dest, keys, value", [
    (t((8, 16)), WHOLE, t((8, 16))),
    (t((8, 16)), [slice(0, 4)], t((4, 16))),
    (t((8, 16)), [Span(8)], t((8, 16))),
    (t(("n", 16)), WHOLE, t((8, 16))),  # a symbol may be 8
    (t((8, 16)), WHOLE, t((None, 16))),
    (t((8, 16)), WHOLE, t((None, 8, 16))),  # ranks differ, but a dim is unknown
    (t((8, 16)), WHOLE, t(None)),
    (t((8, 16)), [slice(20, 30)], t((4, 16))),  # out of range: the region's size is not provable
    (t((4, 64)), [0], t((1, 64))),  # the rank failure at trace time comes first (write_rank)
])
def test_write_shape_silent(dest: Any, keys: list[object] | None, value: Any) -> None:
    assert out.write_shape(write(dest, value, keys)) is None


# --- write_dtype (rule: write-unchecked) -------------------------------------------------------

@pytest.mark.parametrize("keys", [None, WHOLE, [slice(0, 4)]])
def test_write_dtype(keys: list[object] | None) -> None:
    assert_finding(
        out.write_dtype(write(t((8, 16), BF16), t((8, 16), F32), keys)), op_codes.OUT_DTYPE,
        f"writes a DT_FP32 result into out, which is DT_BF16; {_SILENT}",
        "cast it first: pypto.cast(x * 2.0, pypto.DT_BF16)",
    )


def test_write_dtype_without_the_value_text() -> None:
    found = out.write_dtype(write(t((8, 16), BF16), t((8, 16), F32), WHOLE, value_text=None))
    assert found is not None and found.note == "cast it first: pypto.cast(<the value>, pypto.DT_BF16)"


@pytest.mark.parametrize("dest, value", [
    (t((8, 16), BF16), t((8, 16), BF16)),
    (t((8, 16), BF16), t((4, 4), BF16)),  # a shape error is not a dtype error
    (t((8, 16), None), t((8, 16), F32)),
    (t((8, 16), BF16), t((8, 16), None)),
])
def test_write_dtype_silent(dest: Any, value: Any) -> None:
    assert out.write_dtype(write(dest, value)) is None


# --- check_write: the write path ---------------------------------------------------------------

def test_check_write_reports_in_order() -> None:
    found = out.check_write(write(t((4, 64), BF16), t((1, 64), F32), [0]))
    assert [f.code for f in found] == [op_codes.OUT_SHAPE, op_codes.OUT_DTYPE]
    assert found == [out.write_rank(write(t((4, 64), BF16), t((1, 64), F32), [0])),
                     out.write_dtype(write(t((4, 64), BF16), t((1, 64), F32), [0]))]
    assert [f.code for f in out.check_write(write(t((8, 1), BF16), t((8,), F32), WHOLE))] == [
        op_codes.OUT_SHAPE, op_codes.OUT_DTYPE]
    assert out.check_write(write(t((8, 16)), t((8, 16)), WHOLE)) == []


@pytest.mark.parametrize("keys, whole", [
    (None, True), ([slice(None)], True), ([slice(None), slice(None)], True),
    ([Ellipsis], False), ([slice(None), Ellipsis], False),  # an assemble (Tensor._is_empty_slice: probed)
    ([], False), ([slice(0, None)], False), ([0], False), ([slice(None), 0], False),
])
def test_is_whole(keys: list[object] | None, whole: bool) -> None:
    assert write(t((8, 16)), t((8, 16)), keys).whole is whole
