"""Small pieces around mypy's engine: what mypy and the plugin write to stderr, into the log;
the expressions of a tree, whose exported types the engine keeps; where a file is in the build
graph, and what the open files no longer reach."""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr

from mypy.build import Graph
from mypy.nodes import Expression, MypyFile

from ..kernel.body_walk import expressions, statements


def tree_expressions(tree: MypyFile) -> set[Expression]:
    """The expressions of a module's statements, those of its functions and classes too."""
    return {e for s in statements(tree.defs, into_definitions=True) for e in expressions(s)}


@contextmanager
def quiet(log: Callable[[str], None]) -> Iterator[io.StringIO]:
    """What mypy and the plugin write to stderr goes to the log (stdout carries the protocol)."""
    said = io.StringIO()
    try:
        with redirect_stderr(said):
            yield said
    finally:
        for line in said.getvalue().splitlines():
            if line.strip():
                log(line)


def module_at(graph: Graph, path: str) -> str | None:
    """The module of the build whose file is ``path`` (absolute)."""
    for module, state in graph.items():
        if state.xpath and os.path.abspath(state.xpath) == path:
            return module
    return None


def unreachable(graph: Graph, open_paths: set[str], root: str) -> list[tuple[str, str]]:
    """The project's modules (their files under ``root``, not an installed package's) that the
    open files do not reach through their imports. Installed packages stay: mypy reports no
    errors in them, so they cost no later update, and dropping one costs its dependents."""
    reached: set[str] = set()
    todo = [m for m, state in graph.items() if state.xpath and os.path.abspath(state.xpath) in open_paths]
    while todo:
        module = todo.pop()
        state = graph.get(module)
        if module in reached or state is None:
            continue
        reached.add(module)
        todo += [*state.dependencies, *(state.ancestors or [])]
    inside = os.path.abspath(root) + os.sep
    return [(m, state.xpath) for m, state in graph.items()
            if m not in reached and state.xpath and os.path.abspath(state.xpath).startswith(inside)
            and not any(part in ("site-packages", "dist-packages") for part in state.xpath.split(os.sep))]
