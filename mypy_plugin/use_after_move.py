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
    Block,
    CallExpr,
    Decorator,
    EllipsisExpr,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    IfStmt,
    IndexExpr,
    LambdaExpr,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    SliceExpr,
    Statement,
    TryStmt,
    TupleExpr,
    WhileStmt,
    WithStmt,
)
from mypy.plugin import CheckerPluginInterface

from . import errorcodes as codes
from .diagnostics import report


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


def _reads(e: Node | None) -> Iterator[NameExpr]:
    """Names read by an expression, in source order (not inside lambdas)."""
    if e is None or isinstance(e, LambdaExpr):
        return
    if isinstance(e, NameExpr):
        yield e
        return
    for attr in ("callee", "expr", "left", "right", "operands", "base", "index", "items", "args",
                 "begin_index", "end_index", "stride", "cond", "if_expr", "else_expr", "value"):
        v = getattr(e, attr, None)
        if isinstance(v, list):
            for i in v:
                if isinstance(i, Expression):
                    yield from _reads(i)
        elif isinstance(v, Expression):
            yield from _reads(v)


class _Walker:
    def __init__(self, api: CheckerPluginInterface) -> None:
        self.api = api
        self.reported: set[tuple[int, int]] = set()

    def _check(self, e: Node | None, moved: Moved) -> None:
        if not moved:
            return  # nothing moved yet on this path: nothing to look for
        for n in _reads(e):
            m = moved.get(n.name)
            if m is None or (n.line, n.column) in self.reported:
                continue
            self.reported.add((n.line, n.column))
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

    def block(self, stmts: list[Statement], moved: Moved) -> Moved:
        for s in stmts:
            moved = self.stmt(s, moved)
        return moved

    def stmt(self, s: Statement, moved: Moved) -> Moved:
        if isinstance(s, Block):
            return self.block(s.body, moved)
        if isinstance(s, (FuncDef, Decorator)):
            return moved
        if isinstance(s, AssignmentStmt):
            self._check(s.rvalue, moved)
            for lv in s.lvalues:
                if isinstance(lv, IndexExpr):
                    self._check(lv.base if not isinstance(lv.base, NameExpr) else None, moved)
                    self._check(lv.index, moved)
            moved = dict(moved)
            for lv in s.lvalues:
                for target in lv.items if isinstance(lv, TupleExpr) else [lv]:
                    name = _name(target)
                    if name is not None:
                        moved.pop(name, None)  # assigned again: a new tensor
            src = _name(s.rvalue)
            if src is not None and len(s.lvalues) == 1:
                lv = s.lvalues[0]
                if isinstance(lv, IndexExpr) and _whole_key(lv.index) and _name(lv.base):
                    dest = _name(lv.base) or "out"
                    moved[src] = _Move(s.line, dest, f"{dest}[...] = {src}" if isinstance(lv.index, EllipsisExpr) else f"{dest}[:] = {src}")
            return moved
        if isinstance(s, OperatorAssignmentStmt):
            self._check(s.rvalue, moved)
            self._check(s.lvalue, moved)
            moved = dict(moved)
            name = _name(s.lvalue)
            if name is not None:
                moved.pop(name, None)
            return moved
        if isinstance(s, ExpressionStmt):
            self._check(s.expr, moved)
            e = s.expr
            if (
                isinstance(e, CallExpr)
                and isinstance(e.callee, MemberExpr)
                and e.callee.name == "move"
                and len(e.args) == 1
                and _name(e.callee.expr)
                and _name(e.args[0])
            ):
                moved = dict(moved)
                dest, src = _name(e.callee.expr) or "out", _name(e.args[0]) or ""
                moved[src] = _Move(s.line, dest, f"{dest}.move({src})")
            return moved
        if isinstance(s, IfStmt):
            for cond in s.expr:
                self._check(cond, moved)
            outs = [self.block(b.body, moved) for b in s.body]
            outs.append(self.block(s.else_body.body, moved) if s.else_body else moved)
            merged: Moved = {}
            for o in outs:
                for k, v in o.items():
                    merged.setdefault(k, v)
            return merged
        if isinstance(s, (ForStmt, WhileStmt)):
            self._check(s.expr, moved)
            if isinstance(s, ForStmt):
                moved = dict(moved)
                for target in s.index.items if isinstance(s.index, TupleExpr) else [s.index]:
                    name = _name(target)
                    if name is not None:
                        moved.pop(name, None)
            after_once = self.block(s.body.body, moved)
            entry = {**moved, **{k: v for k, v in after_once.items() if k not in moved}}
            after = self.block(s.body.body, entry)  # the next iteration sees this one's moves
            merged = {**entry, **{k: v for k, v in after.items() if k not in entry}}
            if s.else_body:
                merged = self.block(s.else_body.body, merged)
            return merged
        if isinstance(s, WithStmt):
            for e in s.expr:
                self._check(e, moved)
            return self.block(s.body.body, moved)
        if isinstance(s, TryStmt):
            body = self.block(s.body.body, moved)
            for h in s.handlers:
                body = {**body, **self.block(h.body, moved)}
            if s.finally_body:
                body = self.block(s.finally_body.body, body)
            return body
        for attr in ("expr",):
            self._check(getattr(s, attr, None), moved)
        return moved


def check_moves(api: CheckerPluginInterface, func: FuncDef) -> None:
    _Walker(api).block(func.body.body, {})
