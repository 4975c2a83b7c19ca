"""A walk over a function body in program order, shared by the flow passes (tiles, moves).

Branches are walked from the same state and merged with ``join``; a loop body is walked once,
then again from the merge of "before the loop" and "after one iteration" (what a later
iteration starts from); nested definitions are skipped (they run when called). Subclasses say
what a simple statement and an expression do to the state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from mypy.nodes import (
    Block,
    Decorator,
    Expression,
    ForStmt,
    FuncDef,
    IfStmt,
    Statement,
    TryStmt,
    WhileStmt,
    WithStmt,
)

S = TypeVar("S")


class ProgramOrder(Generic[S]):
    def join(self, a: S, b: S) -> S:
        raise NotImplementedError

    def simple(self, s: Statement, state: S) -> S:
        """A statement without a body (assignment, expression, return ...)."""
        raise NotImplementedError

    def expr(self, e: Expression, state: S) -> S:
        """An expression evaluated for its effect (a condition, a loop or with head)."""
        raise NotImplementedError

    def loop_target(self, s: ForStmt, state: S) -> S:
        """The for-loop variable is bound before each iteration."""
        return state

    def block(self, stmts: Iterable[Statement], state: S) -> S:
        for s in stmts:
            state = self.stmt(s, state)
        return state

    def stmt(self, s: Statement, state: S) -> S:
        if isinstance(s, Block):
            return self.block(s.body, state)
        if isinstance(s, (FuncDef, Decorator)):
            return state
        if isinstance(s, IfStmt):
            for cond in s.expr:
                state = self.expr(cond, state)
            outs = [self.block(b.body, state) for b in s.body]
            outs.append(self.block(s.else_body.body, state) if s.else_body else state)
            merged = outs[0]
            for o in outs[1:]:
                merged = self.join(merged, o)
            return merged
        if isinstance(s, (ForStmt, WhileStmt)):
            state = self.expr(s.expr, state)
            if isinstance(s, ForStmt):
                state = self.loop_target(s, state)
            once = self.block(s.body.body, state)
            entry = self.join(state, once)
            if entry != state:
                once = self.block(s.body.body, entry)  # later iterations start from the merge
            after = self.join(entry, once)
            if s.else_body:
                after = self.block(s.else_body.body, after)
            return after
        if isinstance(s, WithStmt):
            for e in s.expr:
                state = self.expr(e, state)
            return self.block(s.body.body, state)
        if isinstance(s, TryStmt):
            body = self.block(s.body.body, state)
            merged = body
            for h in s.handlers:
                merged = self.join(merged, self.block(h.body, self.join(state, body)))
            if s.else_body:
                merged = self.join(merged, self.block(s.else_body.body, body))
            if s.finally_body:
                merged = self.block(s.finally_body.body, merged)
            return merged
        return self.simple(s, state)
