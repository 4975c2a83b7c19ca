"""The registry of op-call checks: which checks run for an op, from the facts in its row.

A check sees one call (:class:`Call`: op, arguments, tiles in force, options, inferred result)
and returns a :class:`Finding` to report, or None. The op's result is inferred either way.
Every check stays silent on anything unknown. The checks live in ``*_checks.py`` and import
only :mod:`.call`, never this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..op_call import UNKNOWN_TILES as UNKNOWN_TILES
from ..op_call import Call as Call
from ..op_call import Env as Env
from ..codes.op_codes import DYNAMIC_DIM, NOT_CONCRETE, OP_DTYPE
from ..findings import Finding
from ..ops import Op, OpKind, Result, TileRegime
from . import dynamic as dyn
from . import elementwise as ew
from . import matmul as mm
from . import op_dtypes as od
from . import tiles as tc

Check = Callable[[Call], "Finding | None"]

# Raised by Python at trace time (op/matmul.py), before the compiler looks at any tile.
# A failure here means the op is never built: the checks after it are not asked.
TRACE_CHECKS: Final[dict[OpKind, tuple[Check, ...]]] = {
    "matmul": (mm.matmul_rank, mm.matmul_dtypes),
    "compare": (ew.int_scalar,),
    "index": (dyn.dynamic_slice,),
}
# Ops whose row says they fail at trace time on an operand with a dynamic dim (``Op.on_dynamic``).
DYNAMIC_CHECKS: Final[tuple[Check, ...]] = (dyn.dynamic_operand,)
# Ops that 0.2.0 rejects on some probed dtype when it builds them (``Op.rejects_dtypes``): before
# any tile is looked at (a pypto.log on DT_INT32 with no tile set fails with FC0001).
DTYPE_CHECKS: Final[tuple[Check, ...]] = (od.op_dtype, od.scalar_op_dtype)
# By the op's tile regime (the row's ``tile``).
TILE_CHECKS: Final[dict[TileRegime, tuple[Check, ...]]] = {
    "vec": (tc.vec_tile_missing, tc.vec_tile_rank),
    "reduce": (tc.reduce_tile_missing, tc.vec_tile_rank, tc.reduce_align),
    "copy": (tc.reshape_tile_missing, tc.copy_tile_align),
    "transpose": (tc.transpose_tile_rank,),
    "cube": (tc.cube_tile_missing, mm.cube_tile_values),
}
# Checked by the compiler on the operands, after the tile.
COMPILE_CHECKS: Final[dict[OpKind, tuple[Check, ...]]] = {
    "elementwise": (ew.dtype_mismatch,),
    "concat": (ew.concat_dtypes,),
    "matmul": (mm.matmul_doc_dtypes,),  # advice only (off by default): 0.2.0 compiles these
}


def op_checks(op: Op) -> tuple[Check, ...]:
    """The checks for one op, in the order the compiler would meet them."""
    tile = TILE_CHECKS[op.tile] if op.tile is not None else ()
    return _trace_checks(op) + tile + COMPILE_CHECKS.get(op.kind, ())


def _trace_checks(op: Op) -> tuple[Check, ...]:
    return ((DYNAMIC_CHECKS if op.on_dynamic is not None else ()) + TRACE_CHECKS.get(op.kind, ())
            + (DTYPE_CHECKS if op.rejects_dtypes else ()))


def recovered(problems: list[Finding], result: Result) -> Result:
    """The op's result after its checks: what a later op may still be checked with."""
    if any(p.code in (DYNAMIC_DIM, NOT_CONCRETE) for p in problems):
        return dyn.without_dynamic_dims(result)
    if any(p.code is OP_DTYPE for p in problems):
        # Never built on that dtype: the fix (a cast before it) decides the result's dtype, so a
        # write of it into an output of another dtype is not a second root cause.
        return od.without_dtype(result)
    return result


def run_checks(op: Op, call: Call) -> list[Finding]:
    """What the op's checks report for one call; nothing after a trace-time failure (a comparison
    with an int never reaches the tile that a missing tile would blame)."""
    trace = _trace_checks(op)
    found: list[Finding] = []
    for check in op_checks(op):
        problem = check(call)
        if problem is not None:
            found.append(problem)
            if check in trace:
                break
    return found

