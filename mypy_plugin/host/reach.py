"""Which functions of a module the host evaluator walks on their own: those that may reach a kernel
call (issue 37: most host functions call none). From the module scan's references of each
top-level statement and method (:mod:`module_facts`), a fixpoint: a unit reaches a kernel when it
names a kernel (module-level, imported, nested, made by a factory, held in an attribute), or a
name that a reaching unit binds, or a function that changes its parameters in place, or passes a
module-level name to an object's method (the walk of it makes that object unknown for the others,
as a run of it may change it)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterable, Mapping

from ..ast_fields import all_nodes, from_dotted
from .module_facts import ModuleFacts


def _kernel_names(names: Iterable[str], kernel_name: Callable[[ast.expr], str | None]) -> set[str]:
    """The names (``k``, ``mod.k``, ``pkg.mod.k``) that the module's symbol table says are jit kernels."""
    found: set[str] = set()
    for text in names:
        if not text.startswith(".") and kernel_name(from_dotted(text)) is not None:
            found.add(text)
    return found


def _binds(stmt: ast.stmt) -> set[str]:
    """What a module-level statement may bind or change: stored names, the roots of subscript and
    attribute targets, the receivers of method calls (``KERNELS[n] = make(n)``, ``KS.update(...)``)."""
    out: set[str] = set()
    for node in all_nodes(stmt):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and not isinstance(node.ctx, ast.Load) \
                or isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            root = node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else node
            while isinstance(root, (ast.Subscript, ast.Attribute)):
                root = root.value
            if isinstance(root, ast.Name):
                out.add(root.id)
    return out


def reaching(tree: ast.Module, facts: ModuleFacts, kernel_name: Callable[[ast.expr], str | None],
             known: Collection[str], attributes: Collection[str], module_names: Collection[str],
             safe_receivers: Collection[str]) -> set[int]:
    """ids of the units that may reach a kernel call (a unit's references: names, ``.attr`` and
    ``a.b``). ``known``: other names that hold kernels (factories); ``attributes``: attributes
    that hold one (``self.kernel``); ``module_names``: the names the module's top level binds;
    ``safe_receivers``: names whose methods change no argument (torch, pypto, imported modules)."""
    units: Mapping[int, set[str]] = facts.refs
    names: set[str] = set()
    for refs in units.values():
        names |= refs
    wanted = _kernel_names(names, kernel_name) | set(facts.nested_kernels) | set(known) | set(facts.changes_params) \
        | {"." + attr for attr in attributes}
    stmts = _units(tree)
    top = {id(stmt) for stmt in tree.body}
    out: set[int] = set()
    changed = True
    while changed:
        changed = False
        for unit, refs in units.items():
            if unit in out or unit not in stmts:
                continue
            passed = facts.passed.get(unit, set())
            if refs & wanted or any(arg in module_names and head not in safe_receivers for head, arg in passed):
                out.add(unit)
                stmt = stmts[unit]
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    wanted.add(stmt.name if id(stmt) in top else "." + stmt.name)  # a method: called as an attribute
                else:
                    wanted |= _binds(stmt)
                changed = True
    return out


def _units(tree: ast.Module) -> dict[int, ast.stmt]:
    """The units by id: top-level statements, and the defs and classes in the body of a unit that
    is a class (a method binds its name: it is called as an attribute)."""
    out: dict[int, ast.stmt] = {}
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        stmt = todo.pop()
        out[id(stmt)] = stmt
        if isinstance(stmt, ast.ClassDef):
            todo.extend(s for s in stmt.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    return out
