"""The kernel concept: the frontend's decorator names, what counts as a jit kernel or a helper, in mypy's tree and in Python's ``ast``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from mypy.nodes import CallExpr, Decorator, FuncDef, MypyFile, RefExpr, Statement
from mypy.types import CallableType, get_proper_type

from ..knowledge.frontend import FUNCTION, JIT_KERNEL_TYPE, KERNEL_DECORATORS
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
    return node if isinstance(t, CallableType) and t.fallback.type.fullname == JIT_KERNEL_TYPE else None


def is_helper_decorator(node: Decorator) -> bool:
    """``@pypto.frontend.function`` and not also a jit kernel."""
    return decorated_with(node, {FUNCTION}) and not decorated_with(node, KERNEL_DECORATORS)
