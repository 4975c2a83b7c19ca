"""The child fields of a Python ``ast`` node type, expression contexts left out (a ``ctx`` is a
marker with no children): read once per node type, for the walks that run on every pypto file."""

from __future__ import annotations

import ast

_fields: dict[type, tuple[str, ...]] = {}


def child_fields(node: ast.AST) -> tuple[str, ...]:
    fields = _fields.get(type(node))
    if fields is None:
        fields = _fields[type(node)] = tuple(f for f in node._fields if f != "ctx")
    return fields
