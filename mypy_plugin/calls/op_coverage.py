"""Op-level coverage for ``pypto-check --coverage``: for each op call a kernel reaches (its own and
its helpers', at any depth), which of its checks ran and what the others missed
(:mod:`knowledge.checks.reads`), and the older, stricter measure: checked with every input shape
and dtype known and, where the op needs one, a known tile. Recorded from the op hooks while
coverage is collected."""

from __future__ import annotations

from typing import Final

from mypy.nodes import Context, FuncDef
from mypy.types import AnyType, Type, get_proper_type

from ..bridge.tensor_types import tensor_val
from ..kernel import copies as kernel_copies
from ..knowledge.checks.reads import reads
from ..knowledge.op_call import Call, Env
from ..knowledge.ops import OPS, Op
from ..knowledge.tiles import UNKNOWN
from ..knowledge.values import Result, TensorVal
from ..trace.state import OpRecord
from ..trace.values import UNKNOWN as UNKNOWN_VALUE
from . import coverage


def function_key(path: str, func: FuncDef) -> str:
    return f"{path}:{func.line}:{func.name}"


def record(api: object, func: FuncDef, op: Op, call: Call, operands: list[Type | None], result: Result,
           ctx: Context) -> None:
    """``call``: as the op's checks saw it (the tiles in force; unknown ones for an op with no check)."""
    if coverage.active() is None:
        return
    path = getattr(api, "path", None)
    if not isinstance(path, str):
        return
    owner = function_key(path, kernel_copies.root(func))
    facts = [(isinstance(get_proper_type(t), AnyType), tensor_val(t)) for t in operands if t is not None]
    _seen(owner, (path, ctx.line, ctx.column, call.label), op, call, facts, result)


def record_traced(owner: str, ops: tuple[OpRecord, ...]) -> None:
    """The op calls a trace of another module's body checked (``trace/``), for ``owner``'s check."""
    if coverage.active() is None:
        return
    for r in ops:
        facts = [(v is UNKNOWN_VALUE, v if isinstance(v, TensorVal) else None) for v in r.operands]
        _seen(owner, (r.path, r.line, r.column, r.call.label), OPS[r.call.op], r.call, facts, r.result)


# Per operand: whether its type is unknown to the checker (a tensor or a scalar, it cannot tell),
# and the tensor it is.
Facts = list[tuple[bool, "TensorVal | None"]]


def _seen(owner: str, where: tuple[str, int, int, str], op: Op, call: Call, facts: Facts, result: Result) -> None:
    opaque = any(unknown for unknown, _ in facts)
    # An operand mypy does not know: no check can tell a tensor from a scalar there.
    checks = tuple((name, _OPAQUE if opaque else missing) for name, missing in reads(op, call))
    coverage.op_seen(owner, where, _status(op, facts, call.env, result), checks)


_OPAQUE: Final = ("an operand's type",)


def _status(op: Op, facts: Facts, env: Env, result: Result) -> str:
    tensors = 0
    for unknown, v in facts:
        if unknown:
            return "an operand's type is unknown"
        if v is not None:
            tensors += 1
            if not coverage.concrete(v):
                return "input shape or dtype unknown"
    if op.tile is not None:
        tile = env.cube if op.tile == "cube" else env.vec
        which = "cube" if op.tile == "cube" else "vec"
        if tile is None or tile is UNKNOWN:
            return f"{which} tile unknown"
        if isinstance(tile, tuple) and None in _entries(tile):
            return f"{which} tile partly unknown"
    if tensors:
        return coverage.REACHED
    # pypto.full / zeros / concat of a list: no tensor operand; the result says whether its
    # shape arguments were known.
    return coverage.REACHED if isinstance(result, TensorVal) and coverage.concrete(result) else "shape arguments unknown"


def _entries(tile: tuple[object, ...]) -> list[object]:
    """A vec tile's entries, or a cube tile's (m, k, n) lists flattened."""
    return [x for part in tile for x in (part if isinstance(part, tuple) else (part,))]
