"""Statements that change an object in place (``shape[0] = 1``, ``dims.pop()``, ``x.unsqueeze_(0)``):
the evaluator's values are snapshots, so every name bound to such an object becomes unknown."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Final

from .values import ListVal, Value

# List / dict / set methods that change the object.
CONTAINER_MUTATORS: Final = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update", "setdefault",
    "popitem", "add", "discard", "__setitem__", "__delitem__", "__iadd__", "__imul__",
})
# In-place tensor methods that keep the shape, the dtype and the strides (any other ``name_``
# method may change them: resize_, unsqueeze_, t_, transpose_, as_strided_, set_ ...).
KEEPING_INPLACE: Final = frozenset({
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
                                               and name not in KEEPING_INPLACE)
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


def mutating_root(call: ast.Call) -> str | None:
    """The name whose object this call changes in place (``x.append``, ``x.a.pop``, ``t.unsqueeze_``)."""
    return _mutating_call(call)


def follow_list(items: tuple[Value, ...], method: str, args: list[Value], kwargs: dict[str, Value]
                ) -> tuple[tuple[Value, ...], Value] | None:
    """A list change the evaluator follows exactly: (the new items, what the call returns); None
    for any other change (the list is then unknown)."""
    if kwargs:
        return None
    if method == "append" and len(args) == 1:
        return (*items, args[0]), None
    if method == "extend" and len(args) == 1 and isinstance(args[0], tuple):
        return items + args[0], None
    if method == "insert" and len(args) == 2 and type(args[0]) is int:
        new = list(items)
        new.insert(args[0], args[1])
        return tuple(new), None
    if method == "pop" and items and (not args or len(args) == 1 and type(args[0]) is int
                                      and -len(items) <= args[0] < len(items)):
        new = list(items)
        popped = new.pop(args[0] if args and type(args[0]) is int else -1)
        return tuple(new), popped
    if method == "clear" and not args:
        return (), None
    if method == "reverse" and not args:
        return tuple(reversed(items)), None
    if method == "copy" and not args:
        return items, ListVal(items)
    return None


class ChangedElsewhere:
    """Names a function changes in place without binding them itself: objects of an enclosing
    scope (module constants, closure lists). Their values are unknown everywhere: when a caller
    sees the change is not followed. Fed by the module scan's one walk (:func:`module_facts.scan`):
    ``enter`` at a function or lambda, then inside it ``bound`` for each name stored, ``called``
    for each call and ``assigned`` for each assignment or ``del``, ``leave`` after its last node."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        # module-level function -> the positions and names of the parameters it changes in place
        self.changes_params: dict[str, tuple[frozenset[int], frozenset[str]]] = {}
        # (names the function binds, names whose objects it changes, the function), innermost last
        self._frames: list[tuple[set[str], set[str], ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda]] = []

    def enter(self, func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        args = func.args
        self._frames.append(({a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}, set(), func))

    def declared(self, stmt: ast.Global | ast.Nonlocal) -> None:
        """``global N`` / ``nonlocal n``: an assignment in the function rebinds the outer name."""
        self.names.update(stmt.names)

    @property
    def inside(self) -> bool:
        """In a function or lambda (nothing outside one is recorded)."""
        return bool(self._frames)

    def leave(self) -> None:
        own, changed, func = self._frames.pop()
        self.names.update(changed - own)
        if not self._frames and not isinstance(func, ast.Lambda):
            params = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
            names = changed & {*params, *(a.arg for a in func.args.kwonlyargs)}
            if names:
                self.changes_params[func.name] = (frozenset(i for i, p in enumerate(params) if p in names),
                                                  frozenset(names))

    def bound(self, name: str) -> None:
        self._frames[-1][0].add(name)

    def called(self, call: ast.Call) -> None:
        root = _mutating_call(call)
        if root is not None:
            self._frames[-1][1].add(root)

    def assigned(self, stmt: ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete) -> None:
        self._frames[-1][1].update(_changed_by_targets(stmt))
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            self._frames[-1][1].add(stmt.target.id)  # ``xs += [1]`` extends a list in place
