"""Compound statements with their own paths: ``try`` (a sure raise runs its handler), ``match``,
``for`` over a constant sequence (each item in turn) or of unknown length, ``while``."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from .conditions import compare, depends, truth
from .control_expressions import iterated
from .env import Env
from .expressions import MAX_ITEMS
from .scopes import BREAK, CONTINUE, RETURN, FlowWalker, Loop, Scope
from .values import CAST_METHODS, DEVICE_METHODS, SELF_METHODS, UNKNOWN, Raised, Value, builtin_exception

# Tensor methods that raise nothing on a tensor they accept (what the walk models of them).
_PLAIN_METHODS: Final = frozenset({*CAST_METHODS, *SELF_METHODS, *DEVICE_METHODS, "t", "contiguous", "clone", "detach"})


class CompoundWalker(FlowWalker):

    def _try(self, stmt: ast.Try, scope: Scope) -> None:
        body = scope.branch(speculative=False)  # runs, up to what raises
        followed = len(self._replaced)
        raised, at = self._try_body(stmt.body, body)
        if raised is not None:
            handler = self._handler(stmt.handlers, raised.name)
            if handler is not None and self._plain(stmt.body[:at + 1], scope.env):
                # the statements before it cannot raise: the handler runs with their bindings
                self._join(scope.env, [body.env.changes_since(scope.env)])
                if handler.name:
                    self._bind_name(handler.name, UNKNOWN, scope.env)
                self._block(handler.body, scope)
                self._finally(stmt, scope, None)
                return
            if handler is None and not any(h.type is None for h in stmt.handlers) and self._try_depth \
                    and scope.definite and self._plain(stmt.body[:at + 1], scope.env):
                self._finally(stmt, scope, raised)
        self._forget(self._stored(stmt), scope.env)
        if stmt.handlers:  # something may raise before a list change: its aliases are unknown after
            for key in list(self._replaced)[followed:]:
                del self._replaced[key]
        # whether a handler runs depends on what raised: silenced unless the body only imports
        imports = all(isinstance(s, (ast.Import, ast.ImportFrom, ast.Pass)) for s in stmt.body)
        if body.live:
            self._block(stmt.orelse, body)
        self._forget(self._stored(stmt), body.env)
        branches: list[Scope] = [body]
        for handler in stmt.handlers:
            h = scope.branch(not imports)
            if handler.type is not None:
                self._expr(handler.type, h.env)
            if handler.name:
                self._bind_name(handler.name, UNKNOWN, h.env)
            self._block(handler.body, h)
            branches.append(h)
        self._merge(scope, branches, False)
        self._finally(stmt, scope, None)
        self._forget(self._stored(stmt), scope.env)

    def _try_body(self, body: list[ast.stmt], scope: Scope) -> tuple[Raised | None, int]:
        """Walk a try body: the exception one of its statements surely raises, and where."""
        self._try_depth += 1
        silence = self._silence
        try:
            for i, stmt in enumerate(body):
                if not scope.live:
                    break
                try:
                    self._block([stmt], scope)
                except Raised as raised:
                    self._silence = silence
                    scope.live = False
                    return raised, i
        finally:
            self._try_depth -= 1
        return None, -1

    def _handler(self, handlers: list[ast.ExceptHandler], name: str) -> ast.ExceptHandler | None:
        """The first handler that surely catches builtin exception ``name`` (None: none does, or
        one may and it is not known)."""
        exc = builtin_exception(name)
        for h in handlers:
            if h.type is None:
                return h
            types = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
            known = [builtin_exception(t.id) if isinstance(t, ast.Name) and t.id not in self._scope.env else None
                     for t in types]
            if exc is not None and any(k is not None and issubclass(exc, k) for k in known):
                return h
            if any(k is None for k in known):
                return None  # a class the walk does not know may catch it
        return None

    def _plain(self, stmts: Sequence[ast.stmt], env: Env) -> bool:
        """Only calls the walk models (torch, math, builtins): none of them raises unseen."""
        for stmt in stmts:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call):
                    func = node.func
                    if self._qualname(func) is None and self._math_name(func) is None and not (
                            isinstance(func, ast.Name) and func.id not in env and hasattr(builtins, func.id)) and not (
                            isinstance(func, ast.Attribute) and func.attr in _PLAIN_METHODS):
                        return False
        return True

    def _finally(self, stmt: ast.Try, scope: Scope, raised: Raised | None) -> None:
        if stmt.finalbody:
            live = scope.live
            scope.live = True
            self._block(stmt.finalbody, scope)
            scope.live = scope.live and live
        if raised is not None:
            raise raised

    def _match(self, stmt: ast.Match, scope: Scope) -> None:
        subject = self._expr(stmt.subject, scope.env)
        dependent = depends(stmt.subject, scope.env)
        bodies: list[list[ast.stmt]] = []
        captures: list[tuple[ast.pattern, bool | None]] = []
        for case in stmt.cases:
            hit = _matches(case.pattern, subject, lambda e: self._expr(e, scope.env))
            if hit is False:
                continue
            guard = case.guard
            if hit and guard is None and not bodies:
                self._capture(case.pattern, subject, True, scope.env)
                self._block(case.body, scope)  # the first case that surely matches
                return
            body: list[ast.stmt] = [ast.If(guard, case.body, [])] if guard is not None else case.body
            bodies.append(body)
            captures.append((case.pattern, hit))
            if hit and guard is None:
                break  # irrefutable: no later case runs
        else:
            bodies.append([])  # no case matched
            captures.append((ast.MatchAs(), None))
        results: list[Scope] = []
        for body, (pattern, hit) in zip(bodies, captures):
            branch = scope.branch(dependent)
            self._capture(pattern, subject, hit, branch.env)
            self._block(body, branch)
            results.append(branch)
        self._merge(scope, results, dependent)

    def _capture(self, pattern: ast.pattern, subject: Value, hit: bool | None, env: Env) -> None:
        whole = isinstance(pattern, ast.MatchAs) and pattern.pattern is None and pattern.name
        for name in _pattern_names(pattern):
            self._bind_name(name, subject if whole and hit else UNKNOWN, env)

    def _for(self, stmt: ast.For | ast.AsyncFor, scope: Scope) -> None:
        source = self._expr(stmt.iter, scope.env)
        items = iterated(source)
        if isinstance(items, tuple) and len(items) <= MAX_ITEMS and isinstance(stmt, ast.For):
            self._constant_loop(stmt, items, scope, source)
        else:
            self._loop_once(stmt, stmt.body, scope, depends(stmt.iter, scope.env), stmt.target)

    def _while(self, stmt: ast.While, scope: Scope) -> None:
        known = truth(self._expr(stmt.test, scope.env))
        if known is False:
            self._block(stmt.orelse, scope)
            return
        self._loop_once(stmt, stmt.body, scope, known is None and depends(stmt.test, scope.env), None)
        if known is True and not self._broke:
            scope.live = False  # ``while True`` without a break never falls through

    def _constant_loop(self, stmt: ast.For, items: tuple[Value, ...], scope: Scope, source: Value = None) -> None:
        """Each item in turn, on the bindings the previous iteration left. A list or dict the body
        changes in place (``source``) is not walked on: Python iterates its new items, or raises."""
        loop = Loop(scope.env)
        done = False
        for item in items:
            loop.continues = []
            it = replace(scope.branch(speculative=False), loop=loop)
            self._assign(stmt.target, item, it.env)
            self._block(stmt.body, it)
            states = ([it.env.changes_since(scope.env)] if it.live else []) + loop.continues
            scope.exits |= it.exits - {BREAK, CONTINUE}
            if it.maybe and it.exits & {BREAK, RETURN}:
                scope.maybe = True  # the next iterations, and what follows, run only maybe
            if not states:  # every path left the loop
                if loop.breaks:
                    self._join(scope.env, loop.breaks)
                else:
                    scope.live = False
                done = True
                break
            self._join(scope.env, states)
            if id(source) in self._stale:  # the next ``next()`` sees the change
                self._forget(self._stored(stmt), scope.env)
                scope.maybe = True  # the rest of the loop, and what follows, is not known to run
                done = True
                break
        if loop.breaks and not done:
            self._forget(self._stored(stmt), scope.env)  # left at some break, or at the end
        if scope.live and not done:
            self._block(stmt.orelse, scope.branch(bool(loop.breaks)) if loop.breaks else scope)

    def _loop_once(self, stmt: ast.stmt, body: list[ast.stmt], scope: Scope, dependent: bool,
                   target: ast.expr | None) -> None:
        """A loop of unknown length: its body once, on bindings that forget what it rebinds."""
        self._forget(self._stored(stmt), scope.env)
        loop = Loop(scope.env)
        inner = replace(scope.branch(dependent), loop=loop)
        if target is not None:
            self._assign(target, UNKNOWN, inner.env)
        self._block(body, inner)
        scope.exits |= inner.exits - {BREAK, CONTINUE}
        if inner.maybe and RETURN in inner.exits:
            scope.maybe = True
        self._forget(self._stored(stmt), scope.env)
        self._broke = bool(loop.breaks)
        orelse: list[ast.stmt] = getattr(stmt, "orelse", [])
        if orelse:
            self._block(orelse, scope.branch(True) if loop.breaks else scope)
            self._forget(self._stored(stmt), scope.env)

    _broke: bool = False  # the last loop walked once had a break (a ``while True`` falls through)


def _matches(pattern: ast.pattern, subject: Value, expr: object) -> bool | None:
    """Does a ``case`` pattern match a known subject? None when not known."""
    if isinstance(pattern, ast.MatchAs):
        return True if pattern.pattern is None else _matches(pattern.pattern, subject, expr)
    if subject is UNKNOWN:
        return None
    if isinstance(pattern, ast.MatchValue) and callable(expr):
        return compare(ast.Eq(), subject, expr(pattern.value))
    if isinstance(pattern, ast.MatchSingleton):
        return subject is pattern.value if subject is None or type(subject) is bool else None
    if isinstance(pattern, ast.MatchOr):
        hits = [_matches(p, subject, expr) for p in pattern.patterns]
        return True if True in hits else False if all(h is False for h in hits) else None
    return None


def _pattern_names(pattern: ast.pattern) -> list[str]:
    names: list[str] = []
    for node in ast.walk(pattern):
        name = getattr(node, "name", None) or getattr(node, "rest", None)
        if isinstance(name, str):
            names.append(name)
    return names
