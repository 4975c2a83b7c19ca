"""Names bound once to number arithmetic (``scale = 1.0 / head_dim ** 0.5``, ``s = d ** -0.5``): an
op reads such an operand as a Python number, never a tensor, although mypy types it ``Any``
(typeshed gives ``int ** float`` no type, as its value may be a float or a complex).

A name qualifies when it is bound once in the function by a plain assignment, is not a
parameter, and the function holds no nested definition, ``global`` or ``nonlocal``: every read
of it that does not raise reads that one binding. Its value is a number when it is an int or
float literal, arithmetic (``+ - * / // % **``, unary ``-``/``+``) of numbers, an expression mypy
types as a number, a SymbolicScalar or an Element, or such a name again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from mypy.nodes import (
    AssignmentStmt,
    ClassDef,
    Decorator,
    Expression,
    FloatExpr,
    FuncDef,
    GlobalDecl,
    IntExpr,
    NameExpr,
    NonlocalDecl,
    OpExpr,
    UnaryExpr,
    Var,
)
from mypy.types import AnyType, Type, get_proper_type

from ..bridge.tensor_types import is_scalar_type
from .body_walk import assignment_counts, names_bound_besides, statements

_ARITH: Final = frozenset({"+", "-", "*", "/", "//", "%", "**"})
_MAX_DEPTH: Final = 16


class LocalNumbers:
    """For one function: the value expression of each local bound once (id(Var) -> value)."""

    def __init__(self, func: FuncDef) -> None:
        self._bound: dict[int, Expression] = {}
        stmts = list(statements(func.body.body))
        if any(isinstance(s, (FuncDef, Decorator, ClassDef, GlobalDecl, NonlocalDecl)) for s in stmts):
            return
        counts = assignment_counts(func)
        params = {a.variable.name for a in func.arguments}
        caught = {name for s in stmts for name in names_bound_besides(s)}  # imports, except handlers
        for s in stmts:
            if not isinstance(s, AssignmentStmt) or len(s.lvalues) != 1:
                continue
            target = s.lvalues[0]
            if (isinstance(target, NameExpr) and isinstance(target.node, Var) and target.name not in params
                    and target.name not in caught and counts.get(target.name) == 1):
                self._bound[id(target.node)] = s.rvalue

    def value(self, e: NameExpr) -> Expression | None:
        return self._bound.get(id(e.node)) if isinstance(e.node, Var) else None


class HasLocalNumbers(Protocol):
    """What holds a function's :class:`LocalNumbers`, made when first asked for (``LocalBuffers``)."""

    @property
    def local_numbers(self) -> LocalNumbers: ...


def is_number(e: Expression, recorded: Callable[[Expression], Type | None], numbers: LocalNumbers | None,
              depth: int = 0) -> bool:
    """Is ``e`` provably a number (or SymbolicScalar / Element) when it is evaluated, never a tensor?"""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(e, (IntExpr, FloatExpr)):
        return True
    t = recorded(e)
    if t is not None and not isinstance(get_proper_type(t), AnyType):
        return is_scalar_type(t)

    def again(sub: Expression) -> bool:
        return is_number(sub, recorded, numbers, depth + 1)

    if isinstance(e, UnaryExpr) and e.op in ("-", "+"):
        return again(e.expr)
    if isinstance(e, OpExpr) and e.op in _ARITH:
        return again(e.left) and again(e.right)
    if isinstance(e, NameExpr) and numbers is not None:
        value = numbers.value(e)
        return value is not None and again(value)
    return False
