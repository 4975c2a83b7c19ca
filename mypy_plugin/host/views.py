"""Views of a host tensor as torch makes them: transposes, permutes, ``unsqueeze``, ``expand``,
indexing and slicing (strides scaled by the step), and ``reshape`` / ``view`` (a view when ATen's
``computeStride`` finds one, else a copy)."""

from __future__ import annotations

from collections.abc import Sequence
from types import EllipsisType

from . import layout
from .values import UNKNOWN, HostTensor, Value, fresh


def transpose_attr(t: HostTensor) -> Value:
    """``t.T``: all dims reversed (a 2-D transpose)."""
    if t.shape is None:
        return HostTensor(None, t.dtype, None)
    return permute(t, tuple(reversed(range(len(t.shape)))))


def reshape(t: HostTensor, args: Sequence[Value], must_view: bool) -> Value:
    """A view when torch's ``computeStride`` finds one (``.t().reshape`` of the same shape is the
    view itself), else a contiguous copy (``view`` raises)."""
    shape = _shape_with_inferred(t, args)
    if shape is None:
        return HostTensor(None, t.dtype, None)
    if t.shape is None or t.strides is None:
        return HostTensor(shape, t.dtype, None)
    strides = layout.view(t.shape, t.strides, shape)
    if strides is None:
        return UNKNOWN if must_view else fresh(shape, t.dtype)
    return HostTensor(shape, t.dtype, strides)


def _shape_with_inferred(t: HostTensor, args: Sequence[Value]) -> tuple[int, ...] | None:
    raw = args[0] if len(args) == 1 and isinstance(args[0], tuple) else tuple(args)
    if not all(type(v) is int for v in raw):
        return None
    dims = [v for v in raw if type(v) is int]
    if dims.count(-1) > 1 or any(d < -1 for d in dims):
        return None
    if -1 in dims:
        if t.shape is None:
            return None
        total = 1
        for d in t.shape:
            total *= d
        rest = 1
        for d in dims:
            if d != -1:
                rest *= d
        if rest == 0 or total % rest:
            return None
        dims[dims.index(-1)] = total // rest
    return tuple(dims)


def _norm_axis(axis: int, rank: int) -> int | None:
    axis = axis + rank if axis < 0 else axis
    return axis if 0 <= axis < rank else None


def transpose(t: HostTensor, dims: tuple[int, ...]) -> Value:
    if t.shape is None:
        return HostTensor(None, t.dtype, None)
    rank = len(t.shape)
    if rank < 2 and dims == (0, 1):
        return HostTensor(t.shape, t.dtype, t.strides)  # .t() of a 0-D/1-D tensor is itself
    axes = [_norm_axis(d, rank) for d in dims]
    if len(axes) != 2 or None in axes:
        return UNKNOWN
    order = list(range(rank))
    a, b = axes
    assert a is not None and b is not None
    order[a], order[b] = order[b], order[a]
    return permute(t, tuple(order))


def permute(t: HostTensor, order: tuple[int, ...]) -> Value:
    if t.shape is None or sorted(order) != list(range(len(t.shape))):
        return UNKNOWN if t.shape is not None else HostTensor(None, t.dtype, None)
    shape = tuple(t.shape[i] for i in order)
    strides = tuple(t.strides[i] for i in order) if t.strides is not None else None
    return HostTensor(shape, t.dtype, strides)


def unsqueeze(t: HostTensor, axis: int) -> Value:
    if t.shape is None:
        return HostTensor(None, t.dtype, None)
    at = _norm_axis(axis, len(t.shape) + 1)
    if at is None:
        return UNKNOWN
    shape = t.shape[:at] + (1,) + t.shape[at:]
    if t.strides is None:
        return HostTensor(shape, t.dtype, None)
    inner = t.strides[at] * t.shape[at] if at < len(t.shape) else 1
    return HostTensor(shape, t.dtype, t.strides[:at] + (inner,) + t.strides[at:])


def expand(t: HostTensor, args: Sequence[Value]) -> Value:
    sizes = args[0] if len(args) == 1 and isinstance(args[0], tuple) else tuple(args)
    if t.shape is None or t.strides is None or not all(type(s) is int for s in sizes) or len(sizes) < len(t.shape):
        return UNKNOWN
    lead = len(sizes) - len(t.shape)
    shape: list[int] = []
    strides: list[int] = []
    for i, want in enumerate(sizes):
        assert type(want) is int
        if i < lead:
            shape.append(want)
            strides.append(0)
            continue
        have, stride = t.shape[i - lead], t.strides[i - lead]
        if want == -1 or want == have:
            shape.append(have)
            strides.append(stride)
        elif have == 1:
            shape.append(want)
            strides.append(0)
        else:
            return UNKNOWN
    return HostTensor(tuple(shape), t.dtype, tuple(strides))


def index(t: HostTensor, items: Sequence[Value | slice | EllipsisType]) -> Value:
    """``t[i]``, ``t[a:b, ::2]``, ``t[..., ::2]``: ints drop a dim, slices keep it (strides scaled
    by the step), one ``...`` stands for the dims the other items leave."""
    if t.shape is None or t.strides is None:
        return HostTensor(None, t.dtype, None)
    spread = [i for i, item in enumerate(items) if item is ...]
    if len(spread) > 1:
        return HostTensor(None, t.dtype, None)
    if spread:
        at = spread[0]
        fill: list[Value | slice | EllipsisType] = [slice(None)] * (len(t.shape) - len(items) + 1)
        items = [*items[:at], *fill, *items[at + 1:]]
    if len(items) > len(t.shape):
        return HostTensor(None, t.dtype, None)
    shape: list[int] = []
    strides: list[int] = []
    for axis, size in enumerate(t.shape):
        item = items[axis] if axis < len(items) else slice(None)
        stride = t.strides[axis]
        if type(item) is int:
            if not -size <= item < size:
                return UNKNOWN
            continue
        if not isinstance(item, slice):
            return HostTensor(None, t.dtype, None)
        start, stop, step = item.start, item.stop, item.step
        if any(v is not None and type(v) is not int for v in (start, stop, step)) or step is not None and step <= 0:
            return HostTensor(None, t.dtype, None)
        length = len(range(*slice(start, stop, step).indices(size)))
        shape.append(length)
        strides.append(stride * (step or 1))
    return HostTensor(tuple(shape), t.dtype, tuple(strides))
