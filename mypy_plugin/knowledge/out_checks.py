"""Writes into outputs (facts §3.1): ``out[:] = t`` and ``out.move(t)`` are a plain move and
``out[a:b, ...] = t`` an assemble; 0.2.0 checks neither shape nor dtype (B11, B12, R43)."""

from __future__ import annotations

from collections.abc import Sequence

from .ops import TensorVal
from .shapes import ShapeError, Shape, differ, fmt_shape, index

_SILENT = "PyPTO 0.2.0 does not check this: the kernel compiles and writes wrong data"


def is_whole(keys: Sequence[object]) -> bool:
    """``[:]``, ``[...]`` or ``[:, :]``: the write replaces the whole tensor (a move)."""
    return bool(keys) and all(k is Ellipsis or (isinstance(k, slice) and k.start is None and k.stop is None) for k in keys)


def _provably_different(a: Shape, b: Shape) -> bool:
    if a is None or b is None:
        return False
    if len(a) != len(b):
        return all(isinstance(d, int) for d in (*a, *b))
    return any(differ(x, y) for x, y in zip(a, b))


def _count(shape: Shape) -> int | None:
    if shape is None or not all(isinstance(d, int) for d in shape):
        return None
    n = 1
    for d in shape:
        assert isinstance(d, int)
        n *= d
    return n


def _shape_fix(region: Shape, value: Shape, target: str, whole: bool) -> str:
    """The note for one out-shape error: only the fix that fits these two shapes."""
    if region is not None and value is not None and len(value) + 1 == len(region):
        for axis, dim in enumerate(region):
            if dim == 1 and not _provably_different(region[:axis] + region[axis + 1:], value):
                # The result lost a size-1 axis: a reduction without keepdim.
                return (
                    f"the result has no size-1 axis {axis}: reduce with keepdim=True, or reshape it to "
                    f"{fmt_shape(region)}"
                )
    if _count(region) is not None and _count(region) == _count(value):
        return f"same number of elements: reshape the result to {fmt_shape(region)} before writing it"
    if whole:
        return f"make the result {fmt_shape(region)}, or fix the annotation of {target}"
    return f"make the result {fmt_shape(region)}, or write it into a region of {target} of its shape {fmt_shape(value)}"


def check_write(dest: TensorVal, keys: Sequence[object] | None, value: TensorVal, target: str) -> list[ShapeError]:
    """``keys`` None means ``dest.move(value)``."""
    problems: list[ShapeError] = []
    whole = keys is None or is_whole(keys)
    region: Shape = dest.shape if whole else index(dest.shape, keys or [])
    region_text = f"{target} {fmt_shape(dest.shape)}" if whole else f"the region {fmt_shape(region)} of {target} {fmt_shape(dest.shape)}"
    if _provably_different(region, value.shape):
        with_ones = None
        if not whole and keys is not None and dest.shape is not None and region is not None:
            # A mix of ints and slices reshapes the value with 1s at the int positions.
            with_ones = index(dest.shape, [slice(None) if isinstance(k, int) else k for k in keys])
        if not (with_ones is not None and not _provably_different(with_ones, value.shape)):
            problems.append(
                ShapeError(
                    "pypto-out-shape",
                    f"writes a {fmt_shape(value.shape)} result into {region_text}; {_SILENT}",
                    _shape_fix(region, value.shape, target, whole),
                )
            )
    if value.dtype is not None and dest.dtype is not None and value.dtype != dest.dtype:
        problems.append(
            ShapeError(
                "pypto-out-dtype",
                f"writes a {value.dtype} result into {target}, which is {dest.dtype}; {_SILENT}",
                f"cast it first: pypto.cast(result, pypto.{dest.dtype})",
            )
        )
    return problems
