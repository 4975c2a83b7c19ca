"""Writes into outputs: ``out[:] = t`` and ``out.move(t)`` are a plain move and ``out[a:b, ...] = t``
an assemble; 0.2.0 checks neither shape nor dtype (rule: write-unchecked). A key mixing int indices and
slices (``out[i] = row``, ``out[i, :] = row``) first reshapes the value, putting a 1 at each int
position; that reshape asserts that the value has one dim per slice, so a ``[1, 64]`` row written
through ``out[i]`` fails at trace time while a ``[64]`` row is assembled (the regression kernels
``out_row_*`` were run through the compiler)."""

from __future__ import annotations

from collections.abc import Sequence

from .ops import TensorVal
from .indexing import index, is_int_key
from .shapes import ShapeError, Shape, differ, fmt_shape, numel

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
    if numel(region) is not None and numel(region) == numel(value):
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
    ints = 0 if whole or keys is None else sum(1 for k in keys if is_int_key(k))
    slices = len(dest.shape) - ints if dest.shape is not None else None
    if ints and region is not None and slices and value.shape is not None and len(value.shape) != slices:
        # Tensor.__setitem__ -> _add_one_dim: the value needs one dim per slice of the key.
        problems.append(
            ShapeError(
                "pypto-out-shape",
                f"writes a {fmt_shape(value.shape)} result into {region_text} through {ints} int "
                f"{'index' if ints == 1 else 'indices'}: the frontend needs a value with one dim per slice "
                f"({slices}) and fails at trace time (AssertionError: The number of slice in key ({slices}) "
                f"must match the length of input Tensor ({len(value.shape)}))",
                f"write a {fmt_shape(region)} value (pypto.reshape(x, {list(region)})) or index with slices "
                "(out[i:i + 1, :] = x)",
            )
        )
    elif _provably_different(region, value.shape):
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
