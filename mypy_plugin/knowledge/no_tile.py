"""What 0.2.0 does with an op when the kernel sets no vec tile, from the probed table
``no_tile_data.py`` (rules: vec-tile-required, reduce-without-tile-crashes).

Most ops raise F21004 naming the op the compiler built (``op [MUL]tile shape not set``); a
reduction over the last axis crashes (SIGSEGV); an op that first casts its input (softmax on
FP16, var, rms_norm, cumsum on FP16) names that CAST; a cast to the dtype the tensor already has,
and unary ``+``, build no op and compile. Unknown means silence: an op that compiles without a
tile for some probed dtype is not reported when the dtype is unknown.
"""

from __future__ import annotations

from typing import Final

from . import no_tile_data as data
from .ops import Op

_F21004: Final = "F21004"
_SIGSEGV: Final = "SIGSEGV"
_GENERIC: Final = "the compiler raises F21004 (tile shape not set)"
# The compiler's op name varies with the operand form (MUL for two tensors, MULS for a scalar):
# these kinds are named without it.
_UNNAMED_KINDS: Final = frozenset({"elementwise", "compare"})


def _words(op: Op, verdict: str, text: str, dtype: str | None) -> str:
    if verdict == _SIGSEGV:
        return "PyPTO 0.2.0 crashes with SIGSEGV and no message"
    if "[CAST]" in text and op.kind != "cast":
        what = f"its {dtype} input" if dtype is not None else "its input"
        to = " to DT_FP32" if dtype in ("DT_FP16", "DT_BF16") else ""  # rule: reduce-in-fp32
        return f"{what} is first cast{to}, and the compiler raises F21004 ({text})"
    if op.kind in _UNNAMED_KINDS or not text:
        return _GENERIC
    return f"the compiler raises F21004 ({text})"


def reaction(op: Op, dtype: str | None, result_dtype: str | None = None) -> str | None:
    """How 0.2.0 fails on this op with no vec tile for an input of ``dtype`` (None: unknown);
    None when it may compile (or fails on something else first, which other checks report)."""
    if op.kind == "cast":
        # rule: vec-tile-required (a cast to the tensor's own dtype builds no op: probed)
        if dtype is None or result_dtype is None or dtype == result_dtype:
            return None
        return "the compiler raises F21004 (op [CAST]tile shape not set)"
    row = data.NO_TILE.get(op.name)
    if row is None:  # not probed: what the rule says of its regime
        return "PyPTO 0.2.0 crashes with SIGSEGV and no message" if op.tile == "reduce" else _GENERIC
    if dtype is not None and dtype in row:
        verdict, text = row[dtype]
        return _words(op, verdict, text, dtype) if verdict in (_F21004, _SIGSEGV) else None
    verdicts = {(v, t) for v, t in row.values() if v != "other"}
    if not verdicts or any(v not in (_F21004, _SIGSEGV) for v, _ in verdicts):
        return None  # compiles without a tile for some dtype: not provable here
    if len(verdicts) == 1:
        verdict, text = next(iter(verdicts))
        return _words(op, verdict, text, dtype)
    # The dtype decides (softmax: SIGSEGV on FP32, a CAST on FP16): say both, by dtype.
    parts = []
    for verdict, text in sorted(verdicts):
        dtypes = ", ".join(d for d, (v, t) in row.items() if (v, t) == (verdict, text))
        said = "crashes with SIGSEGV" if verdict == _SIGSEGV else f"raises F21004 ({text})"
        parts.append(f"{said} on {dtypes}")
    return "PyPTO 0.2.0 " + " and ".join(parts)
