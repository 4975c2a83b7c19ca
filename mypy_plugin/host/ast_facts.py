"""Facts about a module's syntax the host walker needs: kernel factories, the names a block binds."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence

from ..ast_fields import all_nodes
from ..knowledge.frontend import names_jit


def is_jit(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A ``...jit`` decorator: the function is a kernel (device code)."""
    return any(names_jit(d) for d in func.decorator_list)


def factory_kernel(func: ast.FunctionDef) -> str | None:
    """The jit kernel a function defines and returns (``return kernel``), if any."""
    kernels: set[str] = set()
    returned: list[str] = []
    for node in all_nodes(func):
        if isinstance(node, ast.FunctionDef) and node is not func and any(names_jit(d) for d in node.decorator_list):
            kernels.add(node.name)
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Name):
            returned.append(node.value.id)
    return next((name for name in returned if name in kernels), None)


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


class StoredNames:
    """:func:`stored_names` of one statement, computed once per module walk: nested branches and
    loops, each item of a constant loop and each walk of a helper ask again."""

    def __init__(self) -> None:
        self._of: dict[int, set[str]] = {}  # id(statement): the tree outlives the walk

    def __call__(self, stmt: ast.stmt) -> set[str]:
        names = self._of.get(id(stmt))
        if names is None:
            names = self._of[id(stmt)] = stored_names([stmt])
        return names


def bound_names(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, (ast.Global, ast.Nonlocal)):
        yield from stmt.names
    elif isinstance(stmt, ast.Delete):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                yield target.id


def attribute_kernels(values: dict[str, set[str | None]], kernel_name: Callable[[ast.expr], str | None]
                      ) -> dict[str, str]:
    """Attributes every assignment of the module sets to one and the same kernel
    (``self.kernel = k``; ``values``: the module scan's ``attribute_values``): a call of
    ``obj.kernel(...)`` calls that kernel."""
    held = {attr: {kernel_name(ast.Name(n)) if n is not None else None for n in names}
            for attr, names in values.items()}
    return {attr: k for attr, kernels in held.items() if len(kernels) == 1 for k in kernels if k is not None}
