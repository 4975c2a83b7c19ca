"""Where a source file binds names, from one walk of its syntax tree: what the module, or one
function with its nested scopes, may bind again, and which names it stores (for the source
rewrite's constants: :mod:`module_constants`, :mod:`local_constants`)."""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Callable
from typing import Final, TypeVar

from ..ast_fields import FIELDS_BY_TYPE, child_fields

_E = TypeVar("_E")
_NAMESPACE_CALLS: Final = frozenset({"globals", "vars", "exec"})  # may write any module name
_FUNCTIONS: Final = (ast.FunctionDef, ast.AsyncFunctionDef)
# Match-statement captures (3.10+): MatchAs/MatchStar name, MatchMapping rest.
_MATCH_CAPTURES: Final = tuple(getattr(ast, n) for n in ("MatchAs", "MatchStar", "MatchMapping") if hasattr(ast, n))


# What the walk records of a node type, besides the node itself (most types: nothing).
_NAME, _ATTRIBUTE, _CALL, _PARAMETER, _IMPORT, _DEFINITION, _HANDLER, _DECLARATION, _CAPTURE = range(9)
_EVENT_OF: Final[dict[type, int]] = {
    ast.Name: _NAME, ast.Attribute: _ATTRIBUTE, ast.Call: _CALL, ast.arg: _PARAMETER,
    ast.Import: _IMPORT, ast.ImportFrom: _IMPORT, ast.FunctionDef: _DEFINITION, ast.AsyncFunctionDef: _DEFINITION,
    ast.ClassDef: _DEFINITION, ast.ExceptHandler: _HANDLER, ast.Global: _DECLARATION, ast.Nonlocal: _DECLARATION,
    **{t: _CAPTURE for t in _MATCH_CAPTURES},
}


class Walk:
    """Every node of ``tree`` but expression contexts, depth first, so that each function's own
    subtree is one slice (:meth:`scope`); the binding events, with their position; and the imports
    and definitions (:attr:`definitions`). One loop: it runs on every pypto file mypy parses."""

    def __init__(self, tree: ast.AST) -> None:
        self.nodes: list[ast.AST] = []
        # The imports, classes and functions, in node order (what the module's pypto spellings and
        # its kernels are read from).
        self.definitions: list[ast.AST] = []
        self._ranges: dict[int, tuple[int, int]] = {}  # id(function) -> its slice of nodes
        self._binds: list[tuple[int, str]] = []  # each binding of a name (global/nonlocal count twice)
        self._attrs: list[tuple[int, str]] = []  # X.NAME = ..., setattr(X, "NAME", ...)
        self._stores: list[tuple[int, str]] = []  # names stored and parameters
        self._wild: list[int] = []  # anything may be bound: from m import *, globals(), vars(), exec
        self.called: set[str] = set()  # the names called (``f(...)``, not ``m.f(...)``)
        self.calls: list[ast.Call] = []  # every call, in node order
        binds, stores, load = self._binds, self._stores, ast.Load
        stack: list[object] = [tree]
        nodes, event_of, fields_of = self.nodes, _EVENT_OF, FIELDS_BY_TYPE
        while stack:
            item = stack.pop()
            t = type(item)
            kind = event_of.get(t)
            if kind == _NAME:  # the commonest node first (it has no child node)
                if type(item.ctx) is not load:  # type: ignore[attr-defined]
                    binds.append((len(nodes), item.id))  # type: ignore[attr-defined]
                    stores.append((len(nodes), item.id))  # type: ignore[attr-defined]
                nodes.append(item)  # type: ignore[arg-type]
                continue
            fields = fields_of.get(t)
            if fields is None:
                if t is tuple:  # the end of a function's subtree
                    self._ranges[id(item[0])] = (item[1], len(nodes))  # type: ignore[index]
                    continue
                if not isinstance(item, ast.AST):
                    continue  # (None in a list field: a keyword-only parameter without a default)
                fields = child_fields(item)
            if t is ast.FunctionDef or t is ast.AsyncFunctionDef:
                stack.append((item, len(nodes)))
            if kind is not None:
                self._event(kind, len(nodes), item)  # type: ignore[arg-type]
            nodes.append(item)  # type: ignore[arg-type]
            for field in fields:
                value = getattr(item, field, None)
                if type(value) is list:
                    stack.extend(value)
                elif isinstance(value, ast.AST):
                    stack.append(value)

    def calls_a_decorated_function(self, tree: ast.Module) -> bool:
        """Does the module call a function it decorates by its name, or decorate a function inside
        another? (Where a module may call its own kernels: its host evaluation can use this parse.)"""
        top = {id(stmt) for stmt in tree.body}
        for node in self.definitions:
            if isinstance(node, _FUNCTIONS) and node.decorator_list and (node.name in self.called or id(node) not in top):
                return True
        return False

    def bindings(self) -> tuple[list[tuple[ast.AST, str]], set[str]] | None:
        """Each binding of a name with the node that binds it (a ``global`` or ``nonlocal`` one
        counts twice), and the attributes the module sets; None when anything may be bound."""
        if self._wild:
            return None
        return [(self.nodes[i], name) for i, name in self._binds], {name for _, name in self._attrs}

    def scope(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int]:
        """``func``'s slice of :attr:`nodes` (the function itself first)."""
        return self._ranges[id(func)]

    def _event(self, kind: int, i: int, node: ast.AST) -> None:
        binds = self._binds
        if kind == _ATTRIBUTE:
            assert isinstance(node, ast.Attribute)
            if not isinstance(node.ctx, ast.Load):
                self._attrs.append((i, node.attr))
        elif kind == _CALL:
            assert isinstance(node, ast.Call)
            self._call(i, node)
        elif kind == _PARAMETER:
            assert isinstance(node, ast.arg)
            binds.append((i, node.arg))
            self._stores.append((i, node.arg))
        elif kind == _IMPORT:
            assert isinstance(node, (ast.Import, ast.ImportFrom))
            self.definitions.append(node)
            for alias in node.names:
                if alias.name == "*":
                    self._wild.append(i)
                else:
                    binds.append((i, (alias.asname or alias.name).split(".")[0]))
        elif kind == _DEFINITION:
            assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            self.definitions.append(node)
            binds.append((i, node.name))
        elif kind == _HANDLER:
            assert isinstance(node, ast.ExceptHandler)
            if node.name:
                binds.append((i, node.name))
        elif kind == _DECLARATION:
            assert isinstance(node, (ast.Global, ast.Nonlocal))
            for name in node.names:
                binds += ((i, name), (i, name))
        else:
            for field in ("name", "rest"):
                value = getattr(node, field, None)
                if isinstance(value, str):
                    binds.append((i, value))

    def _call(self, i: int, node: ast.Call) -> None:
        self.calls.append(node)
        if not isinstance(node.func, ast.Name):
            return
        self.called.add(node.func.id)
        if node.func.id in _NAMESPACE_CALLS:
            self._wild.append(i)
        elif node.func.id == "setattr":
            # setattr(module, "ROWS", 4); a computed name (setattr(obj, f.name, v)) is taken as
            # an object's attribute, as mypy itself does.
            written = node.args[1] if len(node.args) > 1 else None
            if isinstance(written, ast.Constant) and isinstance(written.value, str):
                self._attrs.append((i, written.value))

    def rebindable(self, start: int = 0, end: int | None = None) -> set[str] | None:
        """Names that something in ``nodes[start:end]`` may bind again (a second binding, ``del``,
        ``X.NAME = ...``, ``global`` ...); None when anything can be (see ``_wild``)."""
        stop = len(self.nodes) if end is None else end
        if _within(self._wild, start, stop, lambda i: i):
            return None
        seen: dict[str, int] = {}
        for _, name in _within(self._binds, start, stop, _position):
            seen[name] = seen.get(name, 0) + 1
        return {name for name, n in seen.items() if n > 1} | {a for _, a in _within(self._attrs, start, stop, _position)}

    def stored(self, start: int, end: int) -> set[str]:
        """Names stored or declared as parameters in ``nodes[start:end]``."""
        return {name for _, name in _within(self._stores, start, end, _position)}


def _position(event: tuple[int, str]) -> int:
    return event[0]


def _within(events: list[_E], start: int, stop: int, position: Callable[[_E], int]) -> list[_E]:
    """The events at positions [start, stop): each list is in node order, so a slice (one
    function of many is then not a scan of the whole module's events)."""
    return events[bisect_left(events, start, key=position):bisect_left(events, stop, key=position)]
