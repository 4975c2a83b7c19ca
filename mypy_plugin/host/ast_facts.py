"""Facts about a module's syntax the host walker needs: kernel factories, the calls of a statement,
the names a block binds."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from ..ast_fields import child_fields
from ..kernels import names_jit
from ..module_constants import all_nodes


def factory_kernel(func: ast.FunctionDef) -> str | None:
    """The jit kernel a function defines and returns (``return kernel``), if any."""
    kernels: set[str] = set()
    returned: list[str] = []
    for node in ast.walk(func):
        if isinstance(node, ast.FunctionDef) and node is not func and any(names_jit(d) for d in node.decorator_list):
            kernels.add(node.name)
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Name):
            returned.append(node.value.id)
    return next((name for name in returned if name in kernels), None)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def calls(node: ast.AST) -> Iterator[ast.Call]:
    """Calls in a statement or expression, outside nested functions, lambdas and comprehensions,
    in source order (``ast.iter_child_nodes`` order, depth first)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current is not node and isinstance(current, _SCOPES):
            continue
        if isinstance(current, ast.Call):
            yield current
        if isinstance(current, ast.stmt) and current is not node:
            continue  # nested statements are walked by the statement walker
        children: list[ast.AST] = []
        for field in child_fields(current):
            value = getattr(current, field, None)
            if type(value) is list:
                children.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                children.append(value)
        children.reverse()
        stack.extend(children)


def stored_names(body: Sequence[ast.stmt]) -> set[str]:
    """Names a block may bind (assignments, loop targets, imports, defs, ``as`` names)."""
    names: set[str] = set()
    for stmt in body:
        for node in all_nodes(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                names.add(node.name)
    return names


def bound_names(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, (ast.Global, ast.Nonlocal)):
        yield from stmt.names
    elif isinstance(stmt, ast.Delete):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                yield target.id
