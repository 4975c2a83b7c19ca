"""Host functions called from the walk: a helper's body walked with the call's arguments (its
parameters get the caller's values: a ``run_case(x, w)`` that calls a kernel with them is checked
with each caller's tensors), to a bounded depth; kernel factories; ``functools.partial``."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Final

from .env import Env
from .expressions import Args
from .scopes import FlowWalker, Frame, Scope, same
from .values import UNKNOWN, Defined, KernelRef, Value

# Helpers calling helpers: the chain a caller's arguments follow (a test -> run_case -> prepare ...).
MAX_DEPTH: Final = 4
# Statements of the module's budget kept for the walks of its functions: below it, a helper's
# result is unknown instead of walked (a wide tree of helpers cannot use up the module's budget).
RESERVE: Final = 25_000


class HelperCalls(FlowWalker):
    _defs: dict[int, ast.FunctionDef | ast.AsyncFunctionDef]
    _def_frames: dict[int, Frame]
    _helpers: dict[str, ast.FunctionDef]
    _factories: dict[str, tuple[ast.FunctionDef, str]]
    _changes_params: dict[str, tuple[frozenset[int], frozenset[str]]]
    _globals: Env | None
    _module_env: Env
    _yielding: frozenset[int]
    _entered: list[int]  # ids of the helpers being walked with a call's arguments (no recursion)
    _budget: int

    def _may_change(self, args: Args, only: Callable[[int, str | None], bool] | None = None) -> None:
        raise NotImplementedError

    def _call_function(self, node: ast.Call, callee: Defined, args: Args, env: Env) -> Value:
        func = self._defs.get(callee.node)
        if func is None:
            return UNKNOWN
        result: Value = UNKNOWN
        module_level = self._helpers.get(func.name) is func
        params = [*func.args.posonlyargs, *func.args.args]
        known = not params or any(v is not UNKNOWN for v in [*args.values, *args.kwargs.values()])
        # a nested function is walked where it was defined (its closure is this scope), else not
        local = module_level or self._def_frames.get(id(func)) is self._scope.frame
        if (self._scope.depth < MAX_DEPTH and self._budget > RESERVE and known and local and not args.unknown_spread
                and len(args.values) <= len(params) and func.args.vararg is None and isinstance(func, ast.FunctionDef)
                and not self._generator(func) and id(func) not in self._entered):
            closure = (self._globals or self._module_env) if module_level else env
            self._entered.append(id(func))
            try:
                result = self._walk(func, args, closure, (*self._scope.via, f"{func.name} at line {node.lineno}"))
            finally:
                self._entered.pop()
        changes = self._changes_params.get(func.name) if module_level else None
        if changes is not None:
            self._may_change(args, lambda i, key: i in changes[0] or key in changes[1])
        return result

    def _walk(self, func: ast.FunctionDef, args: Args, closure: Env, via: tuple[str, ...], factory: str | None = None,
              depth: int | None = None) -> Value:
        """The body of ``func`` with the call's arguments: what it returns (one value on every
        path), UNKNOWN else."""
        env = Env(closure)
        params = [*func.args.posonlyargs, *func.args.args]
        for p in [*params, *func.args.kwonlyargs, func.args.kwarg]:
            if p is not None:
                env[p.arg] = UNKNOWN
        defaults = func.args.defaults
        for p, default in zip(params[len(params) - len(defaults):], defaults):
            env[p.arg] = self._expr(default, closure)
        for kp, kw_default in zip(func.args.kwonlyargs, func.args.kw_defaults):
            if kw_default is not None:
                env[kp.arg] = self._expr(kw_default, closure)
        for p, value in zip(params, args.values):
            env[p.arg] = value
        for key, value in args.kwargs.items():
            env[key] = value
        inner = Scope(env, via=via, depth=self._scope.depth + 1 if depth is None else depth, maybe=self._scope.maybe,
                      factory=factory,
                      speculative=self._scope.speculative or bool(self._scope.exits))
        self._block(func.body, inner)
        returns = inner.returns + ([None] if inner.live else [])
        return returns[0] if returns and all(same(returns[0], r) for r in returns[1:]) else UNKNOWN

    def _generator(self, func: ast.FunctionDef) -> bool:
        """Its body runs when iterated, not when called."""
        return id(func) in self._yielding

    def _factory_name(self, callee: ast.expr, env: Env) -> str | None:
        """``make_kernel`` when the name is bound to the module's factory of that name."""
        if not isinstance(callee, ast.Name) or callee.id not in self._factories:
            return None
        return callee.id if env.get(callee.id) == Defined(id(self._factories[callee.id][0])) else None

    def _factory(self, name: str, args: Args) -> Value:
        """A factory call: its body walked with the arguments (one level); the kernel it returns,
        with the names its annotations read when its ``def`` ran."""
        func, kernel = self._factories[name]
        params = [*func.args.posonlyargs, *func.args.args]
        if func.args.vararg is not None or len(args.values) > len(params) or args.unknown_spread:
            return KernelRef(f"{name}.{kernel}")
        made = self._walk(func, args, self._globals or self._module_env, self._scope.via, factory=name)
        return made if isinstance(made, KernelRef) else KernelRef(f"{name}.{kernel}")

    def _is_partial(self, func: ast.expr) -> bool:
        text = func.id if isinstance(func, ast.Name) else (
            f"{func.value.id}.{func.attr}" if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else "")
        return text in self._partial
