"""A tensor's index (``t[i * 8:i * 8 + 8, 0]``) as the keys :func:`...knowledge.indexing.index`
takes: ints, slices of known bounds, spans of known length, int keys of unknown value."""

from __future__ import annotations

import ast

from ..knowledge.indexing import INT_KEY, MAYBE_INT_KEY, Span
from .names import NameTracer
from .values import UNKNOWN, Num, SymDim, is_int


class KeyTracer(NameTracer):
    def index_keys(self, node: ast.expr) -> list[object]:
        elts = node.elts if isinstance(node, ast.Tuple) else [node]
        return [self.key(e) for e in elts]

    def key(self, e: ast.expr) -> object:
        if isinstance(e, ast.Constant) and e.value is Ellipsis:
            return Ellipsis
        if isinstance(e, ast.Slice):
            if e.step is not None:
                self.expr(e.step)
                return None
            lo = self.expr(e.lower) if e.lower is not None else None
            hi = self.expr(e.upper) if e.upper is not None else None
            if (e.lower is None or is_int(lo)) and (e.upper is None or is_int(hi)):
                return slice(lo, hi)
            a, b = self.linear(e.lower), self.linear(e.upper)
            if a is None or b is None:
                return Span(None)
            diff = {n: b.get(n, 0) - a.get(n, 0) for n in set(a) | set(b)}
            return Span(None) if any(c for n, c in diff.items() if n) else Span(diff.get("", 0))
        v = self.expr(e)
        if is_int(v):
            return v
        if isinstance(v, (Num, SymDim)):
            return INT_KEY if not isinstance(v, Num) or v.kind in ("int", "symbolic") else MAYBE_INT_KEY
        return MAYBE_INT_KEY if v is UNKNOWN else None

    def linear(self, e: ast.expr | None, depth: int = 0) -> dict[str, int] | None:
        """``i * 8 + 4`` as {"i": 8, "": 4}: names of unknown value stay names (their values are
        evaluated already: reading them again changes nothing)."""
        if e is None or depth > 8:
            return None
        if isinstance(e, ast.Constant) and type(e.value) is int:
            return {"": e.value}
        if isinstance(e, ast.Name):
            v = self.env.get(e.id, self.global_name(self.module, e.id) if e.id not in self.locals_ else UNKNOWN)
            return {"": v} if type(v) is int else {e.id: 1}
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.Mult)):
            a, b = self.linear(e.left, depth + 1), self.linear(e.right, depth + 1)
            if a is None or b is None:
                return None
            if isinstance(e.op, ast.Mult):
                if set(a) <= {""}:
                    a, b = b, a
                if not set(b) <= {""}:
                    return None
                return {n: c * b.get("", 0) for n, c in a.items()}
            sign = 1 if isinstance(e.op, ast.Add) else -1
            out = dict(a)
            for n, c in b.items():
                out[n] = out.get(n, 0) + sign * c
            return out
        return None

