"""torch's binary operators on host tensors: ``@`` (matmul) and the elementwise ``+ - * / // % **``
with broadcasting, torch's dtype promotion and TensorIterator's result layout."""

from __future__ import annotations

import ast
from typing import Final

from . import layout
from .values import FLOAT32, INT64, UNKNOWN, HostTensor, TorchDType, Value, fresh


def arithmetic(a: Value, b: Value, op: type[ast.operator], default_float: TorchDType | None) -> Value:
    """``a <op> b`` with at least one tensor: ``@`` is a matmul; ``+ - * / // % **`` give the
    broadcast shape, torch's dtype promotion and TensorIterator's layout; other operators: unknown."""
    if op is ast.MatMult:
        return _matmul(a, b)
    if op not in _ELEMENTWISE_OPS:
        return UNKNOWN
    tensors = [v for v in (a, b) if isinstance(v, HostTensor)]
    if any(not isinstance(v, HostTensor) and type(v) not in (int, float, bool) for v in (a, b)):
        return UNKNOWN
    shape = _broadcast(*(t.shape for t in tensors))
    dtype = promote(a, b, default_float)
    if dtype is not None and op is ast.Div and _category(dtype) < 2:
        dtype = default_float  # true division of bools and ints
    if dtype is not None and dtype.name == "torch.bool" and op is not ast.Add and op is not ast.Mult:
        dtype = None  # ``-``, ``//``, ``**`` of bools: torch's error or an int result
    if shape is None:
        return HostTensor(None, dtype, None)
    operands = [(t.shape, t.strides) for t in tensors if t.shape is not None]
    return HostTensor(shape, dtype, layout.elementwise(shape, operands))


_ELEMENTWISE_OPS: Final = frozenset({ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow})


def _category(dtype: TorchDType) -> int:
    name = dtype.name
    return 0 if name == "torch.bool" else 3 if "complex" in name else 2 if "float" in name else 1


def _scalar_category(v: Value) -> int | None:
    return 0 if type(v) is bool else 1 if type(v) is int else 2 if type(v) is float else None


def promote(a: Value, b: Value, default_float: TorchDType | None) -> TorchDType | None:
    """torch's result dtype: a Python number (or a 0-D tensor next to a dimensioned one) only
    lifts the category (bool < int < float); two tensors of one category promote by size."""
    ta, tb = (v if isinstance(v, HostTensor) else None for v in (a, b))
    if ta is not None and tb is not None:
        if ta.dtype is None or tb.dtype is None:
            return None
        if ta.dtype == tb.dtype:
            return ta.dtype
        if ta.shape is None or tb.shape is None:
            return None  # a 0-D tensor acts like a number: which one is not known
        if (len(ta.shape) == 0) != (len(tb.shape) == 0):
            big, small = (ta, tb) if ta.shape else (tb, ta)
            assert big.dtype is not None and small.dtype is not None
            return _lift(big.dtype, _category(small.dtype), default_float)
        return _promote_types(ta.dtype, tb.dtype)
    tensor = ta or tb
    other = b if ta is not None else a
    assert tensor is not None
    cat = _scalar_category(other)
    if tensor.dtype is None or cat is None:
        return None
    return _lift(tensor.dtype, cat, default_float)


def _lift(dtype: TorchDType, cat: int, default_float: TorchDType | None) -> TorchDType | None:
    if cat <= _category(dtype):
        return dtype
    return INT64 if cat == 1 else default_float if cat == 2 else None


def _promote_types(a: TorchDType, b: TorchDType) -> TorchDType | None:
    ca, cb = _category(a), _category(b)
    if ca != cb:
        if 0 in (ca, cb):
            return a if ca else b  # bool with anything: the other
        return (a if ca > cb else b) if 3 not in (ca, cb) else None
    if ca == 2:
        if {a.name, b.name} == {"torch.float16", "torch.bfloat16"}:
            return FLOAT32
        return a if a.itemsize > b.itemsize else b if b.itemsize > a.itemsize else None
    if ca == 1 and not a.name.startswith("torch.uint") and not b.name.startswith("torch.uint"):
        return a if a.itemsize > b.itemsize else b
    return None


def _matmul(a: Value, b: Value) -> Value:
    if not isinstance(a, HostTensor) or not isinstance(b, HostTensor):
        return UNKNOWN
    dtype = a.dtype if a.dtype == b.dtype else None
    if a.dtype is not None and b.dtype is not None and a.dtype != b.dtype:
        return UNKNOWN  # torch raises
    if a.shape is None or b.shape is None or not a.shape or not b.shape:
        return HostTensor(None, dtype, None)
    sa, sb = a.shape, b.shape
    k_a = sa[-1]
    k_b = sb[0] if len(sb) == 1 else sb[-2]
    if k_a != k_b:
        return UNKNOWN
    if len(sa) == 1 and len(sb) == 1:
        return fresh((), dtype)
    rows = () if len(sa) == 1 else (sa[-2],)
    cols = () if len(sb) == 1 else (sb[-1],)
    batch = _broadcast(sa[:-2], sb[:-2])
    if batch is None:
        return UNKNOWN
    return fresh(batch + rows + cols, dtype)


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
