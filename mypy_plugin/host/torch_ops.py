"""What torch factories, tensor methods and indexing do to a host tensor's shape, strides, dtype.

Pure functions over :mod:`.values`; each returns UNKNOWN for anything it cannot prove (including
calls torch itself would reject).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import layout, tensor_data
from .mutation import KEEPING_INPLACE
from .operators import arithmetic
from .values import (
    CAST_METHODS,
    DEVICE_METHODS,
    DTYPES,
    FLOAT32,
    FLOAT_METHODS,
    INT64,
    KEEP_DTYPE_METHODS,
    LIKE_FACTORIES,
    SELF_METHODS,
    SIZE_FACTORIES,
    UNKNOWN,
    HostTensor,
    TorchDType,
    Value,
    dtype_kw,
    fresh,
    leaf_dtype,
    row_major,
)
from .views import expand, index, permute, reshape, transpose, transpose_attr, unsqueeze


def _ints(values: Sequence[Value]) -> tuple[int, ...] | None:
    if all(type(v) is int and v >= 0 for v in values):
        return tuple(v for v in values if type(v) is int)
    return None


def size_of(args: Sequence[Value]) -> tuple[int, ...] | None:
    """``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])``, ``f(torch.Size)``: the requested shape."""
    if len(args) == 1 and isinstance(args[0], tuple):
        return _ints(args[0])
    return _ints(args)


def factory(name: str, args: Sequence[Value], kwargs: dict[str, Value], default_float: TorchDType | None) -> Value:
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
        fmt = kwargs.get("memory_format", "torch.preserve_format")
        dtype = dtype_kw(kwargs, base.dtype)
        if base.shape is None or fmt != "torch.preserve_format":
            return fresh(base.shape, dtype) if fmt == "torch.contiguous_format" else HostTensor(base.shape, dtype, None)
        return HostTensor(base.shape, dtype, layout.preserved(base.shape, base.strides))
    return UNKNOWN


def _arange(args: Sequence[Value], kwargs: dict[str, Value], default_float: TorchDType | None) -> Value:
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


_FLOATS: Final = frozenset({"torch.float16", "torch.bfloat16", "torch.float32", "torch.float64"})


def _unary(t: HostTensor, dtype: TorchDType | None) -> HostTensor:
    """An elementwise result of one tensor: its shape, TensorIterator's layout."""
    if t.shape is None:
        return HostTensor(None, dtype, None)
    return HostTensor(t.shape, dtype, layout.elementwise(t.shape, [(t.shape, t.strides)]))


def _copy(t: HostTensor, dtype: TorchDType | None, kwargs: dict[str, Value]) -> HostTensor:
    """A copy (``clone``, a dtype change): ``preserve_format`` unless a memory format is given."""
    fmt = kwargs.get("memory_format", _PRESERVE)
    if fmt == _CONTIGUOUS:
        return fresh(t.shape, dtype) if t.shape is not None else HostTensor(None, dtype, None)
    if fmt != _PRESERVE or t.shape is None:
        return HostTensor(t.shape, dtype, None)
    return HostTensor(t.shape, dtype, layout.preserved(t.shape, t.strides))


def _maybe_copy(t: HostTensor, dtype: TorchDType | None, same: bool | None, kwargs: dict[str, Value]) -> HostTensor:
    """``same``: the tensor itself is returned (True), a copy (False), or either (None: a device
    move, a dtype not known): the strides are known when both agree."""
    if "memory_format" in kwargs:
        return _copy(t, dtype, kwargs)
    if same:
        return HostTensor(t.shape, dtype, t.strides)
    copied = _copy(t, dtype, kwargs)
    if same is None and copied.strides != t.strides:
        return HostTensor(t.shape, dtype, None)
    return copied


# ``memory_format=`` values, as the evaluator reads ``torch.contiguous_format`` (see expressions).
_PRESERVE: Final = "torch.preserve_format"
_CONTIGUOUS: Final = "torch.contiguous_format"


def method(t: HostTensor, name: str, args: Sequence[Value], kwargs: dict[str, Value]) -> Value:
    """``t.<name>(...)``."""
    if name in SELF_METHODS or name in KEEPING_INPLACE:
        return t if name.endswith("_") else HostTensor(t.shape, t.dtype, t.strides)
    if name in DEVICE_METHODS:
        return _maybe_copy(t, t.dtype, None, kwargs)
    if name == "clone" and not args:
        return _copy(t, t.dtype, kwargs)
    if name in CAST_METHODS and not args:
        dtype = DTYPES[CAST_METHODS[name]]
        return _maybe_copy(t, dtype, None if t.dtype is None else t.dtype == dtype, kwargs)
    if name in KEEP_DTYPE_METHODS:
        return _unary(t, t.dtype)
    if name in FLOAT_METHODS and not args:  # an integer input gives the default float: not followed here
        return _unary(t, t.dtype if t.dtype is not None and t.dtype.name in _FLOATS else None)
    if name == "to":
        return _to(t, args, kwargs)
    if name == "contiguous":
        return fresh(t.shape, t.dtype) if t.shape is not None else HostTensor(None, t.dtype, None)
    if name in ("reshape", "view"):
        if name == "view" and len(args) == 1 and isinstance(args[0], TorchDType):
            return _view_dtype(t, args[0])
        return reshape(t, args, name == "view")
    if name == "t" and not args:
        return transpose(t, (0, 1))
    if name == "transpose" and len(args) == 2 and type(args[0]) is int and type(args[1]) is int:
        return transpose(t, (args[0], args[1]))
    if name == "permute":
        order = size_of(args)
        return permute(t, order) if order is not None else UNKNOWN
    if name == "unsqueeze" and len(args) == 1 and type(args[0]) is int:
        return unsqueeze(t, args[0])
    if name == "expand":
        return expand(t, args)
    return _facts(t, name, args)


def _facts(t: HostTensor, name: str, args: Sequence[Value]) -> Value:
    """``t.dim()``, ``t.size()``, ``t.size(i)``, ``t.numel()``, ``t.is_contiguous()``."""
    if name == "is_contiguous" and not args:
        known = t.contiguous
        return UNKNOWN if known is None else known
    if t.shape is None:
        return UNKNOWN
    if name in ("dim", "ndimension") and not args:
        return len(t.shape)
    if name == "size" and not args:
        return t.shape
    if name == "size" and len(args) == 1 and type(args[0]) is int and -len(t.shape) <= args[0] < len(t.shape):
        return t.shape[args[0]]
    if name == "numel" and not args:
        count = 1
        for d in t.shape:
            count *= d
        return count
    return UNKNOWN


def _to(t: HostTensor, args: Sequence[Value], kwargs: dict[str, Value]) -> Value:
    dtype = next((a for a in [*args, kwargs.get("dtype")] if isinstance(a, TorchDType)), None)
    known = all(isinstance(a, (TorchDType, str)) for a in args) and set(kwargs) <= {
        "dtype", "device", "non_blocking", "copy", "memory_format"}
    if dtype is None and not known:
        return HostTensor(t.shape, None, t.strides if t.contiguous else None)
    if kwargs.get("copy") is True:
        return _copy(t, dtype or t.dtype, kwargs)
    if kwargs.get("copy", False) is not False:
        return HostTensor(t.shape, dtype or t.dtype, t.strides if t.contiguous else None)
    device = any(isinstance(a, str) for a in args) or "device" in kwargs
    same = None if device or t.dtype is None or dtype is None else dtype == t.dtype
    if dtype is None and not device:
        same = True
    return _maybe_copy(t, dtype or t.dtype, same, kwargs)


def _view_dtype(t: HostTensor, dtype: TorchDType) -> Value:
    """``t.view(torch.int8)``: the same bytes as another dtype (the last dim scales)."""
    if t.dtype is None:
        return HostTensor(None, dtype, None)
    if dtype.itemsize == t.dtype.itemsize:
        return HostTensor(t.shape, dtype, t.strides)
    if t.shape is None or t.strides is None or not t.shape or t.strides[-1] != 1:
        return HostTensor(None, dtype, None) if t.shape is None else UNKNOWN
    old, new = t.dtype.itemsize, dtype.itemsize
    last = t.shape[-1] * old
    if last % new or any((s * old) % new for s in t.strides[:-1]):
        return UNKNOWN
    shape = (*t.shape[:-1], last // new)
    return HostTensor(shape, dtype, (*(s * old // new for s in t.strides[:-1]), 1))


__all__ = ["arithmetic", "factory", "index", "method", "row_major", "size_of", "transpose_attr", "FLOAT32"]
