"""The pure shape rules, against the compiler's behaviour (docs/rules.md)."""

from __future__ import annotations

import pytest

from mypy_plugin.knowledge import indexing, shapes
from mypy_plugin.knowledge.indexing import Span
from mypy_plugin.knowledge.findings import Finding


@pytest.mark.parametrize(
    ("case", "a", "b", "out"),
    [
        ("broadcast-shapes", (8, 16), (8, 1), (8, 16)),
        ("broadcast-shapes", (8, 16), (16,), (8, 16)),
        ("broadcast-shapes", (8, 16), (1, 16), (8, 16)),
        ("broadcast-shapes", (8, 1), (1, 16), (8, 16)),
        ("broadcast-shapes", (2, 8, 16), (2, 8, 1), (2, 8, 16)),
        ("symbol", ("N", 16), ("N", 1), ("N", 16)),
        ("unknown", (None, 16), (8, 16), (8, 16)),
    ],
)
def test_broadcast_ok(case: str, a: shapes.Shape, b: shapes.Shape, out: shapes.Shape) -> None:
    assert shapes.broadcast(a, b) == out


@pytest.mark.parametrize(
    ("case", "a", "b", "fragment"),
    [
        ("broadcast-shapes", (8, 16), (4, 16), "not broadcast-compatible"),
        ("broadcast-shapes", (8, 16), (16, 8), "not broadcast-compatible"),
        ("broadcast-one-axis", (2, 8, 16), (8, 1), "expanded along 2 axes"),
        ("broadcast-one-axis", (2, 8, 16), (16,), "expanded along 2 axes"),
        ("broadcast-one-axis", (8, 16), (1, 1), "expanded along 2 axes"),
    ],
)
def test_broadcast_errors(case: str, a: shapes.Shape, b: shapes.Shape, fragment: str) -> None:
    with pytest.raises(Finding) as err:
        shapes.broadcast(a, b)
    assert err.value.code.name == "pypto-broadcast"
    assert fragment in err.value.message


def test_reduce() -> None:
    assert shapes.reduce((8, 64), -1, True) == (8, 1)
    assert shapes.reduce((8, 64), -1, False) == (8,)
    assert shapes.reduce((64,), 0, False) == (1,)  # 1-D always gives [1]
    assert shapes.reduce((4, 8, 64), 1, False) == (4, 64)
    with pytest.raises(Finding):
        shapes.reduce((8, 64), 2, False)  # rule: axis-range


def test_reshape() -> None:
    assert shapes.reshape((2, 16, 16), [2, -1]) == (2, 256)  # rule: reshape-element-count
    with pytest.raises(Finding) as err:
        shapes.reshape((8, 16), [8, 8])  # rule: reshape-element-count
    assert err.value.code.name == "pypto-reshape"
    assert shapes.reshape((None, 16), [4, 4]) == (4, 4)  # unknown count: no claim


def test_index_and_slices() -> None:
    assert indexing.index((8, 64), [1]) == (64,)
    assert indexing.index((8, 64), [-1, slice(-8, None)]) == (8,)
    assert indexing.index((8, 64), [Ellipsis, slice(0, 8)]) == (8, 8)
    assert indexing.index((8, 64), [Span(2), slice(None, None)]) == (2, 64)
    assert indexing.index((8, 64), [slice(4, 12)]) == (None, 64)  # rule: slices-unchecked: out of range, unchecked


def test_matmul_shapes_and_k() -> None:
    assert shapes.matmul((16, 32), (32, 8), False, False) == (16, 8)
    assert shapes.matmul((32, 16), (8, 32), True, True) == (16, 8)
    assert shapes.matmul((2, 16, 32), (1, 32, 16), False, False) == (2, 16, 16)
    assert shapes.k_dims((8, 64), (1, 64), False, True) == (64, 64)  # rule: matmul-k
    assert shapes.k_dims((8, 64), (64, 1), False, True) == (64, 1)  # rule: matmul-k


def test_matmul_of_different_ranks_broadcasts_batches_as_torch() -> None:
    # Recovery after pypto-matmul-rank (rule: matmul-rank): the shape torch gives.
    assert shapes.matmul((16, 32), (2, 32, 8), False, False) == (2, 16, 8)
    assert shapes.matmul((3, 1, 16, 32), (2, 32, 8), False, False) == (3, 2, 16, 8)
    assert shapes.matmul((2, 16, 32), (3, 32, 8), False, False) == (None, 16, 8)  # batch 2 vs 3: not founded
    assert shapes.matmul((32,), (32, 8), False, False) is None  # a vector operand: left unknown


def test_broadcast_founded_never_raises_and_keeps_the_rank() -> None:
    assert shapes.broadcast_founded((8, 16), (4, 16)) == (None, 16)
    assert shapes.broadcast_founded((2, 8, 16), (8, 1)) == (2, 8, 16)  # two expanded axes: reported elsewhere
    assert shapes.broadcast_founded(None, (8,)) is None
