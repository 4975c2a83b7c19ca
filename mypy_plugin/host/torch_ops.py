"""What torch factories, tensor methods and indexing do to a host tensor's shape, strides, dtype.

Pure functions over :mod:`.values`; each returns UNKNOWN for anything it cannot prove (including
calls torch itself would reject).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import EllipsisType
from typing import Final

from . import tensor_data
from .values import (
    CAST_METHODS,
    DTYPES,
    FLOAT32,
    FLOAT_METHODS,
    INT64,
    KEEP_DTYPE_METHODS,
    LIKE_FACTORIES,
    SAME_METHODS,
    SIZE_FACTORIES,
    UNKNOWN,
    DType,
    dtype_kw,
    HostTensor,
    Value,
    fresh,
    leaf_dtype,
    row_major,
)


def _ints(values: Sequence[Value]) -> tuple[int, ...] | None:
    if all(type(v) is int and v >= 0 for v in values):
        return tuple(v for v in values if type(v) is int)
    return None


def size_of(args: Sequence[Value]) -> tuple[int, ...] | None:
    """``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])``, ``f(torch.Size)``: the requested shape."""
    if len(args) == 1 and isinstance(args[0], tuple):
        return _ints(args[0])
    return _ints(args)


def factory(name: str, args: Sequence[Value], kwargs: dict[str, Value], default_float: DType | None) -> Value:
    """``torch.<name>(...)``."""
    if name in SIZE_FACTORIES:
        size = kwargs.get("size") if not args else None
        shape = size_of(args) if args else (_ints(size) if isinstance(size, tuple) else None)
        return fresh(shape, dtype_kw(kwargs, default_float))
    if name == "full" and len(args) >= 2 and isinstance(args[0], tuple):
        return fresh(_ints(args[0]), dtype_kw(kwargs, leaf_dtype(args[1], default_float)))
    if name == "randint":
        size = args[-1] if args and isinstance(args[-1], tuple) else kwargs.get("size")
        return fresh(_ints(size) if isinstance(size, tuple) else None, dtype_kw(kwargs, INT64))
    if name == "arange":
        return _arange(args, kwargs, default_float)
    if name == "tensor" and args:
        return tensor_data.literal(args[0], kwargs, default_float)
    if name == "eye" and args and type(args[0]) is int:
        cols = args[1] if len(args) > 1 else args[0]
        return fresh((args[0], cols) if type(cols) is int else None, dtype_kw(kwargs, default_float))
    if name in LIKE_FACTORIES and args and isinstance(args[0], HostTensor):
        base = args[0]
        dtype = dtype_kw(kwargs, base.dtype)
        return fresh(base.shape, dtype)  # *_like keeps the layout only for dense inputs: fresh is safe
    return UNKNOWN


def _arange(args: Sequence[Value], kwargs: dict[str, Value], default_float: DType | None) -> Value:
    nums = list(args)
    if not nums or not all(type(v) in (int, float) for v in nums):
        return fresh(None, dtype_kw(kwargs, None))
    start, end, step = (0, nums[0], 1) if len(nums) == 1 else (nums[0], nums[1], nums[2] if len(nums) > 2 else 1)
    is_int = all(type(v) is int for v in (start, end, step))
    assert isinstance(start, (int, float)) and isinstance(end, (int, float)) and isinstance(step, (int, float))
    if step == 0:
        return UNKNOWN
    count = max(0, -(-(end - start) // step)) if is_int else None
    shape = (int(count),) if count is not None else None
    return fresh(shape, dtype_kw(kwargs, INT64 if is_int else default_float))


def arithmetic(a: Value, b: Value, true_div: bool, default_float: DType | None) -> Value:
    """``a <op> b`` with at least one tensor: a new tensor of the broadcast shape. Dtypes follow
    torch's promotion only where it is simple: a tensor with a Python number keeps a float dtype
    (an int tensor becomes the default float with a float or under ``/``); two tensors of one
    dtype keep it; anything else is unknown."""
    tensors = [v for v in (a, b) if isinstance(v, HostTensor)]
    others = [v for v in (a, b) if not isinstance(v, HostTensor)]
    if others and type(others[0]) not in (int, float, bool):
        return UNKNOWN
    shape = _broadcast(*(t.shape for t in tensors))
    first = tensors[0].dtype
    if len(tensors) == 2:
        dtype = first if first == tensors[1].dtype else None
    else:
        dtype = first
    if dtype is not None and not _is_float(dtype) and (true_div or others and type(others[0]) is float):
        dtype = default_float
    if true_div and len(tensors) == 2 and dtype is not None and not _is_float(dtype):
        dtype = default_float
    return fresh(shape, dtype)


def _is_float(dtype: DType) -> bool:
    return "float" in dtype.name or "complex" in dtype.name


def _broadcast(*shapes: tuple[int, ...] | None) -> tuple[int, ...] | None:
    if any(s is None for s in shapes):
        return None
    known = [s for s in shapes if s is not None]
    rank = max(len(s) for s in known)
    out: list[int] = []
    for axis in range(rank):
        sizes = {s[axis - rank + len(s)] for s in known if axis - rank + len(s) >= 0} - {1}
        if len(sizes) > 1:
            return None
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


_FLOATS: Final = frozenset({"torch.float16", "torch.bfloat16", "torch.float32", "torch.float64"})


def method(t: HostTensor, name: str, args: Sequence[Value], kwargs: dict[str, Value]) -> Value:
    """``t.<name>(...)``."""
    if name in SAME_METHODS:
        return HostTensor(t.shape, t.dtype, t.strides)
    if name in CAST_METHODS and not args:
        return HostTensor(t.shape, DTYPES[CAST_METHODS[name]], t.strides)
    if name in KEEP_DTYPE_METHODS:
        return fresh(t.shape, t.dtype)
    if name in FLOAT_METHODS and not args:  # an integer input gives the default float: not followed here
        return fresh(t.shape, t.dtype if t.dtype is not None and t.dtype.name in _FLOATS else None)
    if name == "to":
        dtype = next((a for a in [*args, kwargs.get("dtype")] if isinstance(a, DType)), None)
        known = all(isinstance(a, (DType, str)) for a in args) and set(kwargs) <= {"dtype", "device", "non_blocking"}
        if dtype is None and not known:
            return HostTensor(t.shape, None, t.strides)
        return HostTensor(t.shape, dtype or t.dtype, t.strides)
    if name == "contiguous":
        return fresh(t.shape, t.dtype)
    if name in ("reshape", "view"):
        return _reshape(t, args)
    if name == "t" and not args:
        return _transpose(t, (0, 1))
    if name == "transpose" and len(args) == 2 and type(args[0]) is int and type(args[1]) is int:
        return _transpose(t, (args[0], args[1]))
    if name == "permute":
        order = size_of(args)
        return _permute(t, order) if order is not None else UNKNOWN
    if name == "unsqueeze" and len(args) == 1 and type(args[0]) is int:
        return _unsqueeze(t, args[0])
    if name == "expand":
        return _expand(t, args)
    return UNKNOWN


def transpose_attr(t: HostTensor) -> Value:
    """``t.T``: all dims reversed (a 2-D transpose)."""
    if t.shape is None:
        return HostTensor(None, t.dtype, None)
    return _permute(t, tuple(reversed(range(len(t.shape)))))


def _reshape(t: HostTensor, args: Sequence[Value]) -> Value:
    shape = _shape_with_inferred(t, args)
    if shape is None:
        return HostTensor(None, t.dtype, None)
    if t.contiguous:
        return fresh(shape, t.dtype)
    # Of a non-contiguous tensor, view may fail and reshape may return a (still strided) view or a
    # copy: the layout is not followed.
    return HostTensor(shape, t.dtype, None)


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


def _transpose(t: HostTensor, dims: tuple[int, ...]) -> Value:
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
    return _permute(t, tuple(order))


def _permute(t: HostTensor, order: tuple[int, ...]) -> Value:
    if t.shape is None or sorted(order) != list(range(len(t.shape))):
        return UNKNOWN if t.shape is not None else HostTensor(None, t.dtype, None)
    shape = tuple(t.shape[i] for i in order)
    strides = tuple(t.strides[i] for i in order) if t.strides is not None else None
    return HostTensor(shape, t.dtype, strides)


def _unsqueeze(t: HostTensor, axis: int) -> Value:
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


def _expand(t: HostTensor, args: Sequence[Value]) -> Value:
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


__all__ = ["factory", "index", "method", "row_major", "size_of", "transpose_attr", "FLOAT32"]
