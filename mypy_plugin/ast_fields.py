"""The child fields of a Python ``ast`` node type, expression contexts left out (a ``ctx`` is a
marker with no children): read once per node type, for the walks that run on every pypto file
(the source rewrite's and the host evaluator's; both are plain ``ast``)."""

from __future__ import annotations

import ast

_fields: dict[type, tuple[str, ...]] = {}


def child_fields(node: ast.AST) -> tuple[str, ...]:
    fields = _fields.get(type(node))
    if fields is None:
        fields = _fields[type(node)] = tuple(f for f in node._fields if f != "ctx")
    return fields


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a name or a chain of attributes on one (``pypto.DT_FP32``, ``kern.norm.norm``);
    None for anything else. A loop, not recursion: a chain may be long."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def from_dotted(text: str) -> ast.expr:
    """The name or attribute chain ``a.b.c`` spells (for a reader that takes a callee's node)."""
    head, *attrs = text.split(".")
    node: ast.expr = ast.Name(head)
    for attr in attrs:
        node = ast.Attribute(node, attr)
    return node


def all_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` but expression contexts (what ``ast.walk`` yields, several times
    faster: no generators; this runs on every file that mentions pypto)."""
    out = [tree]
    i = 0
    while i < len(out):
        node = out[i]
        i += 1
        for field in child_fields(node):
            value = getattr(node, field, None)
            if isinstance(value, list):
                out.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                out.append(value)
    return out
