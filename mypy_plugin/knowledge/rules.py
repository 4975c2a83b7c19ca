"""The op rules: what each PyPTO op does to shape and dtype, read through :class:`Args`.

A rule returns the result, or ``None`` for "unknown" (the declared return type stays); it
raises :class:`Finding` for a call the compiler rejects. A recovery (the row's ``recover``)
gives what such a call meant, from founded facts only, so later checks still run. Which op uses
which rule, and every other fact about an op, is in its row in :mod:`.ops`.
"""

from __future__ import annotations

from . import indexing, shapes
from .codes.op_codes import RESHAPE
from .dtypes import FP32, INT32
from .findings import Finding
from .shapes import Shape
from .values import ANY, SCALAR, Args, Result, Rule, TensorVal


def _first(a: Args) -> TensorVal | None:
    return a.tensor("input", 0)


# --- rules ---------------------------------------------------------------------------

def binary(result_dtype: str | None, broadcast: shapes.Broadcast = shapes.broadcast) -> Rule:
    """Tensor-tensor or tensor-scalar; a scalar keeps the tensor's dtype (rule: scalar-keeps-dtype).
    Two known dtypes that differ: no dtype (the compiler rejects the op, and the dtype check
    reports it; which dtype the fixed line has depends on the fix, so a write of the result is
    not reported a second time)."""

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
        mismatch = x.dtype is not None and y.dtype is not None and x.dtype != y.dtype
        return TensorVal(broadcast(x.shape, y.shape), result_dtype or (None if mismatch else x.dtype))

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
    dim = a.int_value("dim", 1)
    if dim is None:
        return TensorVal(shapes.reduce_some_axis(x.shape, keep), x.dtype)
    return TensorVal(shapes.reduce(x.shape, dim, keep), x.dtype)


def var(a: Args) -> Result:
    x = _first(a)
    if x is None:
        return None
    keep = a.bool_value("keepdim", 3, False)
    if not a.given("dim", 1):
        return TensorVal((1,), x.dtype)
    dim = a.int_value("dim", 1)
    if keep is None or dim is None and not a.python_int("dim", 1):
        return TensorVal(None, x.dtype)
    if dim is None:
        return TensorVal(shapes.reduce_some_axis(x.shape, keep), x.dtype)
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
    if check and dims is not None and x.shape is not None and len(dims) != len(x.shape) and not _rank_from_call(x):
        raise Finding(
            RESHAPE,
            f"view to rank {len(dims)} {shapes.fmt_shape(tuple(dims))} of a rank-{len(x.shape)} "
            f"tensor {shapes.fmt_shape(x.shape)}",
            "view keeps the rank; use reshape to change it",
        )
    return TensorVal(None if dims is None else tuple(dims), dtype)


def _rank_from_call(x: TensorVal) -> bool:
    """An unknown dim (``pypto.STATIC``: its size comes from the call) marks a parameter of a
    runtime-shaped kernel that 0.2.0 traces with the call's tensor, rank included (rule: view-rank):
    its annotation's rank proves nothing. The kernel checked with a call's tensors has the rank."""
    assert x.shape is not None
    return None in x.shape


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
    return TensorVal(shapes.concat([t.shape for t in ts], dim), _one_dtype(ts))


def _one_dtype(ts: list[TensorVal]) -> str | None:
    """The dtype the known ones share (concat needs one dtype: FC0000 otherwise)."""
    dtypes = {t.dtype for t in ts if t.dtype is not None}
    return dtypes.pop() if len(dtypes) == 1 else None


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
    if x.shape is not None:
        dim = a.int_value("dim", 2) if a.given("dim", 2) else -1
        ax = None if dim is None else shapes.normalize_axis(dim, len(x.shape))
        if ax is not None:  # (k not known: that dim is not, the rank is)
            shape = x.shape[:ax] + (k,) + x.shape[ax + 1:]
        elif dim is None:
            shape = _unknown_dims(len(x.shape))
    return (TensorVal(shape, x.dtype), TensorVal(shape, INT32))


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
    first = next((t.shape for t in ts if t.shape is not None), None)
    return TensorVal(None if first is None else _unknown_dims(len(first)), _one_dtype(ts))


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
