"""An op called on a dtype that 0.2.0 rejects when it builds the op (rule: op-dtype-support).

The facts are the probed tables ``op_dtypes_data.py`` and ``op_dtypes_scalar_data.py`` (made by
``scripts/probe_op_dtypes.py``):
a call is reported only when its dtype was rejected for that very op, with the tensor operands
of the probed call (``a``, ``b``) all of that dtype. A scalar form (``pypto.minimum(a, 2)``,
``2 - a``) is its own call: reported only when the table's scalar form of that op rejected the
tensor's dtype with a scalar of that kind (an int, a float, or "number": either). Unprobed pairs,
a scalar of unknown kind and ops that no dtype gets past are silent.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Final

from .. import op_dtypes_data as data
from .. import op_dtypes_scalar_data as scalar_data
from ..codes.op_codes import OP_DTYPE
from ..dtypes import DTYPES
from ..findings import Finding
from ..op_call import Call
from ..values import Result, TensorVal

_ERRCODE: Final = re.compile(r"Errcode: (\w+)! (.*?), func \w+")
_FLOATS: Final = ("DT_FP32", "DT_FP16", "DT_BF16")
_INTS: Final = ("DT_INT32", "DT_INT16", "DT_INT64", "DT_INT8", "DT_UINT8")
# The dtype a cast goes to: the first one the op takes, in this order for the operand's kind.
_PREFER: Final[dict[str, tuple[str, ...]]] = {
    "float": _FLOATS + _INTS, "int": _INTS + _FLOATS, "uint": _INTS + _FLOATS, "bool": _FLOATS + _INTS,
}


@lru_cache(maxsize=None)
def tensor_positions(op: str) -> tuple[int, ...]:
    """The argument positions that held the probe's tensors (``pypto.clip(a, b, b)``: 0, 1, 2)."""
    call = data.CALLS.get(op)
    if call is None:
        return ()
    node = ast.parse(call, mode="eval").body
    args = ([node.left, node.right] if isinstance(node, ast.BinOp) else [node.left, *node.comparators]
            if isinstance(node, ast.Compare) else [node.operand] if isinstance(node, ast.UnaryOp)
            else node.args if isinstance(node, ast.Call) else [])
    return tuple(i for i, a in enumerate(args) if isinstance(a, ast.Name) and a.id in ("a", "b"))


def compiler_words(text: str) -> str:
    """``FC0001 (The datatype is not supported)`` from the probe's first line."""
    m = _ERRCODE.search(text)
    return f"{m.group(1)} ({m.group(2)})" if m else text


def op_dtype(c: Call) -> Finding | None:
    """FC0001 "The datatype is not supported" and friends, raised when the op is built."""
    rejected = data.REJECTED.get(c.op)
    positions = tensor_positions(c.op)
    if not rejected or not positions:
        return None
    operands = [c.args.tensor(p, p) for p in positions]
    dt = operands[0].dtype if operands[0] is not None else None
    if dt is None or dt not in rejected or any(t is None or t.dtype != dt for t in operands):
        return None
    supported = data.SUPPORTED.get(c.op, frozenset())
    passes = supported or data.NO_PIPE.get(c.op, frozenset())
    if not passes:  # no dtype gets past this op on 0.2.0: not a dtype rule
        return None
    kind = DTYPES[dt].kind if dt in DTYPES else "float"
    target = next(d for d in _PREFER.get(kind, _FLOATS + _INTS) + tuple(sorted(passes)) if d in passes)
    takes = ", ".join(sorted(passes))
    where = (f"{c.label} compiles on {takes}" if supported else
             f"{c.label} passes the dtype check on {takes} (0.2.0's SIM mode then has no pipe for it: F92001)")
    return Finding(
        OP_DTYPE,
        f"{c.label} does not take {dt}: 0.2.0 raises {compiler_words(rejected[dt])} when it builds the op",
        f"{where}; cast first: {_fixed(c, len(positions), target)}",
    )


@lru_cache(maxsize=None)
def scalar_positions(op: str) -> tuple[int, tuple[int, ...], bool] | None:
    """Where the probed scalar call has its tensor and its scalars, and whether the scalar is on the
    left of an operator: ``pypto.clip(a, 2, 2)``: (0, (1, 2), False); ``2 - a``: (0, (1,), True)
    (an operator's tensor is the receiver, position 0, whichever side it is written on)."""
    calls = scalar_data.SCALAR_CALLS.get(op)
    if not calls:
        return None
    node = ast.parse(next(iter(calls.values())), mode="eval").body
    if isinstance(node, ast.BinOp):
        return 0, (1,), isinstance(node.left, ast.Constant)
    if isinstance(node, ast.Compare):
        return 0, (1,), False
    args = node.args if isinstance(node, ast.Call) else []
    tensors = [i for i, a in enumerate(args) if isinstance(a, ast.Name)]
    numbers = tuple(i for i, a in enumerate(args) if isinstance(a, ast.Constant))
    return (tensors[0], numbers, False) if len(tensors) == 1 and numbers else None


def _scalar_row(op: str, kinds: set[str], dt: str) -> tuple[str, str] | None:
    """(the probed kind, the compiler's text) that rejected ``dt`` for scalars of ``kinds``: a
    "number" row covers any; an "int" or "float" row only scalars of its kind; a scalar that may be
    either needs both rows to reject it."""
    rows = scalar_data.SCALAR_REJECTED.get(op, {})
    if dt in rows.get("number", {}):
        return "number", rows["number"][dt]
    for kind in ("int", "float"):
        if kinds == {kind} and dt in rows.get(kind, {}):
            return kind, rows[kind][dt]
    both = kinds <= {"int", "float", "number"} and all(dt in rows.get(k, {}) for k in ("int", "float"))
    return ("int", rows["int"][dt]) if both else None


def scalar_op_dtype(c: Call) -> Finding | None:
    """FC0001 on a scalar form the two-tensor call may not have (``pypto.minimum(a, 2)`` on DT_INT8)."""
    where = scalar_positions(c.op)
    if where is None or c.op not in scalar_data.SCALAR_REJECTED:
        return None
    tpos, spos, left = where
    x, kinds = c.args.tensor(tpos, tpos), [c.args.number_kind(p, p) for p in spos]
    if x is None or x.dtype is None or any(k is None for k in kinds):
        return None
    found = _scalar_row(c.op, {k for k in kinds if k is not None}, x.dtype)
    if found is None:
        return None
    row, text = found
    supported = scalar_data.SCALAR_SUPPORTED.get(c.op, {}).get(row, frozenset())
    passes = supported or scalar_data.SCALAR_NO_PIPE.get(c.op, {}).get(row, frozenset())
    if not passes:  # no dtype gets past this scalar form on 0.2.0: not a dtype rule
        return None
    dt, kind = x.dtype, DTYPES[x.dtype].kind if x.dtype in DTYPES else "float"
    target = next(d for d in _PREFER.get(kind, _FLOATS + _INTS) + tuple(sorted(passes)) if d in passes)
    scalars = [c.args.text(p, p) or "2" for p in spos]
    what = ("Python int" if set(kinds) == {"int"} else "Python float" if set(kinds) == {"float"} else
            "Python number") + ("s" if len(scalars) > 1 else "")
    takes = ", ".join(sorted(passes))
    on = (f"{c.label} with a scalar compiles on {takes}" if supported else f"{c.label} with a scalar passes the "
          f"dtype check on {takes} (0.2.0's SIM mode then has no pipe for it: F92001)")
    tensor_form = (f"; or keep {dt} with a tensor operand: {c.label} of two {dt} tensors compiles"
                   if dt in data.SUPPORTED.get(c.op, frozenset()) else "")
    cast = f"pypto.cast({c.args.text(tpos, tpos) or 'x'}, pypto.{target})"
    return Finding(
        OP_DTYPE,
        f"{c.label} does not take {dt} with a scalar operand (the {what} {', '.join(scalars)}): 0.2.0 raises "
        f"{compiler_words(text)} when it builds the op",
        f"{on}; cast the tensor first (the result is then {target}): {_fixed_scalar(c, cast, tpos, scalars, left)}"
        f"{tensor_form}",
    )


def _fixed_scalar(c: Call, cast: str, tpos: int, scalars: list[str], left: bool) -> str:
    """The scalar call with its tensor cast: ``pypto.minimum(pypto.cast(a, pypto.DT_INT16), 2)``."""
    if c.row.symbol is not None:
        sym = c.row.symbol.split()[-1]
        sym = sym[:-1] if sym.endswith("=") and sym not in ("==", "!=", "<=", ">=") else sym
        return f"{scalars[0]} {sym} {cast}" if left else f"{cast} {sym} {scalars[0]}"
    if c.label.startswith("Tensor."):
        return f"{cast}.{c.label[len('Tensor.'):]}({', '.join(scalars)})"
    args = [cast if p == tpos else "..." for p in range(tpos + 1)] + scalars
    return f"{c.label}({', '.join(args)})"


def _fixed(c: Call, n: int, target: str) -> str:
    """The call with its tensor operands cast: ``pypto.log(pypto.cast(a, pypto.DT_FP32))``."""
    args = [f"pypto.cast({c.args.text(p, p) or ('x' if p == 0 else 'other')}, pypto.{target})" for p in range(n)]
    if c.row.symbol is not None:  # an operator: a + b, -a (a += b: a + b)
        sym = c.row.symbol.split()[-1]
        sym = sym[:-1] if sym.endswith("=") and sym not in ("==", "!=", "<=", ">=") else sym
        return f" {sym} ".join(args) if n == 2 else f"{sym}{args[0]}"
    args += ["..."] if c.args.given(n, n) else []
    if c.label.startswith("Tensor."):
        return f"{args[0]}.{c.label[len('Tensor.'):]}({', '.join(args[1:])})"
    return f"{c.label}({', '.join(args)})"


def without_dtype(result: Result) -> Result:
    """The result of an op 0.2.0 does not build on its operands' dtype: shape kept, dtype unknown."""
    if isinstance(result, TensorVal):
        return TensorVal(result.shape, None)
    if isinstance(result, tuple):
        return tuple(TensorVal(r.shape, None) if isinstance(r, TensorVal) else r for r in result)
    return result
