"""What an operand is when mypy's type says too little: a name mypy types as a union after a
``pypto.loop`` (the values that may reach it, :mod:`kernel.loop_defs`), and an ``Any`` that is
provably a number (:mod:`kernel.local_numbers`)."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Expression, NameExpr
from mypy.types import AnyType, Type, UnionType, get_proper_type

from ..kernel.local_numbers import HasLocalNumbers, is_number
from ..kernel.loop_defs import HasLoopDefs

Recorded = Callable[[Expression], "Type | None"]


def operand_type(t: Type | None, e: Expression | None, loops: HasLoopDefs | None,
                 recorded: Recorded | None) -> Type | None:
    """``t``; for a name mypy types as a union (a join after a ``pypto.loop`` it took as perhaps
    not run), the union of the types of the values that may reach it."""
    if t is None or not isinstance(e, NameExpr) or loops is None or recorded is None:
        return t
    if not isinstance(get_proper_type(t), UnionType):
        return t
    values = loops.loop_defs.values(e)
    types = [recorded(v) for v in values] if values else []
    known = [v for v in types if v is not None]
    if not known or len(known) != len(types):
        return t
    return UnionType.make_union(known)


def is_number_operand(t: Type | None, e: Expression | None, numbers: HasLocalNumbers | None,
                      recorded: Recorded | None) -> bool:
    """An operand mypy types ``Any`` that is provably a number (``d ** -0.5``, a name bound once
    to such arithmetic)."""
    if t is None or e is None or not isinstance(get_proper_type(t), AnyType) or recorded is None:
        return False
    return is_number(e, recorded, numbers.local_numbers if numbers is not None else None)
