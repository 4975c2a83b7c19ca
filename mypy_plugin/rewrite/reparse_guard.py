"""Proof that a rewrite kept the file valid and every line in place, or the reason it did not."""

from __future__ import annotations

import ast
from typing import Final

from .. import debug as debug_switch
from ..ast_fields import child_fields

# The helper imports the rewrite appends (``from typing import ForwardRef as _PyptoStubsConst``).
ALIAS_PREFIX: Final = "_PyptoStubs"
# The debug switch (PYPTO_STUBS_DEBUG=1) lets exceptions and rejected rewrites through.
DEBUG_ENV: Final = debug_switch.ENV
debug = debug_switch.enabled


class RewriteRejected(Exception):
    """The rewritten text does not parse, or moved a line (raised only to explain a fallback)."""


def parse(source: str) -> ast.Module:
    """As mypy's Python-ast parser reads a file (with type comments)."""
    return ast.parse(source, type_comments=True)


def _is_helper_import(node: ast.AST) -> bool:
    """The appended helper import, or the declaration of module_marker.py after it."""
    if isinstance(node, ast.AnnAssign):
        annotation = node.annotation.value if isinstance(node.annotation, ast.Subscript) else node.annotation
        return (node.value is None and isinstance(node.target, ast.Name) and node.target.id.startswith(ALIAS_PREFIX)
                and isinstance(annotation, ast.Name) and annotation.id.startswith(ALIAS_PREFIX))
    return isinstance(node, ast.ImportFrom) and node.module == "typing" and all(
        (a.asname or "").startswith(ALIAS_PREFIX) for a in node.names
    )


_ANNOTATION_FIELDS: Final = frozenset({"annotation", "returns"})


def layout(tree: ast.Module) -> list[tuple[object, ...]]:
    """Everything a rewrite must not change, in order: each node outside annotations with its
    kind, lines and identity (name, attribute, constant), and each annotation's first line.
    An annotation added where there was none (``X = 1`` -> ``X: _PyptoStubsConst[1] = 1``) is not compared,
    and an added assignment annotation reads as a plain assignment. (An explicit stack, not
    recursion: this runs on every rewritten file.)"""
    out: list[tuple[object, ...]] = []
    stack: list[ast.AST] = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        if _is_helper_import(node):
            continue
        lines = (getattr(node, "lineno", None), getattr(node, "end_lineno", None))
        if isinstance(node, ast.Assign) or (isinstance(node, ast.AnnAssign) and _added(node)):
            # An assignment gains at most an annotation: compare its target(s) and value only.
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out.append(("Assign", *lines))
            stack.extend(reversed([*targets, *([node.value] if node.value is not None else [])]))
            continue
        ident: object = None
        if isinstance(node, ast.Name):
            ident = node.id
        elif isinstance(node, ast.Attribute):
            ident = node.attr
        elif isinstance(node, (ast.arg, ast.keyword)):
            ident = node.arg
        elif isinstance(node, ast.Constant):
            ident = repr(node.value)
        if lines != (None, None) or ident is not None:
            out.append(("Assign" if isinstance(node, ast.AnnAssign) else type(node).__name__, *lines, ident))
        children: list[ast.AST] = []
        for field in child_fields(node):
            value = getattr(node, field, None)
            for child in value if isinstance(value, list) else [value]:
                if not isinstance(child, ast.AST):
                    continue
                if field == "returns" and _added_return(child):
                    continue  # a kernel's ``-> _PyptoStubsKernelReturn`` (kernel_returns.py)
                if field in _ANNOTATION_FIELDS:
                    # Its first line (``(Tensor\n)`` is an annotation ending a line earlier).
                    out.append(("annotation", getattr(child, "lineno", None)))
                else:
                    children.append(child)
        stack.extend(reversed(children))
    return out


def _added(node: ast.AnnAssign) -> bool:
    """``X: _PyptoStubsConst[8] = ...``: an annotation the rewrite added."""
    annotation = node.annotation.value if isinstance(node.annotation, ast.Subscript) else node.annotation
    return isinstance(annotation, ast.Name) and annotation.id.startswith(ALIAS_PREFIX)


def _added_return(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id.startswith(ALIAS_PREFIX)


def check(before: ast.Module, after_source: str) -> None:
    """Raise :class:`RewriteRejected` unless ``after_source`` parses and lays out like ``before``."""
    try:
        after = parse(after_source)
    except (SyntaxError, ValueError) as err:
        raise RewriteRejected(f"the rewritten source does not parse: {err}") from None
    old, new = layout(before), layout(after)
    if old != new:
        diff = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        raise RewriteRejected(
            f"the rewrite moved or changed code: {old[diff:diff + 1]} -> {new[diff:diff + 1]}"
        )
