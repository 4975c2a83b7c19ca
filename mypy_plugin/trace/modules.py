"""A traced module: its source, tree and top-level names.

A top-level name holds a value only when one unconditional statement binds it, and nothing else
does (no second binding, no ``global`` in a function, no star import): an import, a function, or
an assignment the tracer can evaluate (ints, floats, strings, dtypes, tuples and lists of them).
Anything else is unknown. Names imported from other modules of the program stay
:class:`Imported` until the tracer asks its loader for that module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from .values import UNKNOWN, Class, Func, ModuleRef, Ref, Value

# Modules the tracer never enters (their names are references, read by name).
_LIBRARIES = ("pypto", "torch", "numpy", "math", "typing", "builtins", "os", "sys", "functools", "dataclasses")


@dataclass(frozen=True)
class Imported:
    """``from <module> import <name>`` of a module of the program (resolved by the loader)."""

    module: str
    name: str


def _is_library(module: str) -> bool:
    return module.split(".")[0] in _LIBRARIES


@dataclass
class TracedModule:
    name: str  # its module name ("pkg.common")
    path: str
    text: str
    tree: ast.Module
    is_package: bool = False
    digest: str = ""  # of ``text``: what a result read from this module depends on
    _bindings: dict[str, ast.stmt | ast.alias] = field(default_factory=dict)
    _values: dict[str, Value | Imported] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)

    def __post_init__(self) -> None:
        counts: dict[str, int] = {}
        plain_imports: set[str] = set()  # ``import pypto`` and ``import pypto.frontend`` bind one module
        for stmt in self.tree.body:
            for name, binding in _bindings(stmt):
                if isinstance(stmt, ast.Import) and isinstance(binding, ast.alias) and binding.asname is None:
                    if name in plain_imports:
                        continue
                    plain_imports.add(name)
                counts[name] = counts.get(name, 0) + 1
                self._bindings[name] = binding
        declared_global, star = _walk_facts(self.tree)
        for name in _conditionally_bound(self.tree, ":=" in self.text) | declared_global:
            counts[name] = counts.get(name, 0) + 2
        if star:
            self._bindings.clear()  # a star import may bind any name
            return
        for name, n in counts.items():
            if n != 1:
                self._bindings.pop(name, None)
        for name, binding in self._bindings.items():
            if isinstance(binding, ast.FunctionDef):
                self.functions[name] = binding
            elif isinstance(binding, ast.ClassDef):
                self.classes[name] = binding
                for item in binding.body:  # methods, as "Class.method"
                    if isinstance(item, ast.FunctionDef):
                        self.functions[f"{name}.{item.name}"] = item

    def resolve(self, module: str | None, level: int) -> str:
        """The absolute name of a (relative) import's module."""
        if not level:
            return module or ""
        parts = self.name.split(".") if self.is_package else self.name.split(".")[:-1]
        parts = parts[:len(parts) - (level - 1)] if level > 1 else parts
        return ".".join([*parts, *([module] if module else [])])

    def binding(self, name: str) -> ast.stmt | ast.alias | None:
        return self._bindings.get(name)

    def bound(self, name: str) -> bool:
        return name in self._bindings

    def import_value(self, name: str) -> Value | Imported | None:
        """What an import statement binds ``name`` to (None: not an import)."""
        binding = self._bindings.get(name)
        if not isinstance(binding, ast.alias):
            return None
        stmt = _import_of(self.tree, binding)
        if isinstance(stmt, ast.Import):
            if binding.asname is None:
                top = binding.name.split(".")[0]
                return Ref(top) if _is_library(top) else ModuleRef(top)
            return Ref(binding.name) if _is_library(binding.name) else ModuleRef(binding.name)
        if isinstance(stmt, ast.ImportFrom):
            base = self.resolve(stmt.module, stmt.level)
            if _is_library(base) and not stmt.level:
                return Ref(f"{base}.{binding.name}")
            return Imported(base, binding.name)
        return UNKNOWN

    def function(self, name: str) -> Func | Class | None:
        if name in self.classes:
            return Class(self.name, name)
        return Func(self.name, name) if name in self.functions else None


def _import_of(tree: ast.Module, alias: ast.alias) -> ast.stmt | None:
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) and any(a is alias for a in stmt.names):
            return stmt
    return None


def _bindings(stmt: ast.stmt) -> Iterator[tuple[str, ast.stmt | ast.alias]]:
    """The names one unconditional top-level statement binds, each with what binds it."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            if alias.name != "*":
                yield (alias.asname or alias.name).split(".")[0], alias
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name, stmt
    elif isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            for name in _target_names(target):
                yield name, stmt
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(stmt.target, ast.Name):
        yield stmt.target.id, stmt
    elif isinstance(stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
        return  # conditionally_bound counts these
    else:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                yield node.id, stmt


def _target_names(target: ast.expr) -> Iterator[str]:
    if type(target) is ast.Name:  # (the common target: no walk)
        if type(target.ctx) is ast.Store:
            yield target.id
        return
    for node in ast.walk(target):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id


def _conditionally_bound(tree: ast.Module, walrus: bool = True) -> set[str]:
    """Names bound inside top-level compound statements (``if``, ``try``, loops, ``with``), and
    by walruses anywhere at top level (``walrus``: the text may hold one)."""
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)):
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(node.name)
                elif isinstance(node, ast.alias):
                    names.add((node.asname or node.name).split(".")[0])
        elif walrus and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.update(n.target.id for n in ast.walk(stmt)
                         if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name))
    return names


def _walk_facts(tree: ast.Module) -> tuple[set[str], bool]:
    """One walk of the module's statements (no expression holds one): the names functions declare
    ``global``, and whether the module has a star import."""
    names: set[str] = set()
    star = False
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global):
            names.update(node.names)
        elif isinstance(node, ast.ImportFrom):
            star = star or any(a.name == "*" for a in node.names)
        else:
            for field in _BLOCK_FIELDS:
                block = getattr(node, field, None)
                if block:
                    stack.extend(block)
    return names, star


# the fields that hold statements (``handlers`` and ``cases`` hold nodes that have a ``body``)
_BLOCK_FIELDS: Final = ("body", "orelse", "finalbody", "handlers", "cases")
