"""Small pieces around mypy's engine: what mypy and the plugin write to stderr, into the log;
the expressions of a tree, whose exported types the engine keeps."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr

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
