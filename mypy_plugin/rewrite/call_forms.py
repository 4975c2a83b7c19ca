"""What the calls of a module may call, from the source rewrite's walk (:mod:`name_bindings`):
enough for the host evaluation to know, without parsing the module again, that none of its calls
can be a jit kernel's (a kernel module whose kernels are called elsewhere, the common case).

The host evaluator records a call site only where the callee is a name or ``m.f`` that mypy's
symbol tables say is a kernel, an attribute the module sets to a kernel (``self.kernel = k``), or
an expression whose value is a kernel (a variable, a parameter, a factory's result, a partial).
So a module none of whose calls has a callee of the last two kinds has a site only where a called
name or ``m.f`` is a kernel, which the host evaluation asks mypy (:func:`may_call_a_kernel`)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from ..ast_fields import dotted, from_dotted
from ..knowledge.frontend import names_jit
from .name_bindings import Walk


@dataclass(frozen=True)
class CallForms:
    names: frozenset[str]  # the names called (``f(...)``): each bound by nothing but defs, classes, imports
    attributes: frozenset[tuple[str, ...]]  # (``m``, ``f``) of each ``m.f(...)``, (``pkg``, ``m``, ``f``) ...


def call_forms(walk: Walk) -> CallForms | None:
    """None when a call may call a value: a callee that is neither a name nor an attribute, a name
    that something binds to a value (an assignment, a parameter, a loop or ``with`` target, a
    ``global``, a jit kernel's ``def``), an attribute the module sets, or a module that may bind
    any name (a star import, ``globals()``)."""
    found = walk.bindings()
    if found is None:
        return None
    binds, set_attributes = found
    valued = {name for node, name in binds if not _binds_no_value(node)}
    names: set[str] = set()
    attributes: set[tuple[str, ...]] = set()
    for call in walk.calls:
        func = call.func
        if type(func) is ast.Name:
            if func.id in valued:
                return None
            names.add(func.id)
        elif type(func) is ast.Attribute:
            if func.attr in set_attributes:
                return None
            path = dotted(func)
            if path is not None:
                attributes.add(tuple(path.split(".")))
        else:
            return None
    return CallForms(frozenset(names), frozenset(attributes))


def _binds_no_value(node: ast.AST) -> bool:
    """A binding the host evaluator never makes a kernel value: an import, a class, or a def that
    is not a jit kernel (mypy's view of the name is asked separately)."""
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.ClassDef)):
        return True
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return not any(names_jit(d) for d in node.decorator_list)
    return False


def may_call_a_kernel(forms: CallForms, kernel_name: Callable[[ast.expr], str | None]) -> bool:
    """Can a call of the module be a kernel's (``kernel_name``: the host evaluation's namer)?"""
    return any(kernel_name(ast.Name(name)) is not None for name in forms.names) or any(
        kernel_name(from_dotted(".".join(path))) is not None for path in forms.attributes)
