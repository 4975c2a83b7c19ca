"""What each op-call check reads, and what one call leaves it missing (``pypto-check --coverage``)."""

from __future__ import annotations

import pytest
from knowledge.fakes import op_call, t

from mypy_plugin.knowledge.checks.reads import NEEDS, RULE, reads
from mypy_plugin.knowledge.checks.registry import COMPILE_CHECKS, DTYPE_CHECKS, DYNAMIC_CHECKS, TILE_CHECKS, \
    TRACE_CHECKS
from mypy_plugin.knowledge.ops import OPS
from mypy_plugin.knowledge.tiles import NOT_SET, UNKNOWN


def _skipped(op: str, *values: object, **kw: object) -> dict[str, tuple[str, ...]]:
    call = op_call(op, *values, **kw)  # type: ignore[arg-type]
    return {name: missing for name, missing in reads(OPS[op], call) if missing}


def test_every_registered_check_says_what_it_reads() -> None:
    registered = {c for group in (*TRACE_CHECKS.values(), *TILE_CHECKS.values(), *COMPILE_CHECKS.values())
                  for c in group} | set(DYNAMIC_CHECKS) | set(DTYPE_CHECKS)
    assert registered <= set(NEEDS)


def test_reduce_align_needs_dtype_rank_axis_and_the_last_tile_entry_not_every_dim() -> None:
    # [rows, 64] with rows unknown: the dims do not matter, the last tile entry does
    assert _skipped("sum", t((None, 64)), -1, vec=(8, 32)) == {}
    assert _skipped("sum", t((None, 64)), -1, vec=(8, None)) == {"reduce-align": ("vec tile entry 1",)}
    assert _skipped("sum", t((None, None), None), -1, vec=(8, 32)) == {"reduce-align": ("dtype of input",)}
    assert _skipped("sum", t(None), -1, vec=(8, 32)) == {
        RULE: ("rank of input",), "vec-tile-rank": ("rank of input",), "reduce-align": ("rank of input",)}
    # a reduction of axis 0 does not ask for the last entry
    assert _skipped("sum", t((None, 64)), 0, vec=(8, None)) == {}
    # the tiles unknown: every tile check is skipped for them
    assert _skipped("sum", t((8, 64)), -1, vec=UNKNOWN) == {
        "reduce-tile-missing": ("vec tile",), "vec-tile-rank": ("vec tile",), "reduce-align": ("vec tile",)}
    # no tile set at all: decided (the missing-tile check reports it)
    assert _skipped("sum", t((8, 64)), -1, vec=NOT_SET) == {}


def test_broadcast_needs_only_the_dims_it_cannot_decide() -> None:
    assert _skipped("__add__", t(("rows", 64)), t(("rows", 64)), vec=(8, 64)) == {}  # the same symbol
    assert _skipped("__add__", t((None, 64)), t((1, 64)), vec=(8, 64)) == {}  # a 1 on the other side
    assert _skipped("__add__", t((None, 64)), t((8, 64)), vec=(8, 64)) == {RULE: ("dim 0 of input",)}
    assert _skipped("__add__", t((None, 64)), 2.0, vec=(8, 64)) == {}  # a scalar
    assert _skipped("__add__", t((8, 64), None), t((8, 64)), vec=(8, 64)) == {"dtype-mismatch": ("dtype of input",)}


def test_matmul_k_needs_the_k_dims_only() -> None:
    cube = ((16, 16), (16, 16), (16, 16))
    assert _skipped("matmul", t((None, 64)), t((64, None)), "DT_FP32", cube=cube) == {}
    assert _skipped("matmul", t((None, 64)), t((None, 16)), "DT_FP32", cube=cube) == {RULE: ("K dim of mat2",)}
    assert _skipped("matmul", t((8, 64)), t((64, 16)), "DT_FP32", cube=((16, None), (16, 16), (16, 16))) == {
        "cube-tile-values": ("cube tile entry m1",)}


def test_reshape_needs_the_element_counts() -> None:
    assert _skipped("reshape", t((8, 64)), [512], vec=(512,)) == {}
    assert _skipped("reshape", t((None, 64)), [-1], vec=(512,)) == {RULE: ("dims of input",)}
