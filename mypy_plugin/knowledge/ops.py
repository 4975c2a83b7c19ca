"""The op table: what every PyPTO op does to shape and dtype (pypto-facts §3).

One row per op. Free functions (``pypto.sum``), methods (``Tensor.sum``) and
operators (``Tensor.__add__``) share a row: the bridge puts the receiver first, so
argument 0 is always the first tensor. Rules read arguments through :class:`Args`
and return the result, or ``None`` for "unknown" (the declared return type stays).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol, Union

from . import shapes
from .dtypes import BOOL, FP32, INT32
from .shapes import Dim, Shape


@dataclass(frozen=True)
class TensorVal:
    shape: Shape
    dtype: str | None  # "DT_FP32", or None when unknown


Key = Union[int, str]  # positional index, or the parameter name


class Args(Protocol):
    """The arguments of one call, seen as plain values (implemented by the mypy bridge)."""

    def given(self, key: Key, pos: int) -> bool: ...
    def tensor(self, key: Key, pos: int) -> TensorVal | None: ...
    def int_value(self, key: Key, pos: int) -> int | None: ...
    def bool_value(self, key: Key, pos: int, default: bool) -> bool | None: ...
    def dtype(self, key: Key, pos: int) -> str | None: ...
    def dims(self, key: Key, pos: int) -> list[Dim] | None: ...
    def varargs_dims(self, pos: int) -> list[Dim] | None: ...
    def tensor_list(self, key: Key, pos: int) -> list[TensorVal] | None: ...
    def index_keys(self) -> list[object]: ...
    def source(self, key: Key, pos: int) -> str | None: ...


class _Special:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


SCALAR: Final = _Special("SCALAR")  # the op gives a SymbolicScalar, not a tensor
ANY: Final = _Special("ANY")  # a tensor or a scalar, we cannot tell

Result = Union[TensorVal, tuple[TensorVal, ...], _Special, None]
Rule = Callable[[Args], Result]
OpKind = Literal[
    "elementwise", "compare", "unary", "cast", "reduction", "matmul", "transpose", "concat", "reshape", "layout",
    "creation", "other",
]


@dataclass(frozen=True)
class Op:
    name: str
    kind: OpKind
    rule: Rule


def _first(a: Args) -> TensorVal | None:
    return a.tensor("input", 0)


# --- rules ---------------------------------------------------------------------------

def _binary(result_dtype: str | None) -> Rule:
    """Tensor-tensor or tensor-scalar; a scalar keeps the tensor's dtype (§3.1)."""

    def rule(a: Args) -> Result:
        x, y = a.tensor("input", 0), a.tensor("other", 1)
        if x is None and y is None:
            return None
        if x is None or y is None:
            t = x or y
            assert t is not None
            return TensorVal(t.shape, result_dtype or t.dtype)
        return TensorVal(shapes.broadcast(x.shape, y.shape), result_dtype or x.dtype)

    return rule


def _same(a: Args) -> Result:
    x = _first(a)
    return None if x is None else TensorVal(x.shape, x.dtype)


def _to_dtype(dtype: str) -> Rule:
    def rule(a: Args) -> Result:
        x = _first(a)
        return None if x is None else TensorVal(x.shape, dtype)

    return rule


def _reduction(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    keep = a.bool_value("keepdim", 2, False)
    if keep is None:
        return TensorVal(None, x.dtype)
    return TensorVal(shapes.reduce(x.shape, a.int_value("dim", 1), keep), x.dtype)


def _var(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    keep = a.bool_value("keepdim", 3, False)
    if not a.given("dim", 1):
        return TensorVal((1,), x.dtype)
    dim = a.int_value("dim", 1)
    if keep is None or dim is None:
        return TensorVal(None, x.dtype)
    return TensorVal(shapes.reduce(x.shape, dim, keep), x.dtype)


def _softmax(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    dim = a.int_value("dim", 1)
    if x.shape is not None and dim is not None:
        shapes.reduce(x.shape, dim, True)  # range check only
    return TensorVal(x.shape, x.dtype)


def _cast(a: Args) -> Result:
    x = _first(a)
    return None if x is None else TensorVal(x.shape, a.dtype("dtype", 1))


def _reshape(a: Args) -> Result:
    x = _first(a)
    return None if x is None else TensorVal(shapes.reshape(x.shape, a.dims("shape", 1)), x.dtype)


def _view(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    dims = a.dims("shape", 1)
    dtype = a.dtype("dtype", 99) if a.given("dtype", 99) else x.dtype
    if not a.given("shape", 1):
        return TensorVal(x.shape, dtype)
    if dims is not None and x.shape is not None and len(dims) != len(x.shape):
        raise shapes.ShapeError(
            "pypto-reshape",
            f"view to rank {len(dims)} {shapes.fmt_shape(tuple(dims))} of a rank-{len(x.shape)} "
            f"tensor {shapes.fmt_shape(x.shape)}",
            "view keeps the rank; use reshape to change it",
        )
    return TensorVal(None if dims is None else tuple(dims), dtype)


def _transpose(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    return TensorVal(shapes.transpose(x.shape, a.int_value("dim0", 1), a.int_value("dim1", 2)), x.dtype)


def _unsqueeze(a: Args) -> Result:
    x = _first(a)
    return None if x is None else TensorVal(shapes.unsqueeze(x.shape, a.int_value("dim", 1)), x.dtype)


def _concat(a: Args) -> Result:
    ts = a.tensor_list("tensors", 0)
    if not ts:
        return None
    dim = a.int_value("dim", 1) if a.given("dim", 1) else 0
    dtypes = {t.dtype for t in ts}
    dtype = ts[0].dtype if len(dtypes) == 1 else None
    return TensorVal(shapes.concat([t.shape for t in ts], dim), dtype)


def _expand_clone(a: Args) -> Result:
    x = _first(a)
    dims = a.dims("shape", 1)
    return None if x is None else TensorVal(None if dims is None else tuple(dims), x.dtype)


def _where(a: Args) -> Result:
    cond = a.tensor("condition", 0)
    x, y = a.tensor("input", 1), a.tensor("other", 2)
    shape: Shape = cond.shape if cond is not None else None
    for t in (x, y):
        if t is not None:
            shape = shapes.broadcast(shape, t.shape) if shape is not None else t.shape
    # A scalar input takes the other tensor's dtype; two scalars give FP32 (§6).
    dtype = x.dtype if x is not None else y.dtype if y is not None else FP32
    return TensorVal(shape, dtype)


def _full(a: Args) -> Result:
    dims = a.dims("size", 0)
    return TensorVal(None if dims is None else tuple(dims), a.dtype("dtype", 2))


def _zeros_ones(a: Args) -> Result:
    dims = a.varargs_dims(0)
    dtype = a.dtype("dtype", 99) if a.given("dtype", 99) else FP32
    return TensorVal(None if dims is None else tuple(dims), dtype)


def _topk(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    k = a.int_value("k", 1)
    shape: Shape = None
    if x.shape is not None and k is not None:
        dim = a.int_value("dim", 2) if a.given("dim", 2) else -1
        ax = None if dim is None else shapes.normalize_axis(dim, len(x.shape))
        if ax is not None:
            shape = x.shape[:ax] + (k,) + x.shape[ax + 1:]
    return (TensorVal(shape, x.dtype), TensorVal(shape, INT32))


def check_matmul_k(x: Shape, y: Shape, a_trans: bool, b_trans: bool, call: str) -> None:
    """``call`` renders the fixed call, given the b_trans to use."""
    """0.2.0 matmul.py: K-dimension valid shape mismatch (M03, M05, M08, M10, M30)."""
    ka, kb = shapes.k_dims(x, y, a_trans, b_trans)
    if not shapes.differ(ka, kb):
        return
    assert x is not None and y is not None
    flags = f"a_trans={a_trans}, b_trans={b_trans}"
    head = (
        f"K-dimension mismatch: input {shapes.fmt_shape(x)} has K={ka}, "
        f"mat2 {shapes.fmt_shape(y)} has K={kb} ({flags})"
    )
    ones = (not b_trans and y[-1] == 1) or (b_trans and y[-2] == 1)
    if ones:
        want = f"[{ka}, 1]" if not b_trans else f"[1, {ka}]"
        head += f"; as a ones-vector reduction over the last axis of the input, mat2 must be {want}"
    # Would the other b_trans make K agree? Then that is the fix.
    other_ka, other_kb = shapes.k_dims(x, y, a_trans, not b_trans)
    if shapes.same_dim(other_ka, other_kb):
        note = f"use {call.format(b_trans=not b_trans)}"
    elif ones:
        note = f"build the ones vector with {ka} rows: pypto.full([{ka}, 1], 1.0, pypto.DT_FP32)"
    else:
        note = "the input's K (last dim, or dim -2 with a_trans) must equal mat2's K (dim -2, or last with b_trans)"
    raise shapes.ShapeError("pypto-matmul-k", head, note)


def _matmul_call(a: Args, rhs_key: str, out: str | None, a_trans: bool) -> str:
    lhs, rhs = a.source("input", 0) or "a", a.source(rhs_key, 1) or "b"
    flags = ", a_trans=True" if a_trans else ""
    return f"pypto.matmul({lhs}, {rhs}, {out or 'out_dtype'}{flags}, b_trans={{b_trans}})"


def _matmul(a: Args) -> Result:
    x, y = a.tensor("input", 0), a.tensor("mat2", 1)
    if x is None or y is None:
        return None
    a_trans = a.bool_value("a_trans", 99, False)
    b_trans = a.bool_value("b_trans", 99, False)
    if a_trans is None or b_trans is None:
        return TensorVal(None, a.dtype("out_dtype", 2))
    check_matmul_k(x.shape, y.shape, a_trans, b_trans, _matmul_call(a, "mat2", a.source("out_dtype", 2), a_trans))
    return TensorVal(shapes.matmul(x.shape, y.shape, a_trans, b_trans), a.dtype("out_dtype", 2))


# `@` picks out_dtype from the rhs dtype (§3.2): FP16/BF16/FP32 keep it, INT8 gives INT32.
_MATMUL_OPERATOR_OUT: Final = {"DT_FP16": "DT_FP16", "DT_BF16": "DT_BF16", "DT_FP32": FP32, "DT_INT8": INT32}


def _matmul_operator(a: Args) -> Result:
    x, y = a.tensor("input", 0), a.tensor("other", 1)
    if x is None or y is None:
        return None
    out = _MATMUL_OPERATOR_OUT.get(y.dtype or "")
    out_src = f"pypto.{out}" if out else "out_dtype"
    check_matmul_k(x.shape, y.shape, False, False, _matmul_call(a, "other", out_src, False))
    return TensorVal(shapes.matmul(x.shape, y.shape, False, False), out)


def _getitem(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    keys = a.index_keys()
    if keys and all(shapes.is_int_key(k) or k is shapes.MAYBE_INT_KEY for k in keys):
        if x.shape is None or any(k is shapes.MAYBE_INT_KEY for k in keys):
            return ANY  # maybe one element, maybe a sub-tensor
        if len(keys) == len(x.shape):
            return SCALAR  # an all-int index reads one element: a SymbolicScalar (INT32 tensors)
    return TensorVal(shapes.index(x.shape, keys), x.dtype)



# --- the table -------------------------------------------------------------------------

_ROWS: list[tuple[OpKind, Rule, Sequence[str]]] = [
    ("elementwise", _binary(None), [
        "add", "sub", "mul", "div", "fmod", "remainder", "pow", "maximum", "minimum", "hypot",
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
        "copysign", "gcd", "ceil_div", "prelu",
        "__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__",
        "__mul__", "__rmul__", "__imul__", "__truediv__", "__rtruediv__", "__itruediv__",
        "__floordiv__", "__mod__", "__pow__",
    ]),
    ("compare", _binary(BOOL), [
        "eq", "ne", "lt", "le", "gt", "ge", "greater", "logical_and",
        "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
    ]),
    ("unary", _same, [
        "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "abs", "neg",
        "sign", "reciprocal", "relu", "round", "ceil", "floor", "trunc", "sin", "cos", "sigmoid",
        "cumsum", "triu", "tril", "triu_", "tril_", "clip", "bitwise_not", "cbrt",
        "lrelu", "clone", "fill_", "__neg__", "__pos__",
    ]),
    ("unary", _to_dtype(BOOL), ["signbit", "isfinite", "logical_not"]),
    ("reduction", _reduction, ["sum", "amax", "amin", "prod"]),
    ("reduction", _var, ["var"]),
    ("reduction", _softmax, ["softmax"]),
    ("reduction", _same, ["rms_norm"]),
    ("cast", _cast, ["cast"]),
    ("reshape", _reshape, ["reshape"]),
    ("reshape", _view, ["view"]),
    ("transpose", _transpose, ["transpose"]),
    ("layout", _unsqueeze, ["unsqueeze"]),
    ("concat", _concat, ["concat"]),
    ("layout", _expand_clone, ["expand_clone"]),
    ("elementwise", _where, ["where"]),
    ("creation", _full, ["full"]),
    ("creation", _zeros_ones, ["zeros", "ones"]),
    ("other", _topk, ["topk"]),
    ("matmul", _matmul, ["matmul"]),
    ("matmul", _matmul_operator, ["__matmul__"]),
    ("layout", _getitem, ["__getitem__"]),
]

OPS: Final[dict[str, Op]] = {name: Op(name, kind, rule) for kind, rule, names in _ROWS for name in names}


