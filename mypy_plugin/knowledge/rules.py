"""The op rules: what each PyPTO op does to shape and dtype, read through :class:`Args`.

A rule returns the result, or ``None`` for "unknown" (the declared return type stays); it
raises :class:`ShapeError` for a call the compiler rejects. A recovery (the row's ``recover``)
gives what such a call meant, from founded facts only, so later checks still run. Which op uses
which rule, and every other fact about an op, is in its row in :mod:`.ops`.
"""

from __future__ import annotations

from typing import Final

from . import indexing, shapes
from .dtypes import FP32, INT32
from .shapes import Shape, normalize_axis
from .values import ANY, SCALAR, Args, Result, Rule, TensorVal


def _first(a: Args) -> TensorVal | None:
    return a.tensor("input", 0)


# --- rules ---------------------------------------------------------------------------

def binary(result_dtype: str | None, broadcast: shapes.Broadcast = shapes.broadcast) -> Rule:
    """Tensor-tensor or tensor-scalar; a scalar keeps the tensor's dtype (rule: scalar-keeps-dtype).
    Two dtypes: the left one (the dtype check reports the mismatch)."""

    def rule(a: Args) -> Result:
        x, y = a.tensor("input", 0), a.tensor("other", 1)
        if x is None and y is None:
            return None
        if x is None or y is None:
            t = x or y
            assert t is not None
            # The other operand keeps the tensor's shape only if it is surely a scalar: one of
            # unknown type (``Any``) may be a tensor that broadcasts it. Its dtype: a valid
            # program has the tensor's (and a mismatch is the left operand's anyway).
            known = a.scalar("other", 1) if x is not None else a.scalar("input", 0)
            return TensorVal(t.shape if known else None, result_dtype or t.dtype)
        return TensorVal(broadcast(x.shape, y.shape), result_dtype or x.dtype)

    return rule


def binary_founded(result_dtype: str | None) -> Rule:
    """Recovery of :func:`binary`: dims that do not broadcast are unknown, the rank is kept."""
    return binary(result_dtype, shapes.broadcast_founded)


def same(a: Args) -> Result:
    x = _first(a)
    return None if x is None else TensorVal(x.shape, x.dtype)


def to_dtype(dtype: str) -> Rule:
    def rule(a: Args) -> Result:
        x = _first(a)
        return None if x is None else TensorVal(x.shape, dtype)

    return rule


def reduction(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    keep = a.bool_value("keepdim", 2, False)
    if keep is None:
        return TensorVal(None, x.dtype)
    return TensorVal(shapes.reduce(x.shape, a.int_value("dim", 1), keep), x.dtype)


def var(a: Args) -> Result:
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


def softmax(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    dim = a.int_value("dim", 1)
    if x.shape is not None and dim is not None:
        shapes.reduce(x.shape, dim, True)  # range check only
    return TensorVal(x.shape, x.dtype)


def cast(a: Args) -> Result:
    x = _first(a)
    return None if x is None else TensorVal(x.shape, a.dtype("dtype", 1))


def reshape(a: Args) -> Result:
    x = _first(a)
    return None if x is None else TensorVal(shapes.reshape(x.shape, a.dims("shape", 1)), x.dtype)


def reshape_as_written(a: Args) -> Result:
    """Recovery of :func:`reshape` (element count): the shape the call asks for."""
    x = _first(a)
    dims = a.dims("shape", 1)
    if x is None:
        return None
    return TensorVal(None if dims is None else tuple(None if d == -1 else d for d in dims), x.dtype)


def view(a: Args, check: bool = True) -> Result:
    x = _first(a)
    if x is None:
        return None
    dims = a.dims("shape", 1)
    dtype = a.dtype("dtype", 99) if a.given("dtype", 99) else x.dtype
    if not a.given("shape", 1):
        return TensorVal(x.shape, dtype)
    if check and dims is not None and x.shape is not None and len(dims) != len(x.shape):
        raise shapes.ShapeError(
            "pypto-reshape",
            f"view to rank {len(dims)} {shapes.fmt_shape(tuple(dims))} of a rank-{len(x.shape)} "
            f"tensor {shapes.fmt_shape(x.shape)}",
            "view keeps the rank; use reshape to change it",
        )
    return TensorVal(None if dims is None else tuple(dims), dtype)


def view_as_written(a: Args) -> Result:
    """Recovery of :func:`view` (rank): the shape the call asks for."""
    return view(a, check=False)


def transpose(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    return TensorVal(shapes.transpose(x.shape, a.int_value("dim0", 1), a.int_value("dim1", 2)), x.dtype)


def unsqueeze(a: Args) -> Result:
    x = _first(a)
    return None if x is None else TensorVal(shapes.unsqueeze(x.shape, a.int_value("dim", 1)), x.dtype)


def concat(a: Args) -> Result:
    ts = a.tensor_list("tensors", 0)
    if not ts:
        return None
    dim = a.int_value("dim", 1) if a.given("dim", 1) else 0
    dtypes = {t.dtype for t in ts}
    dtype = ts[0].dtype if len(dtypes) == 1 else None
    return TensorVal(shapes.concat([t.shape for t in ts], dim), dtype)


def expand_clone(a: Args) -> Result:
    x = _first(a)
    dims = a.dims("shape", 1)
    return None if x is None else TensorVal(None if dims is None else tuple(dims), x.dtype)


def where(a: Args, broadcast: shapes.Broadcast = shapes.broadcast) -> Result:
    cond = a.tensor("condition", 0)
    x, y = a.tensor("input", 1), a.tensor("other", 2)
    shape: Shape = cond.shape if cond is not None else None
    for t in (x, y):
        if t is not None:
            shape = broadcast(shape, t.shape) if shape is not None else t.shape
    if any(t is None and not a.scalar(k, i) for t, k, i in ((cond, "condition", 0), (x, "input", 1), (y, "other", 2))):
        shape = None  # an operand of unknown type may be a tensor that broadcasts the others
    # A scalar input takes the other tensor's dtype; two scalars give FP32 (rule: where-dtype).
    dtype = x.dtype if x is not None else y.dtype if y is not None else FP32
    return TensorVal(shape, dtype)


def where_founded(a: Args) -> Result:
    """Recovery of :func:`where`: dims that do not broadcast are unknown."""
    return where(a, shapes.broadcast_founded)


def full(a: Args) -> Result:
    dims = a.dims("size", 0)
    return TensorVal(None if dims is None else tuple(dims), a.dtype("dtype", 2))


def zeros_ones(a: Args) -> Result:
    dims = a.varargs_dims(0)
    dtype = a.dtype("dtype", 99) if a.given("dtype", 99) else FP32
    return TensorVal(None if dims is None else tuple(dims), dtype)


def topk(a: Args) -> Result:
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


# --- torch's meaning of members PyPTO lacks (knowledge/members.py) -------------------------
# Their arguments come on the parameters the member's row names: ``DIMS`` for a ``*dims`` list.

DIMS: Final = tuple(f"d{i}" for i in range(8))


def _int_args(a: Args) -> list[int] | None:
    """``x.permute(1, 0)`` or ``x.permute([1, 0])``: the ints, or None if any is not known."""
    if not a.given(DIMS[0], 1):
        return []
    if a.int_value(DIMS[0], 1) is None:
        listed = a.dims(DIMS[0], 1)
        return [d for d in listed if isinstance(d, int)] if listed and all(isinstance(d, int) for d in listed) else None
    out: list[int] = []
    for i, key in enumerate(DIMS):
        if not a.given(key, i + 1):
            break
        v = a.int_value(key, i + 1)
        if v is None:
            return None
        out.append(v)
    return out


def torch_permute(a: Args) -> Result:
    """``x.permute(*dims)``: the dims in that order (a list that is not a permutation: unknown)."""
    x, dims = _first(a), _int_args(a)
    if x is None:
        return None
    if x.shape is None or dims is None:
        return TensorVal(None, x.dtype)
    axes = [normalize_axis(d, len(x.shape)) for d in dims]
    if sorted(ax for ax in axes if ax is not None) != list(range(len(x.shape))) or len(axes) != len(x.shape):
        return TensorVal(None, x.dtype)
    return TensorVal(tuple(x.shape[ax] for ax in axes if ax is not None), x.dtype)


def torch_squeeze(a: Args) -> Result:
    """``x.squeeze()`` drops every dim of 1, ``x.squeeze(d)`` that one if it is 1; a dim that may
    be 1 (unknown) leaves the shape unknown."""
    x = _first(a)
    if x is None:
        return None
    if x.shape is None:
        return TensorVal(None, x.dtype)
    if not a.given("dim", 1):
        if any(not isinstance(d, int) for d in x.shape):
            return TensorVal(None, x.dtype)
        return TensorVal(tuple(d for d in x.shape if d != 1), x.dtype)
    dim = a.int_value("dim", 1)
    ax = None if dim is None else normalize_axis(dim, len(x.shape))
    if ax is None or not isinstance(x.shape[ax], int):
        return TensorVal(None, x.dtype)
    return TensorVal(x.shape[:ax] + x.shape[ax + 1:] if x.shape[ax] == 1 else x.shape, x.dtype)


def torch_expand(a: Args) -> Result:
    """``x.expand(*sizes)``: the sizes, -1 keeping the (right-aligned) dim of ``x``."""
    x, sizes = _first(a), _int_args(a)
    if x is None:
        return None
    if x.shape is None or not sizes or len(sizes) < len(x.shape):
        return TensorVal(None, x.dtype)
    pad = (None,) * (len(sizes) - len(x.shape)) + x.shape
    return TensorVal(tuple(p if s == -1 else s for s, p in zip(sizes, pad)), x.dtype)


# --- recoveries that keep only the rank ---------------------------------------------------

def _unknown_dims(rank: int) -> Shape:
    return (None,) * rank


def same_rank(extra: int) -> Rule:
    """An axis out of range (transpose, unsqueeze): the rank (plus ``extra``), no dims."""

    def rule(a: Args) -> Result:
        x = _first(a)
        if x is None:
            return None
        return TensorVal(None if x.shape is None else _unknown_dims(len(x.shape) + extra), x.dtype)

    return rule


def reduced_rank(keepdim_pos: int) -> Rule:
    """A reduction axis out of range: the rank of the result (which dim went is unknown)."""

    def rule(a: Args) -> Result:
        x = _first(a)
        if x is None:
            return None
        keep = a.bool_value("keepdim", keepdim_pos, False)
        if x.shape is None or keep is None:
            return TensorVal(None, x.dtype)
        rank = len(x.shape)
        return TensorVal((1,) if rank == 1 else _unknown_dims(rank if keep else rank - 1), x.dtype)

    return rule


def concat_rank(a: Args) -> Result:
    """A concat dim out of range: the rank of the inputs, no dims."""
    ts = a.tensor_list("tensors", 0)
    if not ts:
        return None
    first = ts[0].shape
    dtypes = {t.dtype for t in ts}
    return TensorVal(None if first is None else _unknown_dims(len(first)), ts[0].dtype if len(dtypes) == 1 else None)


def check_matmul_k(x: Shape, y: Shape, a_trans: bool, b_trans: bool, call: str) -> None:
    """K-dimension valid shape mismatch (rule: matmul-k). ``call`` renders the fixed call,
    given the b_trans to use."""
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


def matmul(a: Args, check: bool = True) -> Result:
    x, y = a.tensor("input", 0), a.tensor("mat2", 1)
    if x is None or y is None:
        return None
    a_trans = a.bool_value("a_trans", 99, False)
    b_trans = a.bool_value("b_trans", 99, False)
    if a_trans is None or b_trans is None:
        return TensorVal(None, a.dtype("out_dtype", 2))
    if check:
        call = _matmul_call(a, "mat2", a.source("out_dtype", 2), a_trans)
        check_matmul_k(x.shape, y.shape, a_trans, b_trans, call)
    return TensorVal(shapes.matmul(x.shape, y.shape, a_trans, b_trans), a.dtype("out_dtype", 2))


def _founded_mn(result: Result, x: Shape, y: Shape, a_trans: bool, b_trans: bool) -> Result:
    """After a K mismatch, M (N) is founded only if flipping a_trans (b_trans) would not make
    K agree: otherwise that operand may be the one laid out wrongly, and its other dim is M (N)."""
    if not isinstance(result, TensorVal) or result.shape is None or len(result.shape) < 2:
        return result
    m, n = result.shape[-2:]
    for flip_a, flip_b in ((True, False), (False, True), (True, True)):
        if shapes.same_dim(*shapes.k_dims(x, y, a_trans != flip_a, b_trans != flip_b)):
            m = None if flip_a else m
            n = None if flip_b else n
    return TensorVal(result.shape[:-2] + (m, n), result.dtype)


def matmul_unchecked(a: Args) -> Result:
    """Recovery of :func:`matmul` (K mismatch): [..., M, N] from the operands, as founded."""
    x, y = a.tensor("input", 0), a.tensor("mat2", 1)
    a_trans, b_trans = a.bool_value("a_trans", 99, False), a.bool_value("b_trans", 99, False)
    if x is None or y is None or a_trans is None or b_trans is None:
        return matmul(a, check=False)
    return _founded_mn(matmul(a, check=False), x.shape, y.shape, a_trans, b_trans)


# `@` picks out_dtype from the rhs dtype (rule: matmul-operator-dtype): FP16/BF16/FP32 keep it, INT8 gives INT32.
MATMUL_OPERATOR_OUT: Final = {"DT_FP16": "DT_FP16", "DT_BF16": "DT_BF16", "DT_FP32": FP32, "DT_INT8": INT32}


def matmul_operator(a: Args, check: bool = True) -> Result:
    x, y = a.tensor("input", 0), a.tensor("other", 1)
    if x is None or y is None:
        return None
    out = MATMUL_OPERATOR_OUT.get(y.dtype or "")
    out_src = f"pypto.{out}" if out else "out_dtype"
    if check:
        check_matmul_k(x.shape, y.shape, False, False, _matmul_call(a, "other", out_src, False))
    return TensorVal(shapes.matmul(x.shape, y.shape, False, False), out)


def matmul_operator_unchecked(a: Args) -> Result:
    """Recovery of :func:`matmul_operator` (K mismatch): [..., M, N] from the operands, as founded."""
    x, y = a.tensor("input", 0), a.tensor("other", 1)
    if x is None or y is None:
        return None
    return _founded_mn(matmul_operator(a, check=False), x.shape, y.shape, False, False)


def getitem(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    keys = a.index_keys()
    if keys and all(indexing.is_int_key(k) or k is indexing.MAYBE_INT_KEY for k in keys):
        if x.shape is None or any(k is indexing.MAYBE_INT_KEY for k in keys):
            return ANY  # maybe one element, maybe a sub-tensor
        if len(keys) == len(x.shape):
            return SCALAR  # an all-int index reads one element: a SymbolicScalar (INT32 tensors)
    return TensorVal(indexing.index(x.shape, keys), x.dtype)


# --- which axes a reduction reduces (for the tile checks) ------------------------------

def axes_of_dim(a: Args, rank: int) -> list[int] | None:
    """The ``dim`` argument (an int, or a list of ints)."""
    dim = a.int_value("dim", 1)
    if dim is not None and dim < -rank:
        # 0.2.0 does not reject a negative out-of-range axis: it goes on to the last-axis
        # alignment check (FC1001 when unaligned, oracle regression) and crashes otherwise
        # (rule: reduce-negative-axis).
        return [rank - 1]
    if dim is None:
        dims = a.dims("dim", 1)
        if dims is None or any(not isinstance(d, int) for d in dims):
            return None
        return [normalize_axis(d, rank) or 0 for d in dims if isinstance(d, int)]
    ax = normalize_axis(dim, rank)
    return None if ax is None else [ax]


def var_axes(a: Args, rank: int) -> list[int] | None:
    """``var()`` with no ``dim`` reduces every axis."""
    return list(range(rank)) if not a.given("dim", 1) else axes_of_dim(a, rank)


def last_axis(a: Args, rank: int) -> list[int] | None:
    """``rms_norm`` normalises over the last axis."""
    return [rank - 1]
