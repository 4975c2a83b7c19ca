"""What each op-call check reads, and which of it one call leaves unknown (``pypto-check --coverage``).

A check *ran* at a call when every fact it decides on is known there, whatever it found; else it
was *skipped*, with the facts it missed. Each check needs only its own facts: a reduce-align check
needs the input's dtype, its rank, the reduced axes and the vec tile's entry for the last axis,
not every dim. The op's shape rule counts as one check, ``shape-rule`` (:mod:`.rule_reads`). A
dim the checker does not know is taken to be static (dynamic dims come from annotations and every
rule keeps them).
"""

from __future__ import annotations

from typing import Final

from ..op_call import Call
from ..ops import Op
from ..shapes import is_dynamic, normalize_axis
from ..op_dtypes_data import REJECTED
from ..op_dtypes_scalar_data import SCALAR_REJECTED
from ..tiles import UNKNOWN
from ..values import TensorVal
from . import dynamic as dyn
from . import elementwise as ew
from . import matmul as mm
from . import op_dtypes as od
from . import tiles as tc
from .registry import Check, op_checks
from .rule_reads import Needs, dtype, flags, known, nothing, pairs, rank, rule_needs

RULE: Final = "shape-rule"
VEC: Final = "vec tile"
CUBE: Final = "cube tile"
# Advice, off by default (pypto-matmul-dtype-doc): not part of what the compiler rejects.
_ADVICE: Final[frozenset[Check]] = frozenset({mm.matmul_doc_dtypes})


def _tile_entry(call: Call, n: int, axis: int) -> list[str]:
    """The vec tile's entry for ``axis`` of a rank-``n`` tensor (no tile, a shorter one: decided)."""
    vec = call.env.vec
    if vec is UNKNOWN:
        return [VEC]
    if not isinstance(vec, tuple) or len(vec) < n:
        return []
    return [f"{VEC} entry {axis}"] if vec[axis] is None else []


def _reduce_align(c: Call) -> list[str]:
    reduce, x = c.row.reduce, c.args.tensor("input", 0)
    if not c.env.reduce_align_rule or reduce is None or x is None:
        return []
    missing = dtype(x, "input") + rank(x, "input")
    if x.shape is None:
        return missing + ([VEC] if c.env.vec is UNKNOWN else [])
    n = len(x.shape)
    axes = reduce.axes(c.args, n)
    if axes is None:
        return missing + ["axis"] + ([VEC] if c.env.vec is UNKNOWN else [])
    if n - 1 not in axes:
        return []
    return missing + _tile_entry(c, n, n - 1)


def _vec_known(c: Call) -> list[str]:
    return [VEC] if c.env.vec is UNKNOWN else []


def _cube_known(c: Call) -> list[str]:
    return [CUBE] if c.env.cube is UNKNOWN else []


def _vec_tile_rank(c: Call) -> list[str]:
    if c.env.vec is UNKNOWN:
        return [VEC]
    if not isinstance(c.env.vec, tuple) or c.row.short_tile == "unprovable":
        return []
    missing = rank(c.args.tensor("input", 0), "input") + rank(c.args.tensor("other", 1), "other")
    results = c.result if isinstance(c.result, tuple) else (c.result,)
    if any(isinstance(r, TensorVal) and r.shape is None for r in results) and not missing:
        missing.append("rank of result")
    return missing


def _copies(c: Call, x: TensorVal) -> list[str]:
    """What ``tiles._copies`` needs to tell whether a reshape/view copies."""
    target = c.args.dims("shape", 1)
    if target is None:
        return ["target shape"]
    if x.shape is None:
        return ["rank of input"]
    if -1 not in target and tuple(target) != tuple(x.shape) and any(not isinstance(d, int) for d in target):
        return ["target shape"]
    return []


def _reshape_tile_missing(c: Call) -> list[str]:
    x = c.args.tensor("input", 0)
    return [] if c.env.vec_set_in_kernel or x is None else _copies(c, x)


def _copy_tile_align(c: Call) -> list[str]:
    x, out, vec = c.args.tensor("input", 0), c.result, c.env.vec
    if not c.into_output or x is None:
        return []
    if not isinstance(out, TensorVal) or out.shape is None:
        return ["rank of result"]
    missing = ["dtype of result"] if out.dtype is None else []
    if vec is UNKNOWN:
        return missing + [VEC]
    if not isinstance(vec, tuple) or len(vec) != len(out.shape):
        return []
    if vec[-1] is None:
        missing.append(f"{VEC} entry {len(vec) - 1}")
    return missing + _copies(c, x)


def _transpose_tile_rank(c: Call) -> list[str]:
    x = c.args.tensor("input", 0)
    if x is None:
        return []
    if x.shape is None:
        return ["rank of input"]
    d0, d1 = c.args.int_value("dim0", 1), c.args.int_value("dim1", 2)
    if d0 is None or d1 is None:
        return ["axis"]
    n = len(x.shape)
    a, b = normalize_axis(d0, n), normalize_axis(d1, n)
    if a is None or b is None or a == b:
        return []
    if c.env.vec is UNKNOWN:
        return [VEC]
    if isinstance(c.env.vec, tuple) and len(c.env.vec) == n:
        return []
    # the exception (both swapped dims 1) is decided by a known dim other than 1, or both known
    pair = [x.shape[a], x.shape[b]]
    if any(known(d) and d != 1 for d in pair) or all(known(d) for d in pair):
        return []
    return [f"dim {i} of input" for i in (a, b) if not known(x.shape[i])]


def _cube_tile_values(c: Call) -> list[str]:
    cube = c.env.cube
    if cube is UNKNOWN:
        return [CUBE]
    if not isinstance(cube, tuple) or len(cube) != 3 or any(len(part) < 2 for part in cube):
        return []
    missing = [f"{CUBE} entry {axis}{i}" for axis, part in zip("mkn", cube) for i, v in enumerate(part) if v is None]
    missing += dtype(c.args.tensor("input", 0), "input") + dtype(c.args.tensor(c.row.rhs, 1), c.row.rhs)
    return missing + flags(c)


def _matmul_rank(c: Call) -> list[str]:
    x, y = c.args.tensor("input", 0), c.args.tensor(c.row.rhs, 1)
    if x is None or y is None:
        return []
    missing = rank(x, "input") + rank(y, c.row.rhs)
    if missing or x.shape is None or y.shape is None or len(x.shape) != len(y.shape):
        return missing
    return pairs([("input", x.shape[:-2]), (c.row.rhs, y.shape[:-2])])


def _matmul_dtypes(c: Call) -> list[str]:
    x, y = c.args.tensor("input", 0), c.args.tensor(c.row.rhs, 1)
    if x is None or y is None:
        return []
    missing = dtype(x, "input") + dtype(y, c.row.rhs)
    if c.row.explicit_matmul and c.args.given("out_dtype", 2) and c.args.dtype("out_dtype", 2) is None:
        missing.append("out_dtype")
    return missing


def _dtype_mismatch(c: Call) -> list[str]:
    x, y = c.args.tensor("input", 0), c.args.tensor("other", 1)
    return [] if x is None or y is None else dtype(x, "input") + dtype(y, "other")


def _concat_dtypes(c: Call) -> list[str]:
    ts = c.args.tensor_list("tensors", 0)
    if ts is None:
        return ["tensors"]
    return ["dtypes of tensors"] if any(t.dtype is None for t in ts) else []


def _dynamic_operand(c: Call) -> list[str]:
    if c.row.on_dynamic is None or not c.env.dynamic_dim_rule:
        return []
    return rank(c.args.tensor("input", 0), "input") + rank(c.args.tensor(c.row.rhs, 1), c.row.rhs)


def _dynamic_slice(c: Call) -> list[str]:
    x = c.args.tensor("input", 0)
    if not c.env.dynamic_dim_rule or x is None:
        return []
    if x.shape is None:
        return ["rank of input"]
    if not any(is_dynamic(d) for d in x.shape):
        return []
    return ["index"] if any(k is None for k in c.args.index_keys()) else []


def _op_dtype(c: Call) -> list[str]:
    positions = od.tensor_positions(c.op)
    if c.op not in REJECTED or not positions:
        return []
    names = {0: "input", 1: "other"}
    return [m for p in positions for m in dtype(c.args.tensor(p, p), names.get(p, f"operand {p}"))]


def _scalar_op_dtype(c: Call) -> list[str]:
    where = od.scalar_positions(c.op)
    if c.op not in SCALAR_REJECTED or where is None:
        return []
    tpos, spos, _ = where
    if any(c.args.number_kind(p, p) is None for p in spos):
        return []  # not a Python number there: not the scalar form
    return dtype(c.args.tensor(tpos, tpos), "input")


NEEDS: Final[dict[Check, Needs]] = {
    tc.reduce_align: _reduce_align,
    tc.vec_tile_missing: _vec_known,
    tc.reduce_tile_missing: _vec_known,
    tc.vec_tile_rank: _vec_tile_rank,
    tc.reshape_tile_missing: _reshape_tile_missing,
    tc.copy_tile_align: _copy_tile_align,
    tc.transpose_tile_rank: _transpose_tile_rank,
    tc.cube_tile_missing: _cube_known,
    mm.cube_tile_values: _cube_tile_values,
    mm.matmul_rank: _matmul_rank,
    mm.matmul_dtypes: _matmul_dtypes,
    mm.matmul_doc_dtypes: nothing,
    ew.dtype_mismatch: _dtype_mismatch,
    ew.concat_dtypes: _concat_dtypes,
    ew.int_scalar: nothing,  # reads the operands' types, which mypy gives
    dyn.dynamic_operand: _dynamic_operand,
    dyn.dynamic_slice: _dynamic_slice,
    od.op_dtype: _op_dtype,
    od.scalar_op_dtype: _scalar_op_dtype,
}


def reads(op: Op, c: Call) -> list[tuple[str, tuple[str, ...]]]:
    """(a check's name, the facts it missed) for the shape rule and every check of the op; an
    empty tuple: the check ran."""
    out = [(RULE, tuple(dict.fromkeys(rule_needs(op, c))))]
    for check in op_checks(op):
        if check not in _ADVICE:
            out.append((check.__name__.replace("_", "-"), tuple(dict.fromkeys(NEEDS[check](c)))))
    return out
