"""``pypto-use-after-move``: a tensor written into an output is empty afterwards (facts §6).

``out[:] = t``, ``out[...] = t`` and ``out.move(t)`` hand ``t``'s storage to ``out``; reading
``t`` again fails at trace time with ``ValueError: Empty tensor.`` (or SIGSEGV in a reduction).
Assembling into a slice (``out[a:b, :] = t``) does not move. One pass over a kernel's body in
program order: branches merge (a name moved on any path counts), loop bodies are walked twice
so a move late in the body meets a read early in the next iteration, and assigning the name
again clears it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    EllipsisExpr,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    IndexExpr,
    LambdaExpr,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    SliceExpr,
    Statement,
    TupleExpr,
)
from mypy.plugin import CheckerPluginInterface

from . import errorcodes as codes
from .diagnostics import report
from .program_order import ProgramOrder


@dataclass(frozen=True)
class _Move:
    line: int
    target: str  # the output written, for the message
    how: str  # "o1[:] = t" / "o1.move(t)"


Moved = dict[str, _Move]


def _whole_key(key: Expression) -> bool:
    items = key.items if isinstance(key, TupleExpr) else [key]
    return bool(items) and all(
        isinstance(i, EllipsisExpr)
        or (isinstance(i, SliceExpr) and i.begin_index is None and i.end_index is None and i.stride is None)
        for i in items
    )


def _name(e: Expression | None) -> str | None:
    return e.name if isinstance(e, NameExpr) else None


_READ_ATTRS = ("callee", "expr", "left", "right", "operands", "base", "index", "items", "args",
               "begin_index", "end_index", "stride", "cond", "if_expr", "else_expr", "value")


def _reads(e: Node | None) -> Iterator[NameExpr]:
    """Names read by an expression, in source order (not inside lambdas). An explicit stack,
    not recursion: ``t + t + ... + t`` nests thousands deep, and nested ``yield from`` would
    cost the depth for every name."""
    stack: list[Node] = [e] if e is not None else []
    while stack:
        n = stack.pop()
        if isinstance(n, LambdaExpr):
            continue
        if isinstance(n, NameExpr):
            yield n
            continue
        children: list[Node] = []
        for attr in _READ_ATTRS:
            v = getattr(n, attr, None)
            if isinstance(v, list):
                children.extend(i for i in v if isinstance(i, Expression))
            elif isinstance(v, Expression):
                children.append(v)
        stack.extend(reversed(children))


class _Walker(ProgramOrder[Moved]):
    def __init__(self, api: CheckerPluginInterface) -> None:
        self.api = api
        # One error per name and line: ``t + t + ... + t`` is one mistake, and thousands of
        # errors on one line cost mypy quadratic time (it de-duplicates each line's errors).
        self.reported: set[tuple[str, int]] = set()

    def _check(self, e: Node | None, moved: Moved) -> None:
        if not moved:
            return  # nothing moved yet on this path: nothing to look for
        for n in _reads(e):
            m = moved.get(n.name)
            if m is None or (n.name, n.line) in self.reported:
                continue
            self.reported.add((n.name, n.line))
            when = " in an earlier loop iteration" if m.line >= n.line else ""
            report(
                self.api,
                codes.USE_AFTER_MOVE,
                f'"{n.name}" is empty here: line {m.line} moved it into "{m.target}" ({m.how}){when}; reading it '
                'again fails at trace time with "ValueError: Empty tensor." (a reduction crashes with SIGSEGV)',
                f"compute it again, write a copy into the first output ({m.target}[:] = pypto.clone({n.name})), "
                f'or read the output "{m.target}" instead',
                n,
            )

    # --- the flow (control flow is ProgramOrder's) -----------------------------------
    def join(self, a: Moved, b: Moved) -> Moved:
        """Moved on any path counts (a may-analysis); the first move named wins."""
        return {**b, **a}

    def expr(self, e: Expression, moved: Moved) -> Moved:
        self._check(e, moved)
        return moved

    def loop_target(self, s: ForStmt, moved: Moved) -> Moved:
        return self._rebind(moved, s.index.items if isinstance(s.index, TupleExpr) else [s.index])

    @staticmethod
    def _rebind(moved: Moved, targets: list[Expression]) -> Moved:
        names = [n for n in map(_name, targets) if n is not None and n in moved]
        if not names:
            return moved
        moved = dict(moved)
        for n in names:
            moved.pop(n)  # assigned again: a new tensor
        return moved

    def simple(self, s: Statement, moved: Moved) -> Moved:
        if isinstance(s, AssignmentStmt):
            self._check(s.rvalue, moved)
            for lv in s.lvalues:
                if isinstance(lv, IndexExpr):
                    self._check(lv.base if not isinstance(lv.base, NameExpr) else None, moved)
                    self._check(lv.index, moved)
            for lv in s.lvalues:
                moved = self._rebind(moved, lv.items if isinstance(lv, TupleExpr) else [lv])
            src = _name(s.rvalue)
            if src is not None and len(s.lvalues) == 1:
                lv = s.lvalues[0]
                dest = _name(lv.base) if isinstance(lv, IndexExpr) else None
                if isinstance(lv, IndexExpr) and dest is not None and _whole_key(lv.index):
                    key = "..." if isinstance(lv.index, EllipsisExpr) else ":"
                    moved = {**moved, src: _Move(s.line, dest, f"{dest}[{key}] = {src}")}
            return moved
        if isinstance(s, OperatorAssignmentStmt):
            self._check(s.rvalue, moved)
            self._check(s.lvalue, moved)
            return self._rebind(moved, [s.lvalue])
        if isinstance(s, ExpressionStmt):
            self._check(s.expr, moved)
            e = s.expr
            if isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr) and e.callee.name == "move" and len(e.args) == 1:
                dest, src = _name(e.callee.expr), _name(e.args[0])
                if dest is not None and src is not None:
                    moved = {**moved, src: _Move(s.line, dest, f"{dest}.move({src})")}
            return moved
        self._check(getattr(s, "expr", None), moved)
        return moved


def check_moves(api: CheckerPluginInterface, func: FuncDef) -> None:
    _Walker(api).block(func.body.body, {})
