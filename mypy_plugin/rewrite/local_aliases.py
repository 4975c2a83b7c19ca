"""Shapes and dims a kernel factory names before it defines the kernel, for the source rewrite:
``query_shape = [t, nqk, d]`` then ``def kernel(query: pypto.Tensor(query_shape, DT))``, or
``t = pypto.DYNAMIC`` then ``pypto.Tensor([t, 64], DT)``. The annotation is evaluated where the
``def`` runs, so a name the factory binds once, by a plain statement of its own body before the
``def``, and never changes afterwards, stands for its value there.

A list is an object: any attribute of the name (``shape.append``), a store or ``del`` of one of
its items, or a ``global``/``nonlocal`` of it anywhere in the factory disqualifies it. A name the
display reads must not be bound again after the display (the list holds the earlier value)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from ..ast_fields import all_nodes, children, dotted

_FUNCTIONS: Final = (ast.FunctionDef, ast.AsyncFunctionDef)


class EnclosingAliases:
    """The aliases of one function (its own body's statements), looked up by the annotations of
    the functions it defines. Computed on first lookup: most functions define no kernel."""

    def __init__(self, func: ast.FunctionDef | ast.AsyncFunctionDef, outer: EnclosingAliases | None) -> None:
        self.func = func
        self.outer = outer
        self._aliases: dict[str, tuple[int, ast.expr]] | None = None
        self._bound: set[str] = set()

    def lookup(self, name: str, line: int) -> tuple[bool, ast.expr | None]:
        """(whether this function or one around it binds ``name``, so that no module constant of
        that name is meant; what it stands for in an annotation of a ``def`` at ``line``, when it
        is an alias)."""
        if self._aliases is None:
            scope = _scan(self.func)
            self._aliases = _aliases(self.func, scope)
            self._bound = set(scope.stores) | scope.declared
        found = self._aliases.get(name)
        if found is not None:
            return True, (found[1] if found[0] < line else None)
        if name in self._bound:
            return True, None
        if self.outer is not None:
            return self.outer.lookup(name, self.func.lineno)
        return False, None


@dataclass
class _Scope:
    stores: dict[str, list[ast.AST]] = field(default_factory=dict)  # each binding in the function's own scope
    declared: set[str] = field(default_factory=set)  # ``global`` / ``nonlocal`` names, nested scopes too
    used_as_object: set[str] = field(default_factory=set)  # ``x.attr``, ``x[i] = ...``, nested scopes too


def _subtree(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of the function's own scope: a nested function, lambda or class is yielded but
    not entered (its names are its own; a ``nonlocal`` in it is found by :func:`_scan`)."""
    stack: list[ast.AST] = list(reversed(func.body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _FUNCTIONS + (ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(reversed(children(node)))


def _scan(func: ast.FunctionDef | ast.AsyncFunctionDef) -> _Scope:
    """What the function binds in its own scope, and which names anything inside it, nested scopes
    included, declares ``global``/``nonlocal`` or uses as an object (a list there may be the
    factory's: ``shape.append``, ``shape[0] = n``)."""
    scope = _Scope()
    a = func.args
    for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
        if p is not None:
            scope.stores.setdefault(p.arg, []).append(p)
    for node in _subtree(func):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            scope.stores.setdefault(node.id, []).append(node)
        elif isinstance(node, _FUNCTIONS + (ast.ClassDef, ast.ExceptHandler)) and getattr(node, "name", None):
            scope.stores.setdefault(str(node.name), []).append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for imported in node.names:
                scope.stores.setdefault((imported.asname or imported.name).split(".")[0], []).append(node)
    for stmt in func.body:
        for node in all_nodes(stmt):
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                scope.declared.update(node.names)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                scope.used_as_object.add(node.value.id)
            elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name):
                scope.used_as_object.add(node.value.id)
    return scope


def _aliases(func: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope) -> dict[str, tuple[int, ast.expr]]:
    unsafe = scope.used_as_object | scope.declared
    top = _top_targets(func)
    found: dict[str, tuple[int, ast.expr]] = {}
    for stmt in func.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        name = stmt.targets[0].id
        if stmt.type_comment is not None or len(scope.stores.get(name, [])) != 1 or name in unsafe:
            continue
        value = stmt.value
        if isinstance(value, (ast.List, ast.Tuple)):
            if any(isinstance(e, ast.Starred) for e in value.elts) or not _reads_settled(value, stmt, scope.stores,
                                                                                         unsafe, top):
                continue
        elif not (isinstance(value, ast.Attribute) and dotted(value) is not None):  # ``t = pypto.DYNAMIC``
            continue
        found[name] = (stmt.lineno, value)
    return found


def _top_targets(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
    """The names bound by plain assignments of the function's own body (not in a branch, a loop
    or a nested function: those may not have run, or run later)."""
    out: set[int] = set()
    for stmt in func.body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            targets = [stmt.target]
        for t in targets:
            out.update(id(n) for n in ast.walk(t) if isinstance(n, ast.Name))
    return out


def _reads_settled(value: ast.expr, stmt: ast.stmt, stores: dict[str, list[ast.AST]],
                   used_as_object: set[str], top: set[int]) -> bool:
    """Every name the display reads holds, wherever the function binds it, the value it had when
    the display was built: bound only by parameters and earlier plain statements of the body."""
    # (the head of an attribute, ``cfg.head_dim``: that item stays text the type hook does not
    # read, whatever cfg holds; the list's rank is all the inlining gives)
    heads = {id(a.value) for a in ast.walk(value) if isinstance(a, ast.Attribute)}
    for n in ast.walk(value):
        if not isinstance(n, ast.Name):
            continue
        if n.id in used_as_object and id(n) not in heads:
            return False
        for bound in stores.get(n.id, []):
            if isinstance(bound, ast.arg):
                continue  # a parameter: bound before the body runs
            if id(bound) not in top or getattr(bound, "lineno", stmt.lineno) >= stmt.lineno:
                return False
    return True
