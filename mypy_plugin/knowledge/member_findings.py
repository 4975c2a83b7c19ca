"""The findings of a member PyPTO's tensors lack (``x.abs()``, ``x.T``; rules: missing-members,
no-transpose-attribute): one text for mypy's hooks (``bridge/diagnostics.py``) and the body
tracer (``trace/``), which reports them when only the call makes the receiver a tensor (a helper's
unannotated parameter)."""

from __future__ import annotations

from .codes.op_codes import NO_METHOD, TRANSPOSE
from .findings import Finding
from .members import MISSING
from .shapes import fmt_shape
from .values import TensorVal


def describe(val: TensorVal | None) -> str:
    """``[8, 64] DT_FP32`` for a message, or "a tensor" when nothing is known."""
    return "a tensor" if val is None else f"{fmt_shape(val.shape)} {val.dtype or '?'}"


def fill_receiver(template: str, bare: str | None, operand: str | None) -> str:
    """A fix with ``{x}`` as the receiver is written: bare as a call's argument (``pypto.abs(h *
    2.0)``), parenthesized where it is an operand or a receiver itself (``(h * 2.0).amax(dim)``);
    ``<the tensor>`` when it cannot be spelled."""
    if bare is None or operand is None:
        bare = operand = "<the tensor>"
    parts = template.split("{x}")
    out = parts[0]
    for before, after in zip(parts, parts[1:]):
        argument = before.endswith(("(", ", ")) and after.startswith((")", ","))
        out += (bare if argument else operand) + after
    return out


def no_method(name: str, receiver: str, bare: str | None, operand: str | None) -> Finding:
    member = MISSING.get(name)
    fix = fill_receiver(member.fix, bare, operand) if member is not None else ""
    call = member.spelled if member is not None else f".{name}()"
    if member is not None and member.broken_args is not None:
        message = (
            f'"Tensor{call}" is broken in PyPTO 0.2.0 (receiver: {receiver}): it passes '
            f"{member.broken_args} arguments to pypto.{name} and fails with TypeError"
        )
    else:
        message = f'PyPTO tensors have no "{call}" (receiver: {receiver}); it fails at trace time with AttributeError'
    return Finding(NO_METHOD, message, f"Use {fix}" if fix else None)


def transpose(receiver: str, expr: str | None, rank: int | None, matmul_fix: str | None) -> Finding:
    """``expr``: the tensor ``.T`` is read on, as written (None: a form that is not spelled)."""
    if matmul_fix is not None:
        note = f"let the matmul transpose it: {matmul_fix}"
    else:
        swap = "0, 1" if rank is None or rank < 2 else f"{rank - 2}, {rank - 1}"
        dims_of = expr if expr is not None else "the tensor"
        rank_text = "the tensor's rank" if rank is None else f"rank {rank} (as many entries as {dims_of} has dims)"
        note = (
            f"use pypto.transpose({expr if expr is not None else '<the tensor>'}, {swap}); it needs a vec tile of "
            f"{rank_text}; as a matmul operand, pass a_trans=True / b_trans=True to pypto.matmul instead"
        )
    message = (
        f'PyPTO tensors have no ".T" ({expr if expr is not None else "receiver"}: {receiver}); it fails at trace '
        "time with AttributeError"
    )
    return Finding(TRANSPOSE, message, note)
