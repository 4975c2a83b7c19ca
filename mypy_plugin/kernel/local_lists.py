"""Shape lists bound once in a function and never changed (``shape = [8, D]`` then
``x.reshape(shape)``, or ``shape = x.shape`` then ``pypto.reshape(y, shape)``): an op reads such a
name as the list display (or the ``.shape`` read) it was bound to.

mypy types the name ``list[int]``, which holds no values. A list is mutable, so a name only
qualifies when every use is provably a read: the one plain assignment binds it, and every other
occurrence is an argument of a ``pypto.*`` call, of a tensor's ``reshape`` / ``view`` /
``expand_clone``, of ``len`` / ``list`` / ``tuple``, or an item read (``shape[0]``). Any other use
(a method, an item assignment, ``+=``, another call it could be changed in, a second binding) and
any lambda or nested definition in the function (not walked) leave the name unknown.
"""

from __future__ import annotations

from typing import Final, TypeGuard

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    ClassDef,
    Decorator,
    DelStmt,
    Expression,
    FuncDef,
    IndexExpr,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    RefExpr,
    StarExpr,
    Var,
)

from .body_walk import expressions, statements

_SHAPE_METHODS: Final = frozenset({"reshape", "view", "expand_clone"})
_READING_BUILTINS: Final = frozenset({"builtins.len", "builtins.list", "builtins.tuple"})


def _reads_arguments(call: CallExpr) -> bool:
    """Does ``call`` only read its arguments (a pypto op, a tensor's shape method, len/list/tuple)?"""
    callee = call.callee
    if isinstance(callee, MemberExpr) and callee.name in _SHAPE_METHODS:
        return True
    if isinstance(callee, RefExpr) and callee.fullname:
        return callee.fullname.startswith("pypto.") or callee.fullname in _READING_BUILTINS
    return False


def _shape_list(e: Expression) -> TypeGuard[ListExpr | MemberExpr]:
    """A list display with no ``*`` item, or a tensor's ``.shape`` (read where it is bound: the
    tensor's type recorded there, whatever the name is bound to later)."""
    if isinstance(e, ListExpr):
        return not any(isinstance(i, StarExpr) for i in e.items)
    return isinstance(e, MemberExpr) and e.name == "shape"


class ShapeLists:
    """For one function: the list display each qualifying local is bound to."""

    def __init__(self, func: FuncDef) -> None:
        self._lists: dict[int, ListExpr | MemberExpr] = {}  # id(Var) -> its list display or ``t.shape``
        stmts = list(statements(func.body.body))
        if any(isinstance(s, (FuncDef, Decorator, ClassDef)) for s in stmts):
            return
        bound: dict[int, ListExpr | MemberExpr] = {}
        binding: set[int] = set()  # the NameExpr each list display is assigned to
        for s in stmts:
            if (isinstance(s, AssignmentStmt) and len(s.lvalues) == 1 and isinstance(s.lvalues[0], NameExpr)
                    and isinstance(s.lvalues[0].node, Var) and _shape_list(s.rvalue)):
                bound[id(s.lvalues[0].node)] = s.rvalue
                binding.add(id(s.lvalues[0]))
        if not bound:
            return
        reads: set[int] = set()  # NameExpr occurrences that only read the list
        seen: list[NameExpr] = []
        for s in stmts:
            stored = set(map(id, s.lvalues)) if isinstance(s, AssignmentStmt) else set()
            if isinstance(s, DelStmt):
                stored.add(id(s.expr))
            for e in expressions(s):
                if isinstance(e, LambdaExpr):
                    return
                if isinstance(e, NameExpr) and isinstance(e.node, Var) and id(e.node) in bound:
                    seen.append(e)
                elif isinstance(e, CallExpr) and _reads_arguments(e):
                    reads.update(id(a) for a in e.args if isinstance(a, NameExpr))
                elif isinstance(e, IndexExpr) and id(e) not in stored and isinstance(e.base, NameExpr):
                    reads.add(id(e.base))
        spoiled = {id(n.node) for n in seen if id(n) not in reads and id(n) not in binding}
        counts: dict[int, int] = {}
        for n in seen:
            if id(n) in binding:
                counts[id(n.node)] = counts.get(id(n.node), 0) + 1
        self._lists = {v: lst for v, lst in bound.items() if v not in spoiled and counts.get(v) == 1}

    def display(self, e: Expression | None) -> ListExpr | MemberExpr | None:
        """The list display (or ``t.shape``) a qualifying name stands for; None for anything else."""
        if not self._lists or not isinstance(e, NameExpr) or not isinstance(e.node, Var):
            return None
        return self._lists.get(id(e.node))
