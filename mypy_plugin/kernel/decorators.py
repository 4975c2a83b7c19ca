"""The kernel concept: the frontend's decorator names, what counts as a jit kernel or a helper, in mypy's tree and in Python's ``ast``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from mypy.nodes import FUNC_NO_INFO, CallExpr, Decorator, DictExpr, FuncDef, IntExpr, MypyFile, NameExpr, RefExpr, Statement, StrExpr
from mypy.types import CallableType, get_proper_type

from ..knowledge.frontend import (
    DEBUG_MODE_CHECKS_CALLS, FUNCTION, JIT_KERNEL_CHECKED_TYPE, JIT_KERNEL_TYPE, KERNEL_DECORATORS,
)
from . import copies as kernel_copies
from .body_walk import statements


def decorated_with(deco: Decorator, fullnames: Iterable[str]) -> bool:
    """``@name`` or ``@name(...)`` among the decorators, for one of ``fullnames``."""
    wanted = set(fullnames)
    for d in deco.original_decorators:
        target = d.callee if isinstance(d, CallExpr) else d
        if isinstance(target, RefExpr) and target.fullname in wanted:
            return True
    return False


def is_kernel(module: MypyFile, func: FuncDef) -> bool:
    func = kernel_copies.origin(func)  # a kernel checked again with a call's tensors
    if not func.is_decorated:
        return False
    # A module-level kernel is its name's symbol: no scan (a scan per function is quadratic
    # in a module of many kernels).
    sym = module.names.get(func.name)
    if sym is not None and isinstance(sym.node, Decorator) and sym.node.func is func:
        return decorated_with(sym.node, KERNEL_DECORATORS)
    # A method is its class's symbol (a decorated method, ``@property`` and the like, is common in
    # code that never uses PyPTO: no scan of its module for each of its calls).
    if func.info is not FUNC_NO_INFO:
        member = func.info.names.get(func.name)
        if member is not None and isinstance(member.node, Decorator) and member.node.func is func:
            return decorated_with(member.node, KERNEL_DECORATORS)
    for node in decorators(module.defs):
        if node.func is func:
            return decorated_with(node, KERNEL_DECORATORS)
    return False


def decorators(stmts: list[Statement]) -> Iterator[Decorator]:
    """Every decorated function in ``stmts`` at any nesting (in functions, classes and every block
    of a compound statement: the frontend compiles a kernel wherever it is defined), in source order."""
    return (s for s in statements(stmts, into_definitions=True) if isinstance(s, Decorator))


def jit_kernel(node: object) -> Decorator | None:
    """``node`` if it is a ``@pypto.frontend.jit`` kernel: by its decorators, or (read from mypy's
    cache, which keeps no decorators) by the function type the plugin gave it."""
    if not isinstance(node, Decorator):
        return None
    if decorated_with(node, KERNEL_DECORATORS):
        return node
    t = get_proper_type(node.var.type)
    return node if isinstance(t, CallableType) and t.fallback.type.has_base(JIT_KERNEL_TYPE) else None


def checks_calls(node: Decorator) -> bool:
    """Does 0.2.0 compare each call's tensors with this kernel's annotations (rule:
    runtime-debug-mode-3-checks-calls)? From ``debug_options={"runtime_debug_mode": 3}`` on the
    decorator, or (from mypy's cache, which keeps no decorators) the type the plugin gave it."""
    for d in node.original_decorators:
        target = d.callee if isinstance(d, CallExpr) else d
        if isinstance(target, RefExpr) and target.fullname in KERNEL_DECORATORS:
            return isinstance(d, CallExpr) and _debug_mode_3(d)
    t = get_proper_type(node.var.type)
    return isinstance(t, CallableType) and t.fallback.type.fullname == JIT_KERNEL_CHECKED_TYPE


def _debug_mode_3(call: CallExpr) -> bool:
    """``debug_options={"runtime_debug_mode": 3}`` or ``dict(runtime_debug_mode=3)``, written out."""
    options = next((a for a, n in zip(call.args, call.arg_names) if n == "debug_options"), None)
    pairs: list[tuple[object, object]] = []
    if isinstance(options, DictExpr):
        pairs = [(k.value if isinstance(k, StrExpr) else None, v) for k, v in options.items]
    elif isinstance(options, CallExpr) and isinstance(options.callee, NameExpr) and options.callee.fullname == "builtins.dict":
        pairs = list(zip(options.arg_names, options.args))
    return any(k == "runtime_debug_mode" and isinstance(v, IntExpr) and v.value == DEBUG_MODE_CHECKS_CALLS
               for k, v in pairs)


def is_helper_decorator(node: Decorator) -> bool:
    """``@pypto.frontend.function`` and not also a jit kernel."""
    return decorated_with(node, {FUNCTION}) and not decorated_with(node, KERNEL_DECORATORS)
