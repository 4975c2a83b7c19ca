"""An index expression (``t[i * 8:i * 8 + 8, 0]``) read as the keys :func:`knowledge.indexing.index` takes."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import EllipsisExpr, Expression, NameExpr, OpExpr, SliceExpr
from mypy.types import AnyType, Instance, LiteralType, Type, get_proper_type

from ..bridge.folding import LocalInt, int_of_expr
from ..bridge.tensor_types import DIM
from ..knowledge.indexing import INT_KEY, MAYBE_INT_KEY, Span


# The expression a local name stands for at a use (``kernel/local_linear.py``), or None.
Expand = Callable[[NameExpr], "Expression | None"]


def _linear(e: Expression | None, depth: int = 0, local: LocalInt | None = None,
            expand: Expand | None = None) -> dict[str, int] | None:
    """``i * 8 + 4`` as {"i": 8, "": 4}; None if not linear in names and ints."""
    if e is None or depth > 8:
        return None
    v = int_of_expr(e, local=local)
    if v is not None:
        return {"": v}
    if isinstance(e, NameExpr):
        value = expand(e) if expand is not None else None
        return _linear(value, depth + 1, local, expand) if value is not None else {e.name: 1}
    if isinstance(e, OpExpr) and e.op in ("+", "-", "*"):
        a, b = _linear(e.left, depth + 1, local, expand), _linear(e.right, depth + 1, local, expand)
        if a is None or b is None:
            return None
        if e.op == "*":
            if set(a) <= {""}:
                a, b = b, a
            if not set(b) <= {""}:
                return None
            k = b.get("", 0)
            return {n: c * k for n, c in a.items()}
        sign = 1 if e.op == "+" else -1
        out = dict(a)
        for n, c in b.items():
            out[n] = out.get(n, 0) + sign * c
        return out
    return None


def _scalar_index(t: Type | None) -> object:
    """INT_KEY for an index of type int or SymbolicScalar (a loop variable, ``b + 1``),
    MAYBE_INT_KEY when its type is unknown, None otherwise (a tensor, a list ...)."""
    t = get_proper_type(t) if t is not None else None
    if t is None or isinstance(t, AnyType):
        return MAYBE_INT_KEY
    if isinstance(t, LiteralType):
        t = t.fallback
    if isinstance(t, Instance) and t.type.fullname in ("builtins.int", "pypto.SymbolicScalar", DIM):
        return INT_KEY
    return None


def _extent(e: SliceExpr, local: LocalInt | None, expand: Expand | None) -> int | None:
    """``stop - start`` when it is the same int for every value of the names in it."""
    lo, hi = _linear(e.begin_index, local=local, expand=expand), _linear(e.end_index, local=local, expand=expand)
    if lo is None or hi is None:
        return None
    diff = {n: hi.get(n, 0) - lo.get(n, 0) for n in set(lo) | set(hi)}
    if any(c for n, c in diff.items() if n):
        return None
    return diff.get("", 0)


def key_of(e: Expression, t: Type | None = None, local: LocalInt | None = None, expand: Expand | None = None) -> object:
    if isinstance(e, EllipsisExpr):
        return Ellipsis
    if isinstance(e, SliceExpr):
        if e.stride is not None:
            return None
        start = int_of_expr(e.begin_index, local=local) if e.begin_index is not None else None
        stop = int_of_expr(e.end_index, local=local) if e.end_index is not None else None
        if (e.begin_index is None or start is not None) and (e.end_index is None or stop is not None):
            return slice(start, stop)
        extent = _extent(e, local, None)
        if extent is None and expand is not None:
            extent = _extent(e, local, expand)  # the names' bindings, asked only when needed
        return Span(extent)
    v = int_of_expr(e, local=local)
    if v is not None:
        return v
    return _scalar_index(t)
