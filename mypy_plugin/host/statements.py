"""Host statements in program order, with their control flow: a branch sees only its own path
(a path that left by ``return`` / ``raise`` / ``break`` / ``continue`` joins nothing after), a
constant loop runs its iterations in turn (each sees the last one's bindings), and what runs only
under a condition that may depend on known values is walked silenced (its calls are not sites)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from ..debug import degrade
from .ast_facts import StoredNames, bound_names
from .conditions import compare, depends, truth
from .env import Env
from .expressions import MAX_ITEMS, ExpressionEvaluator
from .mutation import mutated
from .values import UNKNOWN, HostTensor, ListVal, Value

_BREAK: Final = "break"
_CONTINUE: Final = "continue"
_RETURN: Final = "return"  # or raise: the function is left
_EXIT_CALLS: Final = frozenset({"pytest.skip", "pytest.fail", "pytest.exit", "pytest.xfail", "sys.exit", "os._exit",
                                "exit", "quit"})


class OutOfBudget(Exception):
    pass


@dataclass
class Frame:
    """One walk of a function (or the module): the names it bound, and those bound again to
    another value (a nested function, called later, cannot know which one it sees)."""

    bound: set[str] = field(default_factory=set)
    rebound: set[str] = field(default_factory=set)


@dataclass
class Loop:
    env: Env  # the bindings around the loop (an iteration writes into a layer over them)
    breaks: list[dict[str, Value]] = field(default_factory=list)
    continues: list[dict[str, Value]] = field(default_factory=list)


@dataclass
class Scope:
    env: Env
    frame: Frame = field(default_factory=Frame)
    via: tuple[str, ...] = ()
    depth: int = 0
    live: bool = True  # False: every path here has left
    maybe: bool = False  # reached only under a condition that may depend on known values
    exits: set[str] = field(default_factory=set)  # how paths may have left (break, continue, return)
    loop: Loop | None = None
    factory: str | None = None  # walking this kernel factory's body
    returns: list[Value] = field(default_factory=list)

    def branch(self, maybe: bool = False) -> Scope:
        return replace(self, env=self.env.child(), live=True, maybe=self.maybe or maybe, exits=set(), returns=[])


def same(a: Value, b: Value) -> bool:
    """One value on two paths: a list must be the same object (its aliases are tracked by identity)."""
    return a is b or not isinstance(a, ListVal) and not isinstance(b, ListVal) and a == b


class StatementWalker(ExpressionEvaluator):
    _budget: int
    _stored: StoredNames
    _changed_elsewhere: set[str]
    _scope: Scope
    _imported: set[str]

    def _block(self, body: Sequence[ast.stmt], scope: Scope) -> None:
        outer = self._scope
        self._scope = scope
        try:
            for stmt in body:
                if not scope.live:
                    break  # after return / raise / break / continue: never runs
                self._safe_stmt(stmt, scope)
        finally:
            self._scope = outer

    def _safe_stmt(self, stmt: ast.stmt, scope: Scope) -> None:
        """One statement; an internal failure makes what it may bind or change unknown, and the
        walk goes on (the module's other calls are still checked)."""
        self._budget -= 1
        if self._budget < 0:
            raise OutOfBudget
        silence = self._silence
        try:
            self._stmt(stmt, scope)
        except (OutOfBudget, RecursionError):
            raise
        except Exception as err:  # never lose the rest of the module
            degrade(err)
            self._silence = silence
            self._scope = scope
            self._forget(self._stored(stmt), scope.env)
            for name in mutated(stmt, [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]):
                self._change_in_place(name, scope.env)

    def _stmt(self, stmt: ast.stmt, scope: Scope) -> None:
        t = type(stmt)
        handler = _HANDLERS.get(t)
        if handler is not None:
            getattr(self, handler)(stmt, scope)
        elif isinstance(stmt, (ast.Return, ast.Raise)):
            value = getattr(stmt, "value", None) or getattr(stmt, "exc", None)
            result = self._expr(value, scope.env) if value is not None else None
            if isinstance(stmt, ast.Return):
                scope.returns.append(result)
            self._exit(_RETURN, scope)
        elif isinstance(stmt, (ast.Break, ast.Continue)):
            self._exit(_BREAK if isinstance(stmt, ast.Break) else _CONTINUE, scope)
        elif isinstance(stmt, ast.Expr):
            self._expr(stmt.value, scope.env)
            if isinstance(stmt.value, ast.Call) and self._exits_process(stmt.value.func):
                self._exit(_RETURN, scope)
        elif isinstance(stmt, ast.Assert):
            self._guarded_exit(stmt.test, scope)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                name = (alias.asname or alias.name).split(".")[0]
                self._imported.add(name)
                if name not in self._torch and name not in self._pypto_dtypes:
                    self._bind_name(name, UNKNOWN, scope.env)
        elif isinstance(stmt, (ast.Global, ast.Nonlocal, ast.Delete)):
            if isinstance(stmt, ast.Delete):
                for target in stmt.targets:
                    if not isinstance(target, ast.Name):
                        self._expr(target, scope.env)
            self._forget(bound_names(stmt), scope.env)
            for name in mutated(stmt, ()):
                self._change_in_place(name, scope.env)

    def _exits_process(self, func: ast.expr) -> bool:
        text = func.id if isinstance(func, ast.Name) else (
            f"{func.value.id}.{func.attr}" if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else "")
        return text in _EXIT_CALLS and (not isinstance(func, ast.Name) or func.id not in self._scope.env)

    def _exit(self, kind: str, scope: Scope) -> None:
        loop = scope.loop
        if kind != _RETURN and loop is not None:
            (loop.breaks if kind == _BREAK else loop.continues).append(scope.env.changes_since(loop.env))
        scope.exits.add(kind)
        scope.live = False

    def _guarded_exit(self, test: ast.expr, scope: Scope) -> None:
        """``assert test``: False raises; an unknown test that may depend on known values makes
        the rest conditional."""
        known = truth(self._expr(test, scope.env))
        if known is False:
            self._exit(_RETURN, scope)
        elif known is None and depends(test, scope.env):
            scope.maybe = True

    # ---- assignments ---------------------------------------------------------------------------

    def _assign_stmt(self, stmt: ast.Assign | ast.AnnAssign, scope: Scope) -> None:
        if stmt.value is None:
            return
        value = self._expr(stmt.value, scope.env)
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if isinstance(target, (ast.Subscript, ast.Attribute)):
                self._store_into(target, value, scope.env)
            else:
                self._assign(target, value, scope.env)

    def _store_into(self, target: ast.Subscript | ast.Attribute, value: Value, env: Env) -> None:
        """``xs[i] = v`` on a known list is followed; a write into a tensor keeps its layout;
        anything else changes an object the walk does not follow."""
        base = self._expr(target.value, env)
        if isinstance(target, ast.Subscript):
            index = self._expr(target.slice, env)
            if isinstance(base, HostTensor):
                return  # the data changes, not the shape
            if isinstance(target.value, ast.Name) and isinstance(base, ListVal) and type(index) is int \
                    and -len(base) <= index < len(base):
                items = list(base)
                items[index] = value
                self._replace_list(target.value.id, base, ListVal(items), env)
                return
        root = target.value
        while isinstance(root, (ast.Subscript, ast.Attribute)):
            root = root.value
        if isinstance(root, ast.Name):
            self._change_in_place(root.id, env)

    def _replace_list(self, name: str, old: Value, new: Value, env: Env) -> None:
        """An exact in-place change of the list bound to ``name``: the name sees the new items,
        every other alias of the old object reads unknown."""
        self._stale[id(old)] = old
        env[name] = UNKNOWN if name in self._changed_elsewhere else new

    def _change_in_place(self, name: str, env: Env) -> None:
        old = env.get(name, UNKNOWN)
        if isinstance(old, (tuple, HostTensor)):
            self._stale[id(old)] = old  # kept alive: its id stays its own
        env[name] = UNKNOWN

    def _augassign(self, stmt: ast.AugAssign, scope: Scope) -> None:
        env = scope.env
        if not isinstance(stmt.target, ast.Name):
            self._expr(stmt.value, env)
            self._store_into(stmt.target, UNKNOWN, env)
            return
        name = stmt.target.id
        old = self._name(name, env)
        new = self._expr(ast.BinOp(stmt.target, stmt.op, stmt.value), env)
        if isinstance(old, ListVal):
            self._replace_list(name, old, ListVal(new) if isinstance(new, tuple) else UNKNOWN, env)
        elif isinstance(old, HostTensor):  # in place: the tensor keeps its shape, dtype and strides
            keeps = isinstance(new, HostTensor) and new.shape == old.shape and new.dtype == old.dtype \
                and old.shape is not None and old.dtype is not None
            self._bind_name(name, old if keeps else UNKNOWN, env)
        else:
            self._bind_name(name, new, env)

    # ---- branches ------------------------------------------------------------------------------

    def _merge(self, scope: Scope, branches: Sequence[Scope], dependent: bool) -> None:
        """Join the paths that fall through into ``scope``."""
        live = [b for b in branches if b.live]
        self._join(scope.env, [b.env.changes_since(scope.env) for b in live])
        left = [b for b in branches if not b.live or b.exits]
        for b in branches:
            scope.exits |= b.exits
        if left and (dependent or any(b.maybe and b.exits for b in branches)):
            scope.maybe = True
        if not live:
            scope.live = False

    def _join(self, env: Env, states: Sequence[dict[str, Value]]) -> None:
        names: set[str] = set()
        for st in states:
            names.update(st)
        for name in names:
            values = [st[name] if name in st else env.get(name, UNKNOWN) for st in states]
            first = values[0]
            env[name] = first if all(same(first, v) for v in values[1:]) else UNKNOWN

    def _if(self, stmt: ast.If, scope: Scope) -> None:
        known = truth(self._expr(stmt.test, scope.env))
        if known is not None:
            self._block(stmt.body if known else stmt.orelse, scope)
            return
        dependent = depends(stmt.test, scope.env)
        self._branches([stmt.body, stmt.orelse], scope, dependent)

    def _branches(self, bodies: Sequence[Sequence[ast.stmt]], scope: Scope, dependent: bool,
                  maybe: Sequence[bool] | None = None) -> None:
        results: list[Scope] = []
        for i, body in enumerate(bodies):
            branch = scope.branch(dependent or bool(maybe and maybe[i]))
            self._block(body, branch)
            results.append(branch)
        self._merge(scope, results, dependent)

    def _with(self, stmt: ast.With | ast.AsyncWith, scope: Scope) -> None:
        for item in stmt.items:
            self._expr(item.context_expr, scope.env)
            if item.optional_vars is not None:
                self._assign(item.optional_vars, UNKNOWN, scope.env)
        self._block(stmt.body, scope)

    def _try(self, stmt: ast.Try, scope: Scope) -> None:
        self._forget(self._stored(stmt), scope.env)
        # whether a handler runs depends on what raised: silenced unless the body only imports
        imports = all(isinstance(s, (ast.Import, ast.ImportFrom, ast.Pass)) for s in stmt.body)
        branches: list[Scope] = []
        body = scope.branch()
        self._block([*stmt.body, *stmt.orelse], body)
        branches.append(body)
        for handler in stmt.handlers:
            h = scope.branch(not imports)
            if handler.type is not None:
                self._expr(handler.type, h.env)
            if handler.name:
                self._bind_name(handler.name, UNKNOWN, h.env)
            self._block(handler.body, h)
            branches.append(h)
        self._merge(scope, branches, False)
        if stmt.finalbody:
            live = scope.live
            scope.live = True
            self._block(stmt.finalbody, scope)
            scope.live = scope.live and live
        self._forget(self._stored(stmt), scope.env)

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

    # ---- loops ---------------------------------------------------------------------------------

    def _for(self, stmt: ast.For | ast.AsyncFor, scope: Scope) -> None:
        items = self._expr(stmt.iter, scope.env)
        if isinstance(items, tuple) and len(items) <= MAX_ITEMS and isinstance(stmt, ast.For):
            self._constant_loop(stmt, items, scope)
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

    def _constant_loop(self, stmt: ast.For, items: tuple[Value, ...], scope: Scope) -> None:
        """Each item in turn, on the bindings the previous iteration left."""
        loop = Loop(scope.env)
        done = False
        for item in items:
            loop.continues = []
            it = replace(scope.branch(), loop=loop)
            self._assign(stmt.target, item, it.env)
            self._block(stmt.body, it)
            states = ([it.env.changes_since(scope.env)] if it.live else []) + loop.continues
            scope.exits |= it.exits - {_BREAK, _CONTINUE}
            if it.maybe and it.exits & {_BREAK, _RETURN}:
                scope.maybe = True  # the next iterations, and what follows, run only maybe
            if not states:  # every path left the loop
                if loop.breaks:
                    self._join(scope.env, loop.breaks)
                else:
                    scope.live = False
                done = True
                break
            self._join(scope.env, states)
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
        scope.exits |= inner.exits - {_BREAK, _CONTINUE}
        if inner.maybe and _RETURN in inner.exits:
            scope.maybe = True
        self._forget(self._stored(stmt), scope.env)
        self._broke = bool(loop.breaks)
        orelse: list[ast.stmt] = getattr(stmt, "orelse", [])
        if orelse:
            self._block(orelse, scope.branch(True) if loop.breaks else scope)
            self._forget(self._stored(stmt), scope.env)

    _broke: bool = False

    def _forget(self, names: Iterable[str], env: Env) -> None:
        """Every name a loop or try may rebind is unknown after it (and on a later iteration)."""
        for name in names:
            env[name] = UNKNOWN


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


_HANDLERS: Final[dict[type, str]] = {
    ast.Assign: "_assign_stmt", ast.AnnAssign: "_assign_stmt", ast.AugAssign: "_augassign", ast.If: "_if",
    ast.For: "_for", ast.AsyncFor: "_for", ast.While: "_while", ast.Try: "_try", ast.With: "_with",
    ast.AsyncWith: "_with", ast.Match: "_match", ast.FunctionDef: "_def", ast.AsyncFunctionDef: "_def",
    ast.ClassDef: "_class",
}
if hasattr(ast, "TryStar"):  # ``except*`` (3.11)
    _HANDLERS[ast.TryStar] = "_try"
