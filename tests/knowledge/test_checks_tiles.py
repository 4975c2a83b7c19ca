"""Direct tests of knowledge/checks/tiles.py: each check on one Call, no mypy (docs/rules.md, Tiles
and Reductions)."""

from __future__ import annotations

from typing import Any

import pytest

from mypy_plugin.knowledge.checks import tiles as tc
from mypy_plugin.knowledge.codes import op_codes
from mypy_plugin.knowledge.tiles import NOT_SET, UNKNOWN

from knowledge.fakes import assert_finding, op_call, t

F32, F16, BF16, I8 = "DT_FP32", "DT_FP16", "DT_BF16", "DT_INT8"
A = t((8, 64))
SET_VEC = "call pypto.set_vec_tile_shapes(...) earlier in the kernel, one entry per dim of the output"


def _ones_note(fix: str, k: int, dtype: str = F32, name: str = "a") -> str:
    return (f"{fix}, or reduce with a ones vector: pypto.matmul({name}, ones, pypto.DT_FP32) with "
            f"ones = pypto.full([{k}, 1], 1.0, pypto.{dtype})")


# --- reduce_align (rules: reduce-last-axis-32-byte, reduce-in-fp32, reduce-negative-axis) ---------

def test_reduce_align_fp32_tile_of_4() -> None:
    c = op_call("sum", A, -1, vec=(8, 4), sources={0: "a"})
    assert_finding(
        tc.reduce_align(c), op_codes.REDUCE_ALIGN,
        "pypto.sum reduces the last axis of [8, 64] DT_FP32: vec tile (8, 4) has 4 at index 1, 4 x 4 bytes = 16 "
        "bytes, not a multiple of 32 bytes (a multiple of 8 elements); the compiler raises FC1001",
        _ones_note("set that tile entry to a multiple of 8 (e.g. 8)", 64),
    )


def test_reduce_align_bf16_sum_counts_2_bytes() -> None:
    c = op_call("amax", t((8, 64), BF16), -1, vec=(8, 8))
    assert_finding(
        tc.reduce_align(c), op_codes.REDUCE_ALIGN,
        "pypto.amax reduces the last axis of [8, 64] DT_BF16: vec tile (8, 8) has 8 at index 1, 8 x 2 bytes = 16 "
        "bytes, not a multiple of 32 bytes (a multiple of 16 elements); the compiler raises FC1001",
        _ones_note("set that tile entry to a multiple of 16 (e.g. 16)", 64, BF16, "<input>"),
    )


def test_reduce_align_widening_reduction_counts_4_bytes() -> None:
    c = op_call("softmax", t((8, 64), F16), -1, vec=(8, 4), sources={0: "h"})
    assert_finding(
        tc.reduce_align(c), op_codes.REDUCE_ALIGN,
        "pypto.softmax reduces the last axis of [8, 64] DT_FP16 (reduced as DT_FP32): vec tile (8, 4) has 4 at "
        "index 1, 4 x 4 bytes = 16 bytes, not a multiple of 32 bytes (a multiple of 8 elements); the compiler "
        "raises FC1001",
        _ones_note("set that tile entry to a multiple of 8 (e.g. 8)", 64, F16, "h"),
    )


@pytest.mark.parametrize("op, x, rest, vec, tile_bytes", [
    ("sum", t((8, 64), I8), (-1,), (8, 16), "16 x 1 bytes = 16"),  # int8: 32 elements
    ("sum", t((2, 8, 64)), (2,), (1, 8, 12), "12 x 4 bytes = 48"),
    ("sum", A, (-1,), (8, 4, 8), "4 x 4 bytes = 16"),  # indexed by the tensor's rank, not the tile's last entry
    ("amax", A, (-3,), (8, 4), "4 x 4 bytes = 16"),  # rule reduce-negative-axis: checked as the last axis
    ("var", A, (), (8, 4), "4 x 4 bytes = 16"),  # var() reduces every axis, the last one too
    ("rms_norm", t((8, 64), BF16), (), (8, 4), "4 x 4 bytes = 16"),  # always the last axis, in fp32
    ("sum", t((8, 64), "DT_INT16"), (-1,), (8, 8), "8 x 2 bytes = 16"),
])
def test_reduce_align_reports(op: str, x: Any, rest: tuple[object, ...], vec: tuple[int, ...], tile_bytes: str) -> None:
    found = tc.reduce_align(op_call(op, x, *rest, vec=vec))
    assert found is not None and found.code is op_codes.REDUCE_ALIGN
    assert f", {tile_bytes} bytes, not a multiple of 32 bytes" in found.message


def test_reduce_align_dim_fallback() -> None:
    c = op_call("sum", t((8, 60)), 1, vec=UNKNOWN, reduce_align_fallback="dim", sources={0: "a"})
    assert_finding(
        tc.reduce_align(c), op_codes.REDUCE_ALIGN,
        "pypto.sum reduces the last axis of [8, 60] DT_FP32: last dim 60 x 4 bytes = 240 bytes is not a multiple "
        "of 32 bytes (reduce_align_fallback = \"dim\": the vec tile is not known here)",
        _ones_note("pad the last dim to a multiple of 8 (e.g. 64)", 60),
    )


@pytest.mark.parametrize("op, x, rest, kw", [
    ("sum", A, (-1,), {"vec": (8, 8)}),  # 8 x 4 = 32 bytes
    ("sum", t((8, 64), BF16), (-1,), {"vec": (8, 16)}),  # 16 x 2 = 32 bytes
    ("sum", t((8, 64), I8), (-1,), {"vec": (8, 32)}),  # 32 x 1 = 32 bytes
    ("softmax", t((8, 64), BF16), (-1,), {"vec": (8, 8)}),  # rule reduce-in-fp32: 8 x 4 bytes
    ("var", t((8, 64), F16), (-1,), {"vec": (8, 8)}),
    ("sum", A, (-1,), {"vec": (1, 8, 4)}),  # tile[rank - 1] = 8: its last entry does not count
    ("sum", A, (0,), {"vec": (8, 4)}),  # not the last axis: never checked
    ("sum", A, (-1,), {"vec": (8, 4), "reduce_align_rule": False}),  # pypto_version 0.3
    ("sum", t((8, 64), None), (-1,), {"vec": (8, 4)}),  # unknown dtype
    ("sum", t((8, 64), "DT_MYSTERY"), (-1,), {"vec": (8, 4)}),  # a dtype with no known size
    ("sum", t(None), (-1,), {"vec": (8, 4)}),  # unknown rank
    ("sum", A, (object(),), {"vec": (8, 4)}),  # axis not a constant
    ("sum", A, (-1,), {"vec": (4,)}),  # tile shorter than the tensor: rule vec-tile-rank instead
    ("sum", A, (-1,), {"vec": (8, None)}),  # entry not a constant
    ("sum", t((8, 60)), (-1,), {"vec": UNKNOWN}),  # unknown tile, fallback "tile"
    ("sum", t((8, 60)), (-1,), {"vec": NOT_SET, "reduce_align_fallback": "dim"}),  # no tile: tile-missing
    ("sum", A, (-1,), {"vec": UNKNOWN, "reduce_align_fallback": "dim"}),  # 64 x 4 bytes: aligned
    ("sum", t((8, None)), (-1,), {"vec": UNKNOWN, "reduce_align_fallback": "dim"}),  # unknown last dim
    ("cast", A, (F16,), {"vec": (8, 4)}),  # not a reduction
])
def test_reduce_align_silent(op: str, x: Any, rest: tuple[object, ...], kw: dict[str, Any]) -> None:
    assert tc.reduce_align(op_call(op, x, *rest, **kw)) is None


# --- vec_tile_missing (rule: vec-tile-required) ---------------------------------------------

def test_vec_tile_missing() -> None:
    assert_finding(
        tc.vec_tile_missing(op_call("__add__", A, A, vec=NOT_SET)), op_codes.TILE_MISSING,
        "operator + runs with no vec tile set in this kernel; the compiler raises F21004 (tile shape not set)",
        SET_VEC,
    )
    found = tc.vec_tile_missing(op_call("exp", A, vec=NOT_SET))
    assert found is not None and found.message == (
        "pypto.exp runs with no vec tile set in this kernel; the compiler raises F21004 (op [EXP]tile shape not set)")
    assert found.cause == tc.NO_VEC_TILE  # one root cause with every other op before a tile is set


def test_vec_tile_missing_cast_names_the_cast() -> None:
    # scripts/probe_no_tile.py: a cast that changes the dtype builds a CAST, which needs the tile
    found = tc.vec_tile_missing(op_call("cast", t((8, 64), F16), F32, vec=NOT_SET))
    assert found is not None and found.message.endswith("the compiler raises F21004 (op [CAST]tile shape not set)")


@pytest.mark.parametrize("values, vec", [
    ((A, A), (8, 64)),
    ((A, A), UNKNOWN),  # a helper: a tile may be set before it is called
    ((1.0, 2.0), NOT_SET),  # no tensor operand
])
def test_vec_tile_missing_silent(values: tuple[object, ...], vec: Any) -> None:
    assert tc.vec_tile_missing(op_call("add", *values, vec=vec)) is None


@pytest.mark.parametrize("op, args", [
    ("__pos__", (A,)),  # unary + builds no op: compiles with no tile (scripts/probe_no_tile.py)
    ("cast", (A, F32)),  # a cast to the dtype it has builds no op either
    ("cast", (t((8, 64), None), F16)),  # input dtype unknown: maybe that identity cast
])
def test_vec_tile_missing_silent_where_0_2_0_compiles(op: str, args: tuple[object, ...]) -> None:
    assert tc.vec_tile_missing(op_call(op, *args, vec=NOT_SET)) is None


# --- reduce_tile_missing (rule: reduce-without-tile-crashes) -------------------------------------

@pytest.mark.parametrize("op, dtype, reaction", [
    ("sum", F32, "PyPTO 0.2.0 crashes with SIGSEGV and no message"),
    ("sum", F16, "PyPTO 0.2.0 crashes with SIGSEGV and no message"),  # sum does not cast first
    ("prod", F32, "PyPTO 0.2.0 crashes with SIGSEGV and no message"),
    ("softmax", F16, "its DT_FP16 input is first cast to DT_FP32, and the compiler raises F21004 "
                     "(op [CAST]tile shape not set)"),
    ("var", BF16, "its DT_BF16 input is first cast to DT_FP32, and the compiler raises F21004 "
                  "(op [CAST]tile shape not set)"),
    # probed (scripts/probe_no_tile.py): not a crash
    ("var", F32, "the compiler raises F21004 (op [MULS]tile shape not set)"),
    ("rms_norm", F32, "the compiler raises F21004 (op [MUL]tile shape not set)"),
    ("softmax", "DT_INT32", "its DT_INT32 input is first cast, and the compiler raises F21004 "
                            "(op [CAST]tile shape not set)"),
    # dtype unknown: softmax crashes on FP32 and fails on a CAST otherwise: both, by dtype
    ("softmax", None, "PyPTO 0.2.0 raises F21004 (op [CAST]tile shape not set) on DT_FP16, DT_BF16, DT_INT32 "
                      "and crashes with SIGSEGV on DT_FP32"),
])
def test_reduce_tile_missing(op: str, dtype: str, reaction: str) -> None:
    assert_finding(
        tc.reduce_tile_missing(op_call(op, t((8, 64), dtype), -1, vec=NOT_SET)), op_codes.TILE_MISSING,
        f"pypto.{op} runs with no vec tile set in this kernel; {reaction}", SET_VEC,
    )


@pytest.mark.parametrize("x, vec", [(A, (8, 8)), (A, UNKNOWN), (2.0, NOT_SET)])
def test_reduce_tile_missing_silent(x: object, vec: Any) -> None:
    assert tc.reduce_tile_missing(op_call("sum", x, -1, vec=vec)) is None


# --- reshape_tile_missing (rule: reshape-copy-needs-tile) -------------------------------------

@pytest.mark.parametrize("op, rest", [
    ("reshape", ([16, 32],)),
    ("reshape", ([8, -1],)),  # a -1 copies even to the tensor's own dims
    ("view", ([4, 64], [0, 0])),
])
def test_reshape_tile_missing(op: str, rest: tuple[object, ...]) -> None:
    c = op_call(op, A, *rest, vec=NOT_SET, vec_set_in_kernel=False)
    assert_finding(
        tc.reshape_tile_missing(c), op_codes.TILE_MISSING,
        f"pypto.{op} runs with no vec tile set in this kernel; the compiler raises F21004 "
        "(op [REGISTER_COPY]tile shape not set)",
        SET_VEC,
    )


@pytest.mark.parametrize("target, in_kernel", [
    ([16, 32], True),  # a vec tile set anywhere in the kernel, even later, is enough
    ([8, 64], False),  # the tensor's own dims, written out: no copy
    (["n", 64], False),  # cannot tell whether the shape changes
    (None, False),  # target unknown
])
def test_reshape_tile_missing_silent(target: object, in_kernel: bool) -> None:
    c = op_call("reshape", A, target, vec=NOT_SET, vec_set_in_kernel=in_kernel)
    assert tc.reshape_tile_missing(c) is None


# --- copy_tile_align (rule: copy-tile-32-byte) -------------------------------------------------

def test_copy_tile_align() -> None:
    c = op_call("reshape", t((8, 16)), [16, 8], vec=(8, 4), into_output=True)
    assert_finding(
        tc.copy_tile_align(c), op_codes.RESHAPE_ALIGN,
        "copies into [16, 8] DT_FP32 under vec tile (8, 4): its last entry 4 x 4 bytes = 16 bytes is not a "
        "multiple of 32 bytes; the compiler fails (CHECK FAILED: FwkOp tile shape's last dim is not aligned)",
        "set the vec tile's last entry to a multiple of 8 before this call (e.g. 8)",
    )
    c = op_call("reshape", t((8, 16), F16), [8, -1], vec=(None, 12), into_output=True)  # -1: copies
    assert_finding(
        tc.copy_tile_align(c), op_codes.RESHAPE_ALIGN,
        "copies into [8, 16] DT_FP16 under vec tile (?, 12): its last entry 12 x 2 bytes = 24 bytes is not a "
        "multiple of 32 bytes; the compiler fails (CHECK FAILED: FwkOp tile shape's last dim is not aligned)",
        "set the vec tile's last entry to a multiple of 16 before this call (e.g. 16)",
    )


@pytest.mark.parametrize("x, target, vec, into_output", [
    (t((8, 16)), [16, 8], (8, 4), False),  # consumed by another op: compiles
    (t((8, 16)), [16, 8], (8, 8), True),  # 8 x 4 = 32 bytes
    (t((8, 16), F16), [16, 8], (8, 16), True),  # 16 x 2 = 32 bytes
    (t((8, 16)), [16, 8], (1, 8, 4), True),  # more tile entries than output dims: compiles
    (t((8, 16)), [128], (8, 4), True),  # fewer output dims than tile entries: compiles
    (t((8, 16)), [8, 16], (8, 4), True),  # the tensor's own dims: no copy
    (t((8, 16)), [16, 8], (8, None), True),  # entry not a constant
    (t((8, 16)), [16, 8], UNKNOWN, True),
    (t((8, 16), None), [16, 8], (8, 4), True),  # unknown dtype
    (t((8, 16)), None, (8, 4), True),  # unknown target
])
def test_copy_tile_align_silent(x: Any, target: object, vec: Any, into_output: bool) -> None:
    assert tc.copy_tile_align(op_call("reshape", x, target, vec=vec, into_output=into_output)) is None


# --- cube_tile_missing (rule: cube-tile-required) ----------------------------------------------

def test_cube_tile_missing() -> None:
    c = op_call("matmul", t((16, 32), F16), t((32, 16), F16), F32, cube=NOT_SET)
    assert_finding(
        tc.cube_tile_missing(c), op_codes.TILE_MISSING,
        "pypto.matmul runs with no cube tile set in this kernel; the compiler raises FC4000 "
        "(Invalid tile values: kL0=0 ...)",
        "call pypto.set_cube_tile_shapes([mL0, mL1], [kL0, kL1], [nL0, nL1]) before the matmul",
    )


@pytest.mark.parametrize("cube", [UNKNOWN, ((16, 16), (16, 16), (16, 16))])
def test_cube_tile_missing_silent(cube: Any) -> None:
    assert tc.cube_tile_missing(op_call("matmul", t((16, 32), F16), t((32, 16), F16), F32, cube=cube)) is None


# --- vec_tile_rank (rules: vec-tile-rank, reciprocal-short-tile) -----------------------------------

def test_vec_tile_rank() -> None:
    assert_finding(
        tc.vec_tile_rank(op_call("__add__", A, A, vec=(16,))), op_codes.TILE_RANK,
        "operator + works on rank-2 tensors but the vec tile (16) has 1 entry; the compile pass fails with "
        "\"Run pass failed.\" (log: Tile shape size 1 is not matched the output shape size 2)",
        "set a vec tile with 2 entries before it, e.g. pypto.set_vec_tile_shapes(1, 16)",
    )
    # Leading dims of 1 are no excuse.
    assert_finding(
        tc.vec_tile_rank(op_call("exp", t((1, 1, 4, 16)), vec=(4, None))), op_codes.TILE_RANK,
        "pypto.exp works on rank-4 tensors but the vec tile (4, ?) has 2 entries; the compile pass fails with "
        "\"Run pass failed.\" (log: Tile shape size 2 is not matched the output shape size 4)",
        "set a vec tile with 4 entries before it, e.g. pypto.set_vec_tile_shapes(1, 1, 4, ?)",
    )


@pytest.mark.parametrize("op, values", [
    ("gt", (A, A)),  # a comparison of two tensors fails under a short tile
    ("cast", (t((1, 64)), F16)),
    ("sum", (t((1, 64)), -1)),  # a reduction too (its input is rank 2)
])
def test_vec_tile_rank_reports(op: str, values: tuple[object, ...]) -> None:
    found = tc.vec_tile_rank(op_call(op, *values, vec=(64,)))
    assert found is not None and found.code is op_codes.TILE_RANK
    assert found.message.startswith(f"pypto.{op} works on rank-2 tensors but the vec tile (64) has 1 entry")


@pytest.mark.parametrize("op, values, vec", [
    ("add", (A, A), (8, 64)),
    ("add", (A, A), (1, 8, 64)),  # more entries is fine
    ("gt", (A, 0.0), (64,)),  # a comparison with a scalar compiles under a short tile
    ("reciprocal", (t((1, 4, 16)),), (4, 16)),  # nondeterministic in 0.2.0: nothing provable
    ("add", (A, A), NOT_SET),  # rule vec-tile-required instead
    ("add", (A, A), UNKNOWN),
    ("add", (t(None), 2.0), (64,)),  # unknown rank
])
def test_vec_tile_rank_silent(op: str, values: tuple[object, ...], vec: Any) -> None:
    assert tc.vec_tile_rank(op_call(op, *values, vec=vec)) is None


# --- transpose_tile_rank (rule: transpose-tile-rank) -------------------------------------------

_TRANSPOSE_NOTE = ("set pypto.set_vec_tile_shapes(...) with 2 entries before the transpose, "
                   "or transpose inside the matmul with a_trans=True / b_trans=True")


@pytest.mark.parametrize("vec, have", [
    ((1, 8, 16), "the vec tile has 3 entries"),  # a longer tile fails too
    ((16,), "the vec tile has 1 entry"),
    (NOT_SET, "no vec tile is set"),
])
def test_transpose_tile_rank(vec: Any, have: str) -> None:
    assert_finding(
        tc.transpose_tile_rank(op_call("transpose", t((8, 16)), 0, 1, vec=vec)), op_codes.TILE_RANK,
        f"pypto.transpose of a rank-2 tensor [8, 16] needs a vec tile with exactly 2 entries, but {have}; the "
        "compiler raises FC0000 (TileShape dim num should same to input.)",
        _TRANSPOSE_NOTE,
    )


@pytest.mark.parametrize("x, d0, d1, vec", [
    (t((8, 16)), 0, 1, (8, 16)),
    (t((8, 16)), -1, 0, (16, 8)),
    (t((1, 1, 16)), 0, 1, (16,)),  # both swapped dims are 1: nothing moves
    (t((8, 16)), 1, -1, (1, 8, 16)),  # the same dim
    (t((8, 16)), 0, 5, (16,)),  # axis out of range: rule axis-range
    (t((8, 16)), 0, 1, UNKNOWN),
    (t(None), 0, 1, (16,)),
    (t((8, 16)), 0, None, (16,)),  # axis not a constant
])
def test_transpose_tile_rank_silent(x: Any, d0: int, d1: int | None, vec: Any) -> None:
    assert tc.transpose_tile_rank(op_call("transpose", x, d0, d1, vec=vec)) is None
