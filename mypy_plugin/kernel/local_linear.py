"""Index names bound once to int arithmetic (``b_offset = idx * tile_b``, ``b_offset_end =
(idx + 1) * tile_b``), so that a slice between two of them (``x[b_offset:b_offset_end]``) has a
known extent (tile_b), as the slice written out would.

A name is read as its expression only where that expression still has the value it had at the
binding: the name is bound once, not a parameter, by ``+ - * // %`` on ints, constants,
parameters never bound again, the index of a loop around the binding, names bound once outside
any loop, or earlier such names of the same loop; and the use is after the binding, in the same
innermost loop. A nested definition or a ``global``/``nonlocal`` leaves every name as it is.
"""

from __future__ import annotations

from typing import Final, Protocol

from mypy.nodes import (
    AssignmentStmt,
    ClassDef,
    Decorator,
    Expression,
    ForStmt,
    FuncDef,
    GlobalDecl,
    IntExpr,
    MemberExpr,
    NameExpr,
    NonlocalDecl,
    OpExpr,
    Statement,
    UnaryExpr,
    Var,
    WhileStmt,
)

from .body_walk import assignment_counts, blocks, expressions

_OPS: Final = frozenset({"+", "-", "*", "//", "%"})
_NO_LOOP: Final = 0  # the loop context of a statement in no loop (loops are keyed by id, never 0)


class LinearNames:
    def __init__(self, func: FuncDef) -> None:
        self._bound: dict[int, tuple[Expression, int, int]] = {}  # id(Var) -> (value, loop, line)
        self._use_loop: dict[int, int] = {}  # id(NameExpr) -> its innermost loop
        self._parent: dict[int, int] = {}  # id(loop) -> the loop around it
        self._index_loop: dict[int, int] = {}  # id(Var) of a for index -> id(its loop)
        self._outside: dict[int, int] = {}  # id(Var) bound once by an assignment in no loop -> line
        self._candidates: list[tuple[Var, Expression, int, int]] = []
        self._counts = assignment_counts(func)
        self._params = {id(a.variable) for a in func.arguments if a.variable.name not in self._counts}
        if not self._walk(func.body.body, _NO_LOOP):
            self._bound = {}
            return
        for var, value, loop, line in self._candidates:
            if self._stable(value, loop, line):
                self._bound[id(var)] = (value, loop, line)

    def expand(self, e: NameExpr) -> Expression | None:
        """The expression ``e`` stands for at this use, or None."""
        found = self._bound.get(id(e.node)) if isinstance(e.node, Var) else None
        if found is None:
            return None
        value, loop, line = found
        return value if self._use_loop.get(id(e)) == loop and e.line > line else None

    def _walk(self, stmts: list[Statement], loop: int) -> bool:
        for s in stmts:
            if isinstance(s, (FuncDef, Decorator, ClassDef, GlobalDecl, NonlocalDecl)):
                return False
            for e in expressions(s):
                if isinstance(e, NameExpr):
                    self._use_loop[id(e)] = loop
            if isinstance(s, AssignmentStmt) and len(s.lvalues) == 1 and isinstance(s.lvalues[0], NameExpr):
                target = s.lvalues[0]
                if isinstance(target.node, Var) and self._counts.get(target.name) == 1:
                    if loop == _NO_LOOP:
                        self._outside[id(target.node)] = s.line
                    self._candidates.append((target.node, s.rvalue, loop, s.line))
            inner = loop
            if isinstance(s, (ForStmt, WhileStmt)):
                inner = id(s)
                self._parent[inner] = loop
                if isinstance(s, ForStmt) and isinstance(s.index, NameExpr) and isinstance(s.index.node, Var):
                    self._index_loop[id(s.index.node)] = inner
            for b in blocks(s):
                if not self._walk(b.body, inner):
                    return False
        return True

    def _encloses(self, outer: int, loop: int) -> bool:
        while loop != _NO_LOOP:
            if loop == outer:
                return True
            loop = self._parent.get(loop, _NO_LOOP)
        return False

    def _stable(self, value: Expression, loop: int, line: int, depth: int = 0) -> bool:
        if depth > 8:
            return False
        for e in expressions(value):
            if isinstance(e, (IntExpr, MemberExpr)):
                continue  # an int, a module constant (the folder reads its value or nothing)
            if isinstance(e, OpExpr):
                if e.op not in _OPS:
                    return False
                continue
            if isinstance(e, UnaryExpr) and e.op == "-":
                continue
            if not isinstance(e, NameExpr):
                return False  # a call, a subscript ...: not provably the same value later
            var = e.node
            if not isinstance(var, Var) or id(var) in self._params or var.name not in self._counts:
                continue  # a module's name, a parameter never bound again
            if id(var) in self._index_loop and self._encloses(self._index_loop[id(var)], loop):
                continue  # this iteration's index, at the binding and at the use
            if id(var) in self._outside and self._outside[id(var)] < line:
                continue
            earlier = self._bound.get(id(var))
            if earlier is not None and earlier[1] == loop and earlier[2] < line:
                continue
            return False
        return True


class HasLinearNames(Protocol):
    """What holds a function's :class:`LinearNames`, made when first asked for (``LocalBuffers``)."""

    @property
    def linear_names(self) -> LinearNames: ...
