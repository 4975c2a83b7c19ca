"""Int constants bound inside a function (``D = 3072``, ``TILE = (8, 64)`` in a kernel or a helper),
read with :mod:`ast` for the source rewrite, which declares their folded value as it does for
module constants. A name qualifies when the function binds it exactly once, by a plain
assignment, and nothing in the function (a nested scope included) can bind it again."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..ast_fields import SIMPLE_STATEMENTS
from ..knowledge.arith import int_of_ast
from .module_constants import ModuleConstants
from .name_bindings import Walk

_MAX_DEPTH = 8


@dataclass(frozen=True)
class LocalConstant:
    stmt: ast.Assign
    values: tuple[int, ...]
    is_tuple: bool


def _own_statements(stmts: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The function's own statements, nested blocks included, nested definitions not."""
    stack = list(reversed(stmts))
    while stack:
        s = stack.pop()
        yield s
        if type(s) in SIMPLE_STATEMENTS or isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        inner: list[ast.stmt] = []
        for field in ("body", "orelse", "finalbody"):
            inner.extend(getattr(s, field, []))
        for h in getattr(s, "handlers", []):
            inner.extend(h.body)
        for case in getattr(s, "cases", []):
            inner.extend(case.body)
        stack.extend(reversed(inner))


class _Folder:
    def __init__(self, consts: ModuleConstants, walk: Walk) -> None:
        self.consts = consts
        self.walk = walk
        self.found: list[LocalConstant] = []

    def function(self, func: ast.FunctionDef | ast.AsyncFunctionDef, outer: Mapping[str, int]) -> None:
        start, end = self.walk.scope(func)
        twice = self.walk.rebindable(start, end)
        if twice is None:
            return  # exec / globals() / a star import inside: anything may be bound
        bound = self.walk.stored(start, end)
        env = {k: v for k, v in outer.items() if k not in bound}  # closure constants not shadowed here
        own = list(_own_statements(func.body))
        for s in own:
            if isinstance(s, ast.Assign) and s.type_comment is None and len(s.targets) == 1:
                target = s.targets[0]
                if isinstance(target, ast.Name) and target.id not in twice:
                    self._constant(s, target.id, env, bound)
        for s in own:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.function(s, env)

    def _constant(self, s: ast.Assign, name: str, env: dict[str, int], bound: set[str]) -> None:
        def name_int(node: ast.expr, depth: int) -> int | None:
            if not isinstance(node, ast.Name):
                return None
            if node.id in env:
                return env[node.id]
            return None if node.id in bound else self.consts.int_value(node, depth + 1)

        value = s.value
        items = value.elts if isinstance(value, ast.Tuple) else [value]
        ints = [int_of_ast(item, name_int, 0, _MAX_DEPTH) for item in items]
        if not ints or any(v is None for v in ints):
            return
        folded = tuple(v for v in ints if v is not None)
        if not isinstance(value, ast.Tuple):
            env[name] = folded[0]
        self.found.append(LocalConstant(s, folded, isinstance(value, ast.Tuple)))


def _uses(nodes: list[ast.AST], names: frozenset[str]) -> bool:
    return any(type(n) is ast.Name and n.id in names for n in nodes)


def local_constants(tree: ast.Module, consts: ModuleConstants, pypto_names: frozenset[str],
                    walk: Walk | None = None) -> list[LocalConstant]:
    """Every qualifying assignment in every function of the module that mentions a name bound by
    importing pypto (kernels, helpers; their nested functions too): other functions keep mypy's
    own answers. ``walk``: the module's, when the caller has it."""
    walk = walk if walk is not None else Walk(tree)
    folder = _Folder(consts, walk)
    for s in _own_statements(tree.body):
        methods = _own_statements(s.body) if isinstance(s, ast.ClassDef) else [s]
        for m in methods:
            if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start, end = walk.scope(m)
                if _uses(walk.nodes[start:end], pypto_names):
                    folder.function(m, {})
    return folder.found
