"""Statements that change an object in place (``shape[0] = 1``, ``dims.pop()``, ``x.unsqueeze_(0)``):
the evaluator's values are snapshots, so every name bound to such an object becomes unknown."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from typing import Final

from .expressions import Env
from .values import UNKNOWN, HostTensor, Value

# List / dict / set methods that change the object.
CONTAINER_MUTATORS: Final = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update", "setdefault",
    "popitem", "add", "discard", "__setitem__", "__delitem__", "__iadd__", "__imul__",
})
# In-place tensor methods that keep the shape, the dtype and the strides (any other ``name_``
# method may change them: resize_, unsqueeze_, t_, transpose_, as_strided_, set_ ...).
_KEEPING_INPLACE: Final = frozenset({
    "fill_", "zero_", "normal_", "uniform_", "random_", "copy_", "add_", "sub_", "mul_", "div_", "clamp_",
    "requires_grad_", "abs_", "neg_", "exp_", "sqrt_", "pow_", "masked_fill_", "bernoulli_", "exponential_",
    "index_fill_", "index_copy_", "index_add_", "scatter_", "scatter_add_", "fill_diagonal_", "share_memory_",
})


def _root(node: ast.expr) -> str | None:
    """``a`` of ``a``, ``a[0]``, ``a.b[1]``."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _store_targets(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, (ast.Assign, ast.Delete)):
        return list(stmt.targets)
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return [stmt.target]
    return []


def _changed_by_targets(stmt: ast.stmt) -> set[str]:
    """``x[0] = v``, ``x.a = v``, ``del x[0]``: the roots of subscript and attribute targets
    (inside tuple and list targets too). It runs for every statement the evaluator walks: a plain
    loop, with nothing built for the commonest target, a name."""
    roots: set[str] = set()
    pending = _store_targets(stmt)
    while pending:
        target = pending.pop()
        if isinstance(target, ast.Name):
            continue
        if isinstance(target, (ast.Subscript, ast.Attribute)):
            root = _root(target)
            if root is not None:
                roots.add(root)
        elif isinstance(target, (ast.Tuple, ast.List)):
            pending.extend(e.value if isinstance(e, ast.Starred) else e for e in target.elts)
    return roots


def _mutating_call(call: ast.Call) -> str | None:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    name = func.attr
    changes = name in CONTAINER_MUTATORS or (name.endswith("_") and not name.startswith("_")
                                               and name not in _KEEPING_INPLACE)
    return _root(func.value) if changes else None


def mutated(stmt: ast.stmt, calls: Iterable[ast.Call]) -> set[str]:
    """Names whose objects this simple statement changes in place (a rebinding is not a change:
    ``x = ...`` binds a new object); ``calls``: the calls in the statement."""
    names = _changed_by_targets(stmt)
    for call in calls:
        root = _mutating_call(call)
        if root is not None:
            names.add(root)
    return names


def followed(stmt: ast.stmt, env: Mapping[str, Value], value: Callable[[ast.expr], Value]) -> tuple[str, Value] | None:
    """The new value of a list this statement changes in a way the evaluator follows exactly:
    ``x[i] = v``, ``x.append(v)``, ``x.insert(i, v)``, ``x.extend(t)``, ``x.pop()`` / ``x.pop(i)``
    on a name bound to a known sequence (``value`` evaluates in the env before the change)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            items, index = env.get(target.value.id), value(target.slice)
            if isinstance(items, tuple) and type(index) is int and -len(items) <= index < len(items):
                new = list(items)
                new[index] = value(stmt.value)
                return target.value.id, tuple(new)
        return None
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or call.keywords:
        return None
    receiver = call.func.value
    items = env.get(receiver.id) if isinstance(receiver, ast.Name) else None
    if not isinstance(receiver, ast.Name) or not isinstance(items, tuple):
        return None
    args = [value(a) for a in call.args]
    method = call.func.attr
    if method == "append" and len(args) == 1:
        return receiver.id, (*items, args[0])
    if method == "extend" and len(args) == 1 and isinstance(args[0], tuple):
        return receiver.id, items + args[0]
    if method == "insert" and len(args) == 2 and type(args[0]) is int:
        new = list(items)
        new.insert(args[0], args[1])
        return receiver.id, tuple(new)
    if method == "pop" and items and (not args or type(args[0]) is int and -len(items) <= args[0] < len(items)):
        new = list(items)
        new.pop(args[0] if args and type(args[0]) is int else -1)
        return receiver.id, tuple(new)
    return None


class ChangedElsewhere:
    """Names a function changes in place without binding them itself: objects of an enclosing
    scope (module constants, closure lists). Their values are unknown everywhere: when a caller
    sees the change is not followed. Fed by the module scan's one walk (:func:`module_facts.scan`):
    ``enter`` at a function or lambda, then inside it ``bound`` for each name stored, ``called``
    for each call and ``assigned`` for each assignment or ``del``, ``leave`` after its last node."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        # (names the function binds, names whose objects it changes), innermost function last
        self._frames: list[tuple[set[str], set[str]]] = []

    def enter(self, func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        args = func.args
        self._frames.append(({a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}, set()))

    @property
    def inside(self) -> bool:
        """In a function or lambda (nothing outside one is recorded)."""
        return bool(self._frames)

    def leave(self) -> None:
        own, changed = self._frames.pop()
        self.names.update(changed - own)

    def bound(self, name: str) -> None:
        self._frames[-1][0].add(name)

    def called(self, call: ast.Call) -> None:
        root = _mutating_call(call)
        if root is not None:
            self._frames[-1][1].add(root)

    def assigned(self, stmt: ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete) -> None:
        self._frames[-1][1].update(_changed_by_targets(stmt))


def forget_object(name: str, env: Env) -> None:
    """``name``'s object changed in place: it, and every other name bound to the same object,
    is unknown now."""
    value = env.get(name, UNKNOWN)
    env[name] = UNKNOWN
    forget_aliases(value, name, env)


def forget_aliases(value: Value, name: str, env: Env) -> None:
    """Every other name bound to ``value``'s object (a list, a tensor) is unknown now."""
    if isinstance(value, (tuple, HostTensor)):
        for other, v in env.items():
            if v is value and other != name:
                env[other] = UNKNOWN
