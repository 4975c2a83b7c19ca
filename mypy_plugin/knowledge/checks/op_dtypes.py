"""An op called on a dtype that 0.2.0 rejects when it builds the op (rule: op-dtype-support).

The facts are the probed table ``op_dtypes_data.py`` (made by ``scripts/probe_op_dtypes.py``):
a call is reported only when its dtype was rejected for that very op, with the tensor operands
of the probed call (``a``, ``b``) all of that dtype. Unprobed pairs and ops that no dtype gets
past are silent.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Final

from .. import op_dtypes_data as data
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
