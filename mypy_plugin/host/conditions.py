"""Conditions of host code: the truth of a known value, comparisons of known values, and whether
an unknown condition may depend on what the evaluator knows (then what it guards is silenced:
the path with those values may never run)."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any, Final

from .env import Env
from .values import UNKNOWN, Defined, KernelRef, PyptoDType, TorchDType, Value


def truth(v: Value) -> bool | None:
    """Python's ``bool(v)`` where the source proves it; None for a tensor or an unknown value."""
    if v is UNKNOWN:
        return None
    if v is None or type(v) in (bool, int, float, str) or isinstance(v, tuple):
        return bool(v)
    if isinstance(v, (TorchDType, PyptoDType, KernelRef, Defined)):
        return True
    return None


_ORDER: Final[dict[type, Callable[[Any, Any], object]]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
}


def _plain(v: Value) -> bool:
    if isinstance(v, tuple):
        return all(_plain(i) for i in v)
    return v is None or type(v) in (bool, int, float, str) or isinstance(v, (TorchDType, PyptoDType))


def compare(op: ast.cmpop, a: Value, b: Value) -> bool | None:
    """``a <op> b`` for values the source proves (numbers, strings, None, dtypes, tuples of
    them); None when unknown (a tensor comparison is a tensor)."""
    if isinstance(op, (ast.Is, ast.IsNot)):
        if a is None or b is None:
            if a is UNKNOWN or b is UNKNOWN:
                return None
            same = a is None and b is None
        elif isinstance(a, TorchDType) and isinstance(b, TorchDType):
            same = a == b  # torch dtypes are singletons
        else:
            return None
        return same if isinstance(op, ast.Is) else not same
    if isinstance(op, (ast.In, ast.NotIn)):
        if not isinstance(b, tuple) or not _plain(b) or not _plain(a):
            return None
        found = a in b
        return found if isinstance(op, ast.In) else not found
    if not _plain(a) or not _plain(b):
        return None
    if isinstance(op, (ast.Eq, ast.NotEq)):
        equal = a == b
        return equal if isinstance(op, ast.Eq) else not equal
    fn = _ORDER.get(type(op))
    try:
        return bool(fn(a, b)) if fn is not None else None
    except TypeError:
        return None


def depends(node: ast.AST, env: Env) -> bool:
    """May this (unknown) expression depend on a value the evaluator knows? It reads a name bound
    to a known value, or calls a function of the module (which may read any of them)."""
    pending: list[ast.AST] = [node]
    while pending:
        n = pending.pop()
        if isinstance(n, ast.Lambda):
            continue
        if isinstance(n, ast.Name):
            v = env.get(n.id, UNKNOWN)
            if v is not UNKNOWN:
                return True
            continue
        pending.extend(ast.iter_child_nodes(n))
    return False
