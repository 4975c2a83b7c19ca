"""Which assignments a name read after a ``pypto.loop`` can hold (rule: loop-body-traced).

mypy checks ``for i in pypto.loop(n): x = pypto.reshape(x, [2, 8, 128])`` as a loop that may not
run, so after it ``x`` is the join of its type before the loop and the body's: a union of two
ranks, which no check can use. The frontend traces a ``pypto.loop`` (and ``loop_unroll``) body at
least once (probed: twice under a symbolic ``if``, once per unroll factor), so after it ``x`` holds
what the body's last trace bound. This walk finds, for each read of a local name, the plain
assignments (``x = value``) that may have bound it, with a ``pypto.loop`` body taken as run at
least once; anything else that binds a name (a parameter, a for or with target, an unpacking,
``+=``, an import, an except handler) counts as an unknown binding. A function with a walrus, a
nested definition, ``global``/``nonlocal`` or ``match``, or a generator, is not walked. A loop
whose body may leave early (``break``, ``continue``, ``return``, ``raise``), or that has an
``else``, is taken as one that may not run at all, as mypy does.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import Final, Protocol

from mypy.nodes import (
    AssignmentExpr,
    AssignmentStmt,
    Block,
    BreakStmt,
    CallExpr,
    ClassDef,
    ContinueStmt,
    Decorator,
    DelStmt,
    Expression,
    ForStmt,
    FuncDef,
    GlobalDecl,
    MatchStmt,
    NameExpr,
    Node,
    NonlocalDecl,
    OperatorAssignmentStmt,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    Statement,
    TryStmt,
    Var,
    WhileStmt,
    WithStmt,
)

from .body_walk import comprehension_names, expressions, names_bound_besides, statements
from .program_order import ProgramOrder

_TRACED_LOOPS: Final = frozenset({"pypto.loop", "pypto.loop_unroll"})
_UNKNOWN: Final = 0  # a binding that is not a plain ``name = value`` (ids of values are never 0)

Defs = dict[str, frozenset[int]]  # a name -> the ids of the values that may be bound to it


class LoopDefs:
    """For one function: the values each read of a name may hold (a read not walked: unknown)."""

    def __init__(self, func: FuncDef) -> None:
        self._reads: dict[int, frozenset[int]] = {}  # id(NameExpr) -> ids of the values (or _UNKNOWN)
        self._values: dict[int, Expression] = {}
        self._other: set[str] = set()  # names a with or an except binds too
        self._shadowed: set[int] = set()  # reads of a comprehension's own names
        stmts = list(statements(func.body.body))
        if any(isinstance(s, (FuncDef, Decorator, ClassDef, GlobalDecl, NonlocalDecl, MatchStmt)) for s in stmts):
            return  # bound elsewhere too, or by patterns: not walked
        if func.is_generator or func.is_coroutine:
            return
        shadowed = _comprehension_reads(stmts)
        if shadowed is None:
            return  # a walrus: bound in the middle of an expression, not walked
        self._other = _other_bindings(stmts)
        self._shadowed = shadowed
        walker = _Walker(self._reads, self._values)
        start: Defs = {a.variable.name: frozenset({_UNKNOWN}) for a in func.arguments}
        walker.block(func.body.body, start)

    def values(self, e: NameExpr) -> list[Expression] | None:
        """The values ``e`` may hold here, each a plain assignment's; None when any binding that
        may reach it is not one (or the name is not a local of this function)."""
        if not isinstance(e.node, Var):
            return None
        ids = self._reads.get(id(e))
        if not ids or _UNKNOWN in ids or e.name in self._other or id(e) in self._shadowed:
            return None
        values = [self._values.get(i) for i in sorted(ids)]
        return None if any(v is None for v in values) else [v for v in values if v is not None]


@functools.lru_cache(maxsize=256)
def _loop_defs(body: Block, func: FuncDef) -> LoopDefs:
    return LoopDefs(func)


def loop_defs(func: FuncDef) -> LoopDefs:
    """Kept per body: asked at each union operand, while mypy checks a function and its copies
    in turn (an edit gives the function a new body)."""
    return _loop_defs(func.body, func)


class HasLoopDefs(Protocol):
    """What holds a function's :class:`LoopDefs`, made when first asked for (``LocalBuffers``)."""

    @property
    def loop_defs(self) -> LoopDefs: ...


def _leaves_early(stmts: Iterable[Statement]) -> bool:
    for s in statements(stmts):
        if isinstance(s, (BreakStmt, ContinueStmt, ReturnStmt, RaiseStmt)):
            return True
    return False


def _traced_loop(s: Statement) -> bool:
    """``for ... in pypto.loop(...)`` (or ``loop_unroll``) with no early exit and no ``else``."""
    return (isinstance(s, ForStmt) and s.else_body is None and isinstance(s.expr, CallExpr)
            and isinstance(s.expr.callee, RefExpr) and s.expr.callee.fullname in _TRACED_LOOPS
            and not _leaves_early(s.body.body))


class _Walker(ProgramOrder[Defs]):
    def __init__(self, reads: dict[int, frozenset[int]], values: dict[int, Expression]) -> None:
        self.reads = reads
        self.values = values

    def join(self, a: Defs, b: Defs) -> Defs:
        out = dict(a)
        for name, ids in b.items():
            out[name] = out[name] | ids if name in out else ids
        return out

    def _read(self, root: Node, state: Defs) -> None:
        """Every name read under ``root`` may hold what ``state`` says (a loop body is walked
        twice: a read keeps what either walk found)."""
        for n in expressions(root):
            if isinstance(n, NameExpr) and n.name in state:
                before = self.reads.get(id(n))
                self.reads[id(n)] = state[n.name] if before is None else before | state[n.name]

    def _bind(self, s: Statement, state: Defs) -> Defs:
        out = dict(state)
        for name, value in _bindings(s):
            if value is not None:
                self.values[id(value)] = value
            out[name] = frozenset({_UNKNOWN if value is None else id(value)})
        return out

    def expr(self, e: Expression, state: Defs) -> Defs:
        self._read(e, state)
        return state

    def loop_target(self, s: ForStmt, state: Defs) -> Defs:
        return self._bind(s, state)

    def simple(self, s: Statement, state: Defs) -> Defs:
        if isinstance(s, AssignmentStmt):
            self._read(s.rvalue, state)
            for lv in s.lvalues:
                if not isinstance(lv, NameExpr):
                    self._read(lv, state)  # (an item or attribute store reads its base)
        else:
            self._read(s, state)
        return self._bind(s, state)

    def stmt(self, s: Statement, state: Defs) -> Defs:
        if not isinstance(s, (ForStmt, WhileStmt)):
            return super().stmt(s, state)
        # One walk of the body, from what any iteration may start with: the state before the loop
        # joined with every binding the body makes (walking it again per nesting level would
        # cost 2 ** depth).
        state = self.expr(s.expr, state)
        if isinstance(s, ForStmt):
            state = self.loop_target(s, state)
        entry = self.join(state, _body_bindings(s.body.body))
        after = self.block(s.body.body, entry)
        if isinstance(s, ForStmt) and _traced_loop(s):
            return after  # not the state before: the body ran at least once
        after = self.join(entry, after)
        return self.block(s.else_body.body, after) if s.else_body else after


def _body_bindings(stmts: list[Statement]) -> Defs:
    """Every binding a loop body makes, nested blocks included (as :func:`_bindings`)."""
    out: dict[str, set[int]] = {}
    for s in statements(stmts):
        for name, value in _bindings(s):
            out.setdefault(name, set()).add(_UNKNOWN if value is None else id(value))
    return {name: frozenset(ids) for name, ids in out.items()}


def _bindings(s: Statement) -> Iterator[tuple[str, Expression | None]]:
    """The names ``s`` binds (not in its nested blocks), each with the value a plain ``name =
    value`` gives it, or None for any other binding (a target of a for, an unpacking, ``+=``,
    ``del``, an import, an except handler): unknown."""
    targets: list[Expression] = []
    if isinstance(s, AssignmentStmt):
        for lv in s.lvalues:
            if isinstance(lv, NameExpr):
                yield lv.name, s.rvalue
            elif not isinstance(lv, RefExpr):  # (an attribute store binds no name)
                targets.append(lv)
    elif isinstance(s, ForStmt):
        targets.append(s.index)
    elif isinstance(s, OperatorAssignmentStmt):
        targets.append(s.lvalue)
    elif isinstance(s, DelStmt):
        targets.append(s.expr)
    for t in targets:
        yield from ((n.name, None) for n in expressions(t) if isinstance(n, NameExpr))
    yield from ((name, None) for name in names_bound_besides(s))


def _other_bindings(stmts: list[Statement]) -> set[str]:
    """Names bound where the walk does not look: ``with ... as name``, ``except ... as name``."""
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, WithStmt):
            out.update(n.name for t in s.target if t is not None for n in expressions(t) if isinstance(n, NameExpr))
        elif isinstance(s, TryStmt):
            out.update(names_bound_besides(s))
    return out


def _comprehension_reads(stmts: list[Statement]) -> set[int] | None:
    """The reads, inside a comprehension, of a name it binds itself (not the function's local);
    None when the function holds a walrus."""
    out: set[int] = set()
    for s in stmts:
        for e in expressions(s):
            if isinstance(e, AssignmentExpr):
                return None
            names = comprehension_names(e)
            if names:
                out.update(id(n) for n in expressions(e) if isinstance(n, NameExpr) and n.name in names)
    return out
