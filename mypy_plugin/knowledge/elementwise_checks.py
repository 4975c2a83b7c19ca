"""Checks on elementwise operands: PyPTO never promotes dtypes (rules: no-dtype-promotion, concat-dtypes)."""

from __future__ import annotations

from .call import Call
from .shapes import ShapeError, fmt_shape


def dtype_mismatch(c: Call) -> ShapeError | None:
    """FC0000 "The dtype of input tensors are not same." (rule: no-dtype-promotion).
    Python scalars take the tensor's dtype, so only tensor-tensor pairs are compared."""
    x, y = c.args.tensor("input", 0), c.args.tensor("other", 1)
    if x is None or y is None or x.dtype is None or y.dtype is None or x.dtype == y.dtype:
        return None
    lhs, rhs = c.args.source("input", 0), c.args.source("other", 1)
    target = f"pypto.cast({rhs or 'other'}, pypto.{x.dtype})"
    return ShapeError(
        "pypto-dtype-mismatch",
        f"{c.label} mixes {x.dtype} {fmt_shape(x.shape)} and {y.dtype} {fmt_shape(y.shape)}; PyPTO does not "
        "promote dtypes: the compiler raises FC0000 (The dtype of input tensors are not same.)",
        f"cast one side first, e.g. {target}"
        + (f" (or pypto.cast({lhs}, pypto.{y.dtype}))" if lhs else ""),
    )


def concat_dtypes(c: Call) -> ShapeError | None:
    """FC0000 "The dataType of all tensors should be equal" (rule: concat-dtypes)."""
    ts = c.args.tensor_list("tensors", 0)
    if not ts:
        return None
    known = [t.dtype for t in ts if t.dtype is not None]
    if len(set(known)) <= 1:
        return None
    return ShapeError(
        "pypto-dtype-mismatch",
        f"{c.label} joins tensors of dtypes {', '.join(known)}; the compiler raises FC0000 "
        "(The dataType of all tensors should be equal)",
        "cast them to one dtype with pypto.cast first",
    )
