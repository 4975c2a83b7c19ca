"""Shape arguments read from mypy's expressions and types: ``[rows, 64]``, a tuple type, one dim."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Expression, ListExpr, MemberExpr, NameExpr, TupleExpr
from mypy.types import TupleType, Type, get_proper_type

from ..bridge.folding import int_of_expr, int_of_type
from ..knowledge.shapes import Dim

# What a local name holds as a dim, where the hook knows more than mypy (``n = x.shape[1]``).
LocalDim = Callable[[NameExpr], Dim]


def is_shape_attr(e: Expression | None) -> bool:
    return isinstance(e, MemberExpr) and e.name == "shape"


def dim_of(e: Expression | None, t: Type | None, local: LocalDim | None = None) -> Dim:
    """One dim of a shape argument: its int value, else a name as a symbol (a factory's ``n``)."""
    def local_int(n: NameExpr) -> int | None:
        d = local(n) if local is not None else None
        return d if isinstance(d, int) else None

    v = int_of_expr(e, local=local_int if local is not None else None)
    if v is None:
        v = int_of_type(t)
    if v is not None:
        return v
    if isinstance(e, NameExpr):
        here = local(e) if local is not None else None
        return here if here is not None else e.name
    return None


def dims_of(e: Expression | None, t: Type | None, local: LocalDim | None = None) -> list[Dim] | None:
    if isinstance(e, (ListExpr, TupleExpr)):
        return [dim_of(i, None, local) for i in e.items]
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, TupleType):
        return [int_of_type(i) for i in p.items]
    return None
