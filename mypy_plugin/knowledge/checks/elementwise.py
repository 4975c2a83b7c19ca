"""Checks on elementwise operands: PyPTO never promotes dtypes (rules: no-dtype-promotion, concat-dtypes)."""

from __future__ import annotations

from ..op_call import Call
from ..codes.op_codes import COMPARE_INT, DTYPE_MISMATCH
from ..findings import Finding
from ..shapes import fmt_shape


def dtype_mismatch(c: Call) -> Finding | None:
    """FC0000 "The dtype of input tensors are not same." (rule: no-dtype-promotion).
    Python scalars take the tensor's dtype, so only tensor-tensor pairs are compared."""
    x, y = c.args.tensor("input", 0), c.args.tensor("other", 1)
    if x is None or y is None or x.dtype is None or y.dtype is None or x.dtype == y.dtype:
        return None
    lhs, rhs = c.args.source("input", 0), c.args.source("other", 1)
    return Finding(
        DTYPE_MISMATCH,
        f"{c.label} mixes {x.dtype} {fmt_shape(x.shape)} and {y.dtype} {fmt_shape(y.shape)}; PyPTO does not "
        "promote dtypes: the compiler raises FC0000 (The dtype of input tensors are not same.)",
        _cast_note(x.dtype, y.dtype, lhs, rhs, c.out_dtype),
    )


def _cast_note(left: str, right: str, lhs: str | None, rhs: str | None, out: str | None) -> str:
    """The cast that fixes the op. Stored in an output of one side's dtype: the cast that gives
    that dtype, so the fixed line leaves no out-dtype error (one root cause, one finding)."""
    if out == left:
        return f"the result is stored in a {out} output: cast the other side, pypto.cast({rhs or 'other'}, pypto.{out})"
    if out == right:
        return f"the result is stored in a {out} output: cast the other side, pypto.cast({lhs or 'input'}, pypto.{out})"
    return f"cast one side first, e.g. pypto.cast({rhs or 'other'}, pypto.{left})" + (
        f" (or pypto.cast({lhs}, pypto.{right}))" if lhs else "")


def concat_dtypes(c: Call) -> Finding | None:
    """FC0000 "The dataType of all tensors should be equal" (rule: concat-dtypes)."""
    ts = c.args.tensor_list("tensors", 0)
    if not ts:
        return None
    known = [t.dtype for t in ts if t.dtype is not None]
    if len(set(known)) <= 1:
        return None
    return Finding(
        DTYPE_MISMATCH,
        f"{c.label} joins tensors of dtypes {', '.join(known)}; the compiler raises FC0000 "
        "(The dataType of all tensors should be equal)",
        "cast them to one dtype with pypto.cast first",
    )


def int_scalar(c: Call) -> Finding | None:
    """TypeError "Compare(): incompatible function arguments" (rule: compare-float-scalar): a
    comparison binds Compare(tensor, tensor | float), and a Python int is neither."""
    if c.row.int_scalar:
        return None
    for key, pos, other_key, other_pos in (("input", 0, c.row.rhs, 1), (c.row.rhs, 1, "input", 0)):
        if not c.args.python_int(key, pos) or c.args.tensor(other_key, other_pos) is None:
            continue
        name, value = c.args.source(key, pos), c.args.int_value(key, pos)
        written = f"the Python int {name or value}" if (name or value) is not None else "a Python int"
        if name is not None and value is not None:
            written += f" (= {value})"
        fix = f"float({name})" if name is not None else f"{value}.0" if value is not None else "float(...)"
        return Finding(
            COMPARE_INT,
            f"compares a tensor with {written}; 0.2.0 compares a tensor only with a tensor or a float and "
            "fails at trace time (TypeError: Compare(): incompatible function arguments)",
            f"compare with a float: {fix}",
        )
    return None
