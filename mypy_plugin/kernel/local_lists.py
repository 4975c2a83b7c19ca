"""Shape lists (or tuples) bound once in a function and never changed (``shape = [8, D]`` then
``x.reshape(shape)``, or ``shape = x.shape`` then ``pypto.reshape(y, shape)``): an op reads such a
name as the list display (or the ``.shape`` read) it was bound to.

mypy types the name ``list[int]``, which holds no values. A list is mutable, so a name only
qualifies when every use is provably a read: the one plain assignment binds it, and every other
occurrence is an argument of a ``pypto.*`` call, of a tensor's ``reshape`` / ``view`` /
``expand_clone``, of ``len`` / ``list`` / ``tuple``, or an item read (``shape[0]``). Any other use
(a method, an item assignment, ``+=``, another call it could be changed in, a second binding) and
any lambda or nested definition in the function (not walked) leave the name unknown.

Dims read from a shape (``b, s, h = x.shape``, ``n = x.shape[1]``) are ints: a name bound once so,
never a parameter, stands for that dim of the tensor's type where ``.shape`` is read
(:meth:`ShapeLists.dim_source`); mypy types it ``_Dim``, which holds no value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, TypeGuard

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    ClassDef,
    Decorator,
    DelStmt,
    Expression,
    FuncDef,
    GlobalDecl,
    NonlocalDecl,
    IndexExpr,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    RefExpr,
    SliceExpr,
    StarExpr,
    Statement,
    TupleExpr,
    Var,
)

from ..bridge.folding import int_of_expr
from .body_walk import assignment_counts, expressions, statements

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


def _shape_list(e: Expression) -> TypeGuard[ListExpr | TupleExpr | MemberExpr]:
    """A list or tuple display with no ``*`` item, or a tensor's ``.shape`` (read where it is
    bound: the tensor's type recorded there, whatever the name is bound to later)."""
    if isinstance(e, (ListExpr, TupleExpr)):
        return not any(isinstance(i, StarExpr) for i in e.items)
    return isinstance(e, MemberExpr) and e.name == "shape"


class ShapeLists:
    """For one function: the list display each qualifying local is bound to."""

    def __init__(self, func: FuncDef) -> None:
        self._lists: dict[int, ListExpr | TupleExpr | MemberExpr] = {}  # id(Var) -> its list display or ``t.shape``
        self._dims: dict[int, tuple[MemberExpr, int, int | None]] = {}  # id(Var) -> (t.shape, index, rank)
        stmts = list(statements(func.body.body))
        if any(isinstance(s, (FuncDef, Decorator, ClassDef)) for s in stmts):
            return
        lists = _qualifying_lists(stmts)
        if lists is None:
            return  # a lambda (not walked) may read or change anything
        self._lists = lists
        self._dims = _shape_dims(func, stmts, self)

    def dim_source(self, e: Expression | None) -> tuple[MemberExpr, int, int | None] | None:
        """For a name bound once to a dim of a shape: the ``t.shape`` read, the dim's index, and
        the rank the unpacking needs (None for ``t.shape[i]``)."""
        if not self._dims or not isinstance(e, NameExpr) or not isinstance(e.node, Var):
            return None
        return self._dims.get(id(e.node))

    def display(self, e: Expression | None) -> ListExpr | TupleExpr | MemberExpr | None:
        """The list display (or ``t.shape``) a qualifying name stands for; None for anything else."""
        if not self._lists or not isinstance(e, NameExpr) or not isinstance(e.node, Var):
            return None
        return self._lists.get(id(e.node))


def _qualifying_lists(stmts: list[Statement]) -> dict[int, ListExpr | TupleExpr | MemberExpr] | None:
    """id(Var) -> the list display (or ``t.shape``) of each local bound once to one and only read;
    None when the function holds a lambda."""
    bound: dict[int, ListExpr | TupleExpr | MemberExpr] = {}
    binding: set[int] = set()  # the NameExpr each list display is assigned to
    for s in stmts:
        if (isinstance(s, AssignmentStmt) and len(s.lvalues) == 1 and isinstance(s.lvalues[0], NameExpr)
                and isinstance(s.lvalues[0].node, Var) and _shape_list(s.rvalue)):
            bound[id(s.lvalues[0].node)] = s.rvalue
            binding.add(id(s.lvalues[0]))
    if not bound:
        return {}
    reads: set[int] = set()  # NameExpr occurrences that only read the list
    seen: list[NameExpr] = []
    for s in stmts:
        stored = set(map(id, s.lvalues)) if isinstance(s, AssignmentStmt) else set()
        if isinstance(s, DelStmt):
            stored.add(id(s.expr))
        for e in expressions(s):
            if isinstance(e, LambdaExpr):
                return None
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
    return {v: lst for v, lst in bound.items() if v not in spoiled and counts.get(v) == 1}


def _shape_read(e: Expression, lists: ShapeLists) -> MemberExpr | None:
    """``t.shape``, or a name that stands for one (``shape = t.shape``)."""
    if isinstance(e, MemberExpr) and e.name == "shape":
        return e
    shown = lists.display(e)
    return shown if isinstance(shown, MemberExpr) else None


def _unpacked(value: Expression, lists: ShapeLists) -> tuple[MemberExpr, int] | None:
    """What an unpacking reads: ``t.shape`` from dim 0, or ``t.shape[k:]`` from dim k."""
    whole = _shape_read(value, lists)
    if whole is not None:
        return whole, 0
    if isinstance(value, IndexExpr) and isinstance(value.index, SliceExpr):
        sl = value.index
        start = int_of_expr(sl.begin_index) if sl.begin_index is not None else 0
        base = _shape_read(value.base, lists)
        if base is not None and start is not None and start >= 0 and sl.end_index is None and sl.stride is None:
            return base, start
    return None


def _shape_dims(func: FuncDef, stmts: Sequence[Statement], lists: ShapeLists) -> dict[int, tuple[MemberExpr, int, int | None]]:
    """``b, s, h = t.shape``, ``n1, n2 = shape[1:]`` and ``n = t.shape[i]`` (``shape`` bound to
    ``t.shape``): each name bound so, once in the function and not a parameter."""
    found: dict[int, tuple[MemberExpr, int, int | None]] = {}
    if any(isinstance(s, (GlobalDecl, NonlocalDecl)) for s in stmts):
        return found  # a module's (or an enclosing function's) name: bound elsewhere too
    params = {a.variable.name for a in func.arguments}
    counts: Mapping[str, int] | None = None  # (asked only when a statement reads a shape)
    for s in stmts:
        if not isinstance(s, AssignmentStmt) or len(s.lvalues) != 1:
            continue
        target, value = s.lvalues[0], s.rvalue
        pairs: list[tuple[Expression, MemberExpr, int, int | None]] = []
        read = _unpacked(value, lists) if isinstance(target, (TupleExpr, ListExpr)) else None
        if isinstance(target, (TupleExpr, ListExpr)) and read is not None:
            member, start = read
            if all(isinstance(i, NameExpr) for i in target.items):
                whole = start + len(target.items)  # the unpacking raises on any other rank
                pairs = [(item, member, start + i, whole) for i, item in enumerate(target.items)]
        elif isinstance(target, NameExpr) and isinstance(value, IndexExpr):
            base = _shape_read(value.base, lists)
            at = int_of_expr(value.index)
            if base is not None and at is not None:
                pairs = [(target, base, at, None)]
        if pairs and counts is None:
            counts = assignment_counts(func)
        for name, member, i, rank in pairs:
            if (isinstance(name, NameExpr) and isinstance(name.node, Var) and name.name not in params
                    and counts is not None and counts.get(name.name) == 1):
                found[id(name.node)] = (member, i, rank)
    return found
