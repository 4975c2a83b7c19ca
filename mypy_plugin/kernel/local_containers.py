"""Local lists and dicts whose element type mypy knows for every element.

mypy types ``parts = [a, b]`` as a list of the join of its items (a dim the items disagree on is
``int``: unknown), which holds for each item. It types ``d = {}`` then ``d[1] = a`` (or ``parts =
[]`` then ``parts.append(a)``) by the FIRST item stored: ``d[2] = b`` of another shape changes
nothing, and ``d[2]`` would read as ``a`` (a false broadcast error on hicann/pypto 0.2.0's
``inverse_pto_min_length_unaligned``). So an element read keeps its tensor type only from a local
bound by non-empty displays or comprehensions alone and only ever read: indexed, iterated, given
to ``len`` or a ``pypto`` op, or asked ``get``/``keys``/``values``/``items``/``index``/``count``.
"""

from __future__ import annotations

import functools
from typing import Final

from mypy.nodes import (
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    ForStmt,
    FuncDef,
    FuncItem,
    IndexExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    OperatorAssignmentStmt,
    RefExpr,
    Var,
)

from .body_walk import expressions, statements

_READ_METHODS: Final = frozenset({"get", "keys", "values", "items", "index", "count", "__getitem__"})


def _display(e: object) -> bool:
    """A display with items, or a comprehension: mypy joins what it holds."""
    if isinstance(e, (ListExpr, DictExpr)):
        return bool(e.items)
    return isinstance(e, (ListComprehension, DictionaryComprehension))


def read_only_displays(func: FuncItem) -> frozenset[int]:
    """The ids of the ``Var`` of each qualifying local of ``func`` (see the module docstring)."""
    return _read_only_displays(func.body, frozenset(id(a.variable) for a in func.arguments))


@functools.lru_cache(maxsize=256)
def _read_only_displays(body: Block, params: frozenset[int]) -> frozenset[int]:
    stmts = list(statements(body.body))
    if any(isinstance(s, (FuncDef, Decorator, ClassDef)) for s in stmts):
        return frozenset()  # a nested scope may change a list of this one
    bound: dict[int, bool] = {}  # id(Var) -> every binding is a display
    binding: set[int] = set()  # the NameExpr occurrences that bind
    allowed: set[int] = set()  # the NameExpr occurrences that only read the container
    for s in stmts:
        stored: set[int] = set()
        if isinstance(s, AssignmentStmt):
            for lv in s.lvalues:
                if isinstance(lv, NameExpr) and isinstance(lv.node, Var):
                    bound[id(lv.node)] = bound.get(id(lv.node), True) and _display(s.rvalue)
                    binding.add(id(lv))
                stored.add(id(lv))
        elif isinstance(s, (OperatorAssignmentStmt, DelStmt)):
            stored.add(id(s.lvalue if isinstance(s, OperatorAssignmentStmt) else s.expr))
        elif isinstance(s, ForStmt) and isinstance(s.expr, NameExpr):
            allowed.add(id(s.expr))
        for e in expressions(s):
            if isinstance(e, LambdaExpr):
                return frozenset()
            if isinstance(e, IndexExpr) and isinstance(e.base, NameExpr) and id(e) not in stored:
                allowed.add(id(e.base))
            elif isinstance(e, CallExpr):
                callee = e.callee
                if isinstance(callee, MemberExpr) and callee.name in _READ_METHODS and isinstance(callee.expr, NameExpr):
                    allowed.add(id(callee.expr))
                elif isinstance(callee, RefExpr) and (callee.fullname == "builtins.len"
                                                      or callee.fullname.startswith("pypto.")):
                    allowed.update(id(a) for a in e.args if isinstance(a, NameExpr))
    spoiled: set[int] = set()
    for s in stmts:
        for e in expressions(s):
            if (isinstance(e, NameExpr) and isinstance(e.node, Var) and id(e.node) in bound
                    and id(e) not in allowed and id(e) not in binding):
                spoiled.add(id(e.node))
    return frozenset(v for v, displays in bound.items() if displays and v not in spoiled and v not in params)
