"""The lines of a file that run in a kernel's trace: each jit kernel and ``@pypto.frontend.function``
helper (decorators and signature included), and the functions of the file they call, at any depth.
A name they read that is not defined is a NameError at trace time on 0.2.0 (signal first shows it)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from ..knowledge.frontend import names_jit

_Def = ast.FunctionDef | ast.AsyncFunctionDef


def _is_helper_decorator(d: ast.expr) -> bool:
    """``@pypto.frontend.function`` / ``@frontend.function(...)``."""
    target = d.func if isinstance(d, ast.Call) else d
    return (isinstance(target, ast.Attribute) and target.attr == "function"
            and isinstance(target.value, ast.Attribute) and target.value.attr == "frontend")


def _defs(tree: ast.AST) -> Iterator[_Def]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _called_names(func: _Def) -> set[str]:
    return {n.func.id for n in ast.walk(func) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def traced_spans(source: str) -> list[tuple[int, int]]:
    """(first line, last line) of every function that runs in a kernel's trace; [] when the
    source does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    by_name: dict[str, list[_Def]] = {}
    roots: list[_Def] = []
    for d in _defs(tree):
        by_name.setdefault(d.name, []).append(d)
        if any(names_jit(x) or _is_helper_decorator(x) for x in d.decorator_list):
            roots.append(d)
    seen: set[int] = set()
    todo = list(roots)
    spans: list[tuple[int, int]] = []
    while todo:
        d = todo.pop()
        if id(d) in seen:
            continue
        seen.add(id(d))
        first = min([d.lineno, *(x.lineno for x in d.decorator_list)])
        spans.append((first, d.end_lineno or d.lineno))
        for name in _called_names(d):
            todo.extend(by_name.get(name, ()))
    return sorted(spans)


class TracedLines:
    """:func:`traced_spans` of the checked files, read once each through ``read`` (a path as mypy
    printed it -> the file's text)."""

    def __init__(self, read: Callable[[str], str]) -> None:
        self._read = read
        self._cache: dict[str, list[tuple[int, int]]] = {}

    def __call__(self, path: str, line: int) -> bool:
        if path not in self._cache:
            self._cache[path] = traced_spans(self._read(path))
        return any(a <= line <= b for a, b in self._cache[path])
