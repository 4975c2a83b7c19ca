"""The matmul rules (``pypto.matmul`` and ``@``): result shape and dtype, the K check and its recoveries (rule: matmul-k)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from . import shapes
from .codes.op_codes import MATMUL_K
from .dtypes import FP32, INT32
from .findings import Finding
from .shapes import Shape
from .values import Args, Result, TensorVal


def check_matmul_k(x: Shape, y: Shape, a_trans: bool, b_trans: bool, fixed_call: Callable[[], str]) -> None:
    """K-dimension valid shape mismatch (rule: matmul-k). ``fixed_call()`` renders the fixed call,
    given the b_trans to use (made only for a finding: the operands' text is not free)."""
    ka, kb = shapes.k_dims(x, y, a_trans, b_trans)
    if not shapes.differ(ka, kb):
        return
    call = fixed_call()
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
    raise Finding(MATMUL_K, head, note)


def _matmul_call(a: Args, rhs_key: str, out: str | None, a_trans: bool) -> str:
    lhs, rhs = a.text("input", 0) or "<input>", a.text(rhs_key, 1) or "<mat2>"
    flags = ", a_trans=True" if a_trans else ""
    return f"pypto.matmul({lhs}, {rhs}, {out or 'out_dtype'}{flags}, b_trans={{b_trans}})"


def matmul(a: Args, check: bool = True) -> Result:
    x, y = a.tensor("input", 0), a.tensor("mat2", 1)
    if x is None or y is None:
        return None
    a_trans = a.bool_value("a_trans", 99, False)
    b_trans = a.bool_value("b_trans", 99, False)
    if a_trans is None or b_trans is None:
        # A flag not known: [..., M, N] keeps what every setting it may have agrees on.
        options = [shapes.matmul(x.shape, y.shape, at, bt)
                   for at in ((a_trans,) if a_trans is not None else (False, True))
                   for bt in ((b_trans,) if b_trans is not None else (False, True))]
        return TensorVal(shapes.agreed(options), a.dtype("out_dtype", 2))
    if check:
        check_matmul_k(x.shape, y.shape, a_trans, b_trans,
                       lambda: _matmul_call(a, "mat2", a.text("out_dtype", 2), a_trans))
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
        check_matmul_k(x.shape, y.shape, False, False, lambda: _matmul_call(a, "other", out_src, False))
    return TensorVal(shapes.matmul(x.shape, y.shape, False, False), out)


def matmul_operator_unchecked(a: Args) -> Result:
    """Recovery of :func:`matmul_operator` (K mismatch): [..., M, N] from the operands, as founded."""
    x, y = a.tensor("input", 0), a.tensor("other", 1)
    if x is None or y is None:
        return None
    return _founded_mn(matmul_operator(a, check=False), x.shape, y.shape, False, False)
