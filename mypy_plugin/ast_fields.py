"""The child fields of a Python ``ast`` node type: the fields that may hold a node (an expression
context is a marker with no children; a name, an identifier, a flag or a constant value is not a
node). Read once per node type, for the walks that run on every pypto file (the source rewrite's
and the host evaluator's; both are plain ``ast``), each of which skips any value that is not a
node: leaving those fields out changes nothing but the time."""

from __future__ import annotations

import ast
import re
from typing import Final

# node type -> its child fields, filled by child_fields (a hot loop may read it first)
FIELDS_BY_TYPE: dict[type, tuple[str, ...]] = {}
# Field types of Python's ASDL grammar that never hold a node (``ast.X.__doc__`` spells each
# field as "type name", with ``?`` or ``*`` after the type).
_NOT_NODES: Final = frozenset({"identifier", "int", "string", "constant", "expr_context"})
_SIGNATURE: Final = re.compile(r"^(\w+)\((.*)\)$")


def child_fields(node: ast.AST) -> tuple[str, ...]:
    fields = FIELDS_BY_TYPE.get(type(node))
    if fields is None:
        fields = FIELDS_BY_TYPE[type(node)] = _node_fields(type(node))
    return fields


def _node_fields(cls: type) -> tuple[str, ...]:
    every = tuple(f for f in getattr(cls, "_fields", ()) if f != "ctx")
    match = _SIGNATURE.match((cls.__doc__ or "").strip())
    if match is None or match.group(1) != cls.__name__:
        return every  # no grammar line to read (a node type made elsewhere): every field
    declared: dict[str, str] = {}
    for item in match.group(2).split(","):
        parts = item.split()
        if len(parts) != 2:
            return every
        declared[parts[1]] = parts[0].rstrip("?*")
    if set(declared) != set(getattr(cls, "_fields", ())):
        return every
    return tuple(f for f in every if declared[f] not in _NOT_NODES)


# Statements that hold no statement: a walk over statement blocks does not look into them.
SIMPLE_STATEMENTS: Final = frozenset({
    ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Pass, ast.Break, ast.Continue,
    ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Delete, ast.Raise, ast.Assert,
})


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


def children(node: ast.AST) -> list[ast.AST]:
    """The child nodes of ``node`` in field order (``ast.iter_child_nodes`` without expression
    contexts)."""
    out: list[ast.AST] = []
    for field in child_fields(node):
        value = getattr(node, field, None)
        if type(value) is list:
            out.extend(v for v in value if isinstance(v, ast.AST))
        elif isinstance(value, ast.AST):
            out.append(value)
    return out


def all_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` but expression contexts (what ``ast.walk`` yields, several times
    faster: no generators; this runs on every file that mentions pypto)."""
    out = [tree]
    i = 0
    while i < len(out):
        out.extend(children(out[i]))
        i += 1
    return out
