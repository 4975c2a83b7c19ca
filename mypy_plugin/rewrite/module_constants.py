"""Module-level constants of a PyPTO source file, read with :mod:`ast` (no mypy here)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Final

from ..ast_fields import all_nodes, child_fields
from ..knowledge.arith import int_of_ast
from .name_bindings import Walk

_MAX_DEPTH: Final = 8
# PEP 8 constant names: the only ones the rewrite declares Final.
_CONSTANT_NAME: Final = re.compile(r"^_?[A-Z][A-Z0-9_]*$")


class ModuleConstants:
    """Names bound exactly once at module level (and never in a function), with their value."""

    def __init__(self, tree: ast.Module, walk: Walk | None = None) -> None:
        """``walk``: the tree's :class:`Walk`, when the caller made one."""
        counts: dict[str, int] = {}
        self.statements: dict[str, ast.Assign | ast.AnnAssign] = {}
        for stmt in tree.body:
            for name in _bound_names(stmt):
                counts[name] = counts.get(name, 0) + 1
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                self.statements[stmt.targets[0].id] = stmt
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                self.statements[stmt.target.id] = stmt
        local = _names_bound_in_functions(tree)
        self._rebindable = (walk if walk is not None else Walk(tree)).rebindable()
        rebound = self._rebindable or set()  # (with a star import, the module's own binding wins)
        self.statements = {
            k: v for k, v in self.statements.items() if counts.get(k) == 1 and k not in local and k not in rebound
        }

    def value(self, name: str) -> ast.expr | None:
        stmt = self.statements.get(name)
        return stmt.value if stmt is not None else None

    def int_value(self, node: ast.expr, depth: int = 0) -> int | None:
        """Fold int literals, constants and + - * // % on them."""
        return int_of_ast(node, self._name_int, depth, _MAX_DEPTH)

    def _name_int(self, node: ast.expr, depth: int) -> int | None:
        bound = self.value(node.id) if isinstance(node, ast.Name) else None
        return self.int_value(bound, depth + 1) if bound is not None else None

    def final_candidates(self) -> list[ast.Assign]:
        """UPPER_CASE constants whose value is an int or a tuple of ints, bound by one plain
        assignment and by nothing else anywhere in the module: safe to make Final here."""
        out: list[ast.Assign] = []
        if self._rebindable is None:
            return out
        for name, stmt in self.statements.items():
            if not isinstance(stmt, ast.Assign) or stmt.type_comment is not None:
                continue
            if not _CONSTANT_NAME.match(name) or name in self._rebindable:
                continue
            v = stmt.value
            if self.int_value(v) is not None or (
                isinstance(v, ast.Tuple) and v.elts and all(self.int_value(e) is not None for e in v.elts)
            ):
                out.append(stmt)
        return sorted(out, key=lambda s: s.lineno)

    def alias(self, name: str) -> ast.expr | None:
        """What a module-level alias stands for: ``HALF = pypto.DT_FP16``, ``_QKG = [...]``."""
        v = self.value(name)
        if isinstance(v, (ast.Attribute, ast.List, ast.Tuple)):
            return v
        return None


_BLOCKS: Final = (ast.If, ast.While, ast.With, ast.Try)


def _bound_names(stmt: ast.stmt) -> Iterator[str]:
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            yield (alias.asname or alias.name).split(".")[0]
    elif isinstance(stmt, _BLOCKS):
        # A name bound inside a branch is not a constant: count it again.
        # (The walk reaches nested blocks itself: their statements are not walked again.)
        for child in all_nodes(stmt):
            if isinstance(child, ast.stmt) and not isinstance(child, _BLOCKS):
                yield from _bound_names(child)
    for t in targets:
        if type(t) is ast.Name:  # (the common target: no walk)
            yield t.id
            continue
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                yield n.id


_COMPOUND: Final = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.ClassDef)


def _names_bound_in_functions(tree: ast.Module) -> set[str]:
    """Parameters, assignment/loop/with targets and ``global`` names in every function: they
    may shadow or rebind a module name. Statements only (comprehension variables are scoped)."""
    names: set[str] = set()
    _visit_bindings(tree.body, False, names)
    return names


# Module-level recursion, not nested functions calling themselves: such a closure is a reference
# cycle, which keeps what it holds alive until mypy's next garbage collection.
def _add_targets(node: ast.expr, names: set[str]) -> None:
    if isinstance(node, ast.Name):
        names.add(node.id)
    elif isinstance(node, (ast.Tuple, ast.List)):
        for e in node.elts:
            _add_targets(e, names)
    elif isinstance(node, ast.Starred):
        _add_targets(node.value, names)


def _visit_bindings(stmts: list[ast.stmt], in_function: bool, names: set[str]) -> None:
    for st in stmts:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = st.args
            names.update(x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x)
            _visit_bindings(st.body, True, names)
            continue
        if in_function:
            if isinstance(st, ast.Assign):
                for t in st.targets:
                    _add_targets(t, names)
            elif isinstance(st, (ast.AnnAssign, ast.AugAssign)):
                _add_targets(st.target, names)
            elif isinstance(st, (ast.For, ast.AsyncFor)):
                _add_targets(st.target, names)
            elif isinstance(st, (ast.With, ast.AsyncWith)):
                for item in st.items:
                    if item.optional_vars is not None:
                        _add_targets(item.optional_vars, names)
            elif isinstance(st, (ast.Global, ast.Nonlocal)):
                names.update(st.names)
        if isinstance(st, _COMPOUND):
            for field in ("body", "orelse", "finalbody"):
                _visit_bindings(getattr(st, field, []), in_function, names)
            for handler in getattr(st, "handlers", []):
                _visit_bindings(handler.body, in_function, names)
