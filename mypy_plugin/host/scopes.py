"""The walk's state: a scope (its bindings, whether its path is still running, surely or only
maybe, how paths left it), loops and frames; the base walker that runs statements one at a time
and joins the paths that fall through."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from ..debug import degrade
from .ast_facts import StoredNames
from .env import Env
from .expressions import ExpressionEvaluator
from .mutation import mutated
from .values import OBJECTS, UNKNOWN, DictVal, ListVal, Raised, Value

BREAK: Final = "break"
CONTINUE: Final = "continue"
RETURN: Final = "return"  # or raise: the function is left
EXIT_CALLS: Final = frozenset({"pytest.skip", "pytest.fail", "pytest.exit", "pytest.xfail", "sys.exit", "os._exit",
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
    speculative: bool = False  # one of several paths (a branch, a handler, a loop of unknown length)
    func: ast.FunctionDef | ast.AsyncFunctionDef | None = None  # a function walked on its own (unknown parameters)

    def branch(self, maybe: bool = False, speculative: bool = True) -> Scope:
        return replace(self, env=self.env.child(), live=True, maybe=self.maybe or maybe, exits=set(), returns=[],
                       speculative=self.speculative or speculative)

    @property
    def definite(self) -> bool:
        """Everything walked here happens, in this order, whenever the walk's start happens."""
        return not (self.speculative or self.maybe or self.exits)


def same(a: Value, b: Value) -> bool:
    """One value on two paths: a list must be the same object (its aliases are tracked by identity)."""
    return a is b or not isinstance(a, ListVal) and not isinstance(b, ListVal) and a == b


class FlowWalker(ExpressionEvaluator):
    _budget: int
    _stored: StoredNames
    _changed_elsewhere: set[str]
    _scope: Scope
    _imported: set[str]
    _partial: set[str]  # how functools.partial is spelled here ("partial", "functools.partial")
    _replaced: dict[int, Value]  # id of a list changed in place exactly -> its new items
    _try_depth: int = 0  # try bodies being walked (a sure raise inside goes to their handlers)

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
        except Raised:
            if self._silence == silence and scope.definite and self._try_depth:
                raise  # to the try around it
            self._silence = silence
            self._scope = scope
            if self._silence == silence:
                self._exit(RETURN, scope)  # the path ends here
            else:  # raised in a part that may not run: what the statement did is not known
                self._forget(self._stored(stmt), scope.env)
                scope.maybe = True
        except (OutOfBudget, RecursionError):
            raise
        except Exception as err:  # never lose the rest of the module
            degrade(err)
            self._silence = silence
            self._scope = scope
            self._forget(self._stored(stmt), scope.env)
            for name in mutated(stmt, [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]):
                self._change_in_place(name, scope.env)

    def _exit(self, kind: str, scope: Scope) -> None:
        loop = scope.loop
        if kind != RETURN and loop is not None:
            (loop.breaks if kind == BREAK else loop.continues).append(scope.env.changes_since(loop.env))
        scope.exits.add(kind)
        scope.live = False

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

    def _replace_list(self, name: str, old: Value, new: Value, env: Env) -> None:
        """An exact in-place change of the list bound to ``name``: the name sees the new items;
        every other alias of the old object sees them too when the change surely happened on
        every path that reads it, else it reads unknown."""
        self._stale[id(old)] = old
        if isinstance(new, (ListVal, DictVal)) and self._scope.definite and not self._silence:
            self._replaced[id(old)] = new
        env[name] = UNKNOWN if name in self._changed_elsewhere else new

    def _change_in_place(self, name: str, env: Env) -> None:
        old = env.get(name, UNKNOWN)
        if isinstance(old, OBJECTS):
            self._stale[id(old)] = old  # kept alive: its id stays its own
        env[name] = UNKNOWN

    def _forget(self, names: Iterable[str], env: Env) -> None:
        """Every name a loop or try may rebind is unknown after it (and on a later iteration)."""
        for name in names:
            env[name] = UNKNOWN


    def _stmt(self, stmt: ast.stmt, scope: Scope) -> None:
        raise NotImplementedError
