"""source_segment gives what ast.get_source_segment gives, for every node of sources with each kind
of line break, a form feed, non-ASCII text and expressions over several lines."""

from __future__ import annotations

import ast

import pytest

from mypy_plugin.trace.source_segment import source_segment

SOURCES = [
    "x = pypto.matmul(a, b, pypto.DT_FP32)\n",
    "def k(a, b):\n    c = pypto.matmul(\n        a * 2,\n        b)\n    return c\n",
    "a = 1\r\nb = f(a,\r\n      2)\r\n",
    "a = 1\rb = (a +\r 2)\r",
    "a = 1\n\x0cb = 2\nc = [a,\n b]",  # a form feed is not a line break; no break at the end
    "s = 'é€' + t\nu = g('ü',\n      v)\n",
]


@pytest.mark.parametrize("source", SOURCES)
def test_every_node_gives_what_ast_gives(source: str) -> None:
    tree = ast.parse(source)
    nodes = [n for n in ast.walk(tree) if hasattr(n, "lineno")]
    assert len(nodes) > 3
    for node in nodes:
        assert source_segment(source, node) == ast.get_source_segment(source, node), ast.dump(node)


def test_a_node_without_a_place_has_no_text() -> None:
    assert source_segment("x = 1\n", ast.Name("x")) is None
