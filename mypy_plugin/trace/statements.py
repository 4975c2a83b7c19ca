"""Traced statements in program order with their control flow: a branch whose test is a known
bool is the only one taken; otherwise both are, and they meet (:func:`.values.join`, the tiles'
own join); a path that left (``return``, ``raise``, ``break``, ``continue``) joins nothing after.
A loop body is walked, silently, until the state it may be entered with stops changing (then once
more, reporting); assignments, writes into outputs (``out[...] = v``, checked as the write hook
checks them) and nested scopes (whose names become unknown)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Final

from ..knowledge.tiles import UNKNOWN as UNKNOWN_TILE
from ..knowledge.tiles import TileState
from .writes import WriteTracer
from .values import NONE, UNKNOWN, Range, Seq, Value, is_symbolic, join

_MAX_PASSES: Final = 3  # a loop body's passes to a fixed point, before its names are widened


@dataclass
class State:
    env: dict[str, Value]
    tiles: TileState

    def joined(self, other: State) -> State:
        names = set(self.env) | set(other.env)
        return State({n: join(self.env.get(n, UNKNOWN), other.env.get(n, UNKNOWN)) for n in names},
                     self.tiles.join(other.tiles))


def _join_all(states: list[State]) -> State | None:
    if not states:
        return None
    out = states[0]
    for s in states[1:]:
        out = out.joined(s)
    return out


@dataclass
class _Loop:
    breaks: list[State] = field(default_factory=list)
    continues: list[State] = field(default_factory=list)


class StatementTracer(WriteTracer):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.dead = False
        self.returns: list[tuple[Value, TileState]] = []
        self.loops: list[_Loop] = []
        self.into = {}
        self._last_breaks: list[State] = []

    # --- state ----------------------------------------------------------------------
    def snapshot(self) -> State:
        return State(dict(self.env), self.tiles)

    def restore(self, s: State) -> None:
        self.env, self.tiles, self.dead = dict(s.env), s.tiles, False

    def block(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            if self.dead:
                return
            if not self.spend():
                self.give_up()
                return
            self.stmt(s)

    def give_up(self) -> None:
        """Out of budget: nothing after this point is known."""
        self.env = {n: UNKNOWN for n in self.env}
        self.tiles = TileState(UNKNOWN_TILE, UNKNOWN_TILE)

    def stmt(self, s: ast.stmt) -> None:
        method = getattr(self, f"_s_{type(s).__name__}", None)
        if method is not None:
            method(s)
            return
        for child in ast.iter_child_nodes(s):  # what we do not model: its expressions still run
            if isinstance(child, ast.expr):
                self.expr(child)
        self.forget(s)

    def forget(self, s: ast.AST) -> None:
        for node in ast.walk(s):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                self.env[node.id] = UNKNOWN

    # --- simple statements ------------------------------------------------------------
    def _s_Expr(self, s: ast.Expr) -> None:
        self.expr(s.value)

    def _s_Pass(self, s: ast.Pass) -> None:
        pass

    def _s_Assign(self, s: ast.Assign) -> None:
        whole_out = self._whole_output(s.targets)
        if whole_out is not None:
            self.into[id(s.value)] = (True, whole_out.dtype)
        value = self.expr(s.value)
        for target in s.targets:
            self.assign(target, value, s)

    def _s_AnnAssign(self, s: ast.AnnAssign) -> None:
        if s.value is not None:
            self.assign(s.target, self.expr(s.value), s)
        elif isinstance(s.target, ast.Name):
            self.env.pop(s.target.id, None)

    def _s_AugAssign(self, s: ast.AugAssign) -> None:
        if isinstance(s.target, ast.Name):
            current = self.name(s.target)
            value = self.expr(s.value)
            self.env[s.target.id] = self.binary(s, s.op, current, value, s.target, s.value, inplace=True)
            return
        self.expr(s.value)
        for child in ast.iter_child_nodes(s.target):
            if isinstance(child, ast.expr):
                self.expr(child)

    def _s_Return(self, s: ast.Return) -> None:
        value = self.expr(s.value) if s.value is not None else NONE
        self.returns.append((value, self.tiles))
        self.dead = True

    def _s_Raise(self, s: ast.Raise) -> None:
        if s.exc is not None:
            self.expr(s.exc)
        self.dead = True

    def _s_Break(self, s: ast.Break) -> None:
        if self.loops:
            self.loops[-1].breaks.append(self.snapshot())
        self.dead = True

    def _s_Continue(self, s: ast.Continue) -> None:
        if self.loops:
            self.loops[-1].continues.append(self.snapshot())
        self.dead = True

    def _s_Delete(self, s: ast.Delete) -> None:
        for t in s.targets:
            if isinstance(t, ast.Name):
                self.env[t.id] = UNKNOWN
            else:
                self.expr(t)

    def _s_Global(self, s: ast.Global) -> None:
        for name in s.names:
            self.env[name] = UNKNOWN

    _s_Nonlocal = _s_Global

    def _s_FunctionDef(self, s: ast.FunctionDef) -> None:
        self.env[s.name] = UNKNOWN  # a nested function: not traced

    _s_AsyncFunctionDef = _s_FunctionDef
    _s_ClassDef = _s_FunctionDef

    def _s_Import(self, s: ast.Import) -> None:
        for alias in s.names:
            self.env[(alias.asname or alias.name).split(".")[0]] = UNKNOWN

    _s_ImportFrom = _s_Import

    def _s_Assert(self, s: ast.Assert) -> None:
        self.expr(s.test)

    # --- compound statements ------------------------------------------------------------
    def _s_If(self, s: ast.If) -> None:
        test = self.expr(s.test)
        if type(test) is bool:
            self.block(s.body if test else s.orelse)
            return
        # A symbolic test (a loop index, pypto.cond): the frontend traces both branches. A Python
        # value we do not know: one of them runs, maybe not this one, and what it does with the
        # call's values is not provable there: both are walked, silently.
        silent = 0 if is_symbolic(test) else 1
        self.silent += silent
        try:
            start = self.snapshot()
            self.block(s.body)
            ends = [] if self.dead else [self.snapshot()]
            self.restore(start)
            self.block(s.orelse)
            if not self.dead:
                ends.append(self.snapshot())
        finally:
            self.silent -= silent
        self._end(ends)

    def _end(self, ends: list[State]) -> None:
        joined = _join_all(ends)
        if joined is None:
            self.dead = True
        else:
            self.restore(joined)

    def _s_For(self, s: ast.For) -> None:
        it = self.expr(s.iter)
        item: Value = it.item if isinstance(it, Range) else UNKNOWN
        if isinstance(it, Seq) and it.items:
            item = it.items[0]
            for other in it.items[1:]:
                item = join(item, other)
        # pypto.loop traces its body once; a Python loop over items we know runs it; over anything
        # else it may not run at all: walked silently.
        runs = isinstance(it, Range) and (it.symbolic or bool(it.items)) or isinstance(it, Seq) and bool(it.items)
        self.silent += 0 if runs else 1
        try:
            self.loop(s.body, s.orelse, lambda: self.assign(s.target, item, s))
        finally:
            self.silent -= 0 if runs else 1

    _s_AsyncFor = _s_For

    def _s_While(self, s: ast.While) -> None:
        def begin() -> None:
            self.expr(s.test)
        self.silent += 1  # 0.2.0 rejects a while in a kernel; in a helper it may not run
        try:
            self.loop(s.body, s.orelse, begin, test=s.test)
        finally:
            self.silent -= 1

    def loop(self, body: list[ast.stmt], orelse: list[ast.stmt], begin: object, test: ast.expr | None = None) -> None:
        if test is not None:
            self.expr(test)
        entry = self.snapshot()
        state_in = entry
        for n in range(_MAX_PASSES + 1):
            self.silent += 1
            try:
                after = self._iteration(body, state_in, begin)
            finally:
                self.silent -= 1
            new_in = entry if after is None else entry.joined(after)
            if _same(new_in, state_in):
                break
            state_in = new_in if n < _MAX_PASSES else self._widened(new_in, body)
        after = self._iteration(body, state_in, begin)  # the pass that reports
        loop_exit = [state_in] + ([after] if after is not None else []) + self._last_breaks
        self.restore(_join_all(loop_exit) or state_in)
        self.block(orelse)

    def _iteration(self, body: list[ast.stmt], state_in: State, begin: object) -> State | None:
        self.restore(state_in)
        self.loops.append(_Loop())
        try:
            begin()  # type: ignore[operator]
            self.block(body)
            frame = self.loops[-1]
        finally:
            self.loops.pop()
        self._last_breaks = frame.breaks
        ends = ([] if self.dead else [self.snapshot()]) + frame.continues
        return _join_all(ends)

    def _widened(self, state: State, body: list[ast.stmt]) -> State:
        bound = {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        return State({k: (UNKNOWN if k in bound else v) for k, v in state.env.items()},
                     TileState(UNKNOWN_TILE, UNKNOWN_TILE))

    def _s_With(self, s: ast.With) -> None:
        for item in s.items:
            self.expr(item.context_expr)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, UNKNOWN, s)
        self.block(s.body)

    _s_AsyncWith = _s_With

    def _s_Try(self, s: ast.Try) -> None:
        start = self.snapshot()
        self.block(s.body)
        body_end = None if self.dead else self.snapshot()
        self.block(s.orelse) if body_end is not None else None
        ends = [] if self.dead or body_end is None else [self.snapshot()]
        for handler in s.handlers:
            self.restore(start.joined(body_end) if body_end is not None else start)
            if handler.name:
                self.env[handler.name] = UNKNOWN
            self.block(handler.body)
            if not self.dead:
                ends.append(self.snapshot())
        self._end(ends)
        if s.finalbody and not self.dead:
            self.block(s.finalbody)


def _same(a: State, b: State) -> bool:
    return a.tiles == b.tiles and a.env.keys() == b.env.keys() and all(
        a.env[k] is b.env[k] or type(a.env[k]) is type(b.env[k]) and a.env[k] == b.env[k] for k in a.env)

