"""The pieces the edits share: build a call or keyword on one line, replace a node, find the
function around a node and the tile setter call in force at a line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import libcst as cst

from .findings import Finding
from .locate import Located, dotted

Edit = Callable[[Located, Finding, str], "cst.Module | None"]

SPACE: Final = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
EQUAL: Final = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def with_keyword(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    """``call`` with ``name=value`` appended on the same line (a trailing comma moves after it)."""
    args = list(call.args)
    if not args:
        return call.with_changes(args=[cst.Arg(value, keyword=cst.Name(name), equal=EQUAL)])
    last = args[-1]
    args[-1] = last.with_changes(comma=SPACE)
    args.append(cst.Arg(value, keyword=cst.Name(name), equal=EQUAL, comma=last.comma))
    return call.with_changes(args=args)


def build_call(func: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(
        func=cst.parse_expression(func),
        args=[cst.Arg(a, comma=SPACE if i < len(args) - 1 else cst.MaybeSentinel.DEFAULT) for i, a in enumerate(args)],
    )


def replace(loc: Located, old: cst.CSTNode, new: cst.CSTNode) -> cst.Module:
    replaced = loc.module.deep_replace(old, new)
    assert isinstance(replaced, cst.Module)  # only the module node itself is never replaced
    return replaced


def enclosing_function(loc: Located, node: cst.CSTNode) -> cst.FunctionDef | None:
    return next((a for a in loc.ancestors(node) if isinstance(a, cst.FunctionDef)), None)


def tile_in_force(loc: Located, line: int, setter: str) -> cst.Call | None:
    """The ``setter(...)`` call that sets the tile for ``line``: the nearest earlier statement of
    the same function, walking out of blocks; None when a branch, loop or nested block before it
    also sets tiles (which call wins depends on the path)."""
    node: cst.CSTNode | None = next(
        (n for n, where in loc.positions.items()
         if isinstance(n, cst.SimpleStatementLine) and where.start.line <= line <= where.end.line),
        None,
    )
    while node is not None:
        block = loc.parents.get(node)
        if isinstance(block, (cst.IndentedBlock, cst.Module)) and isinstance(node, cst.BaseStatement):
            body = list(block.body)
            for earlier in reversed(body[:body.index(node)]):
                found = setter_calls(earlier, setter)
                if len(found) > 1 or found and not isinstance(earlier, cst.SimpleStatementLine):
                    return None
                if found:
                    return found[0]
        if block is None or isinstance(block, cst.FunctionDef):
            return None  # tiles set by the caller or another function: not this function's text
        node = block
    return None


def setter_calls(stmt: cst.CSTNode, setter: str) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Visitor(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if dotted(node.func) == setter:
                found.append(node)

    stmt.visit(_Visitor())
    return found


def names_in(node: cst.CSTNode) -> set[str]:
    """Every name ``node`` mentions."""
    names: set[str] = set()

    class _Visitor(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            names.add(n.value)

    node.visit(_Visitor())
    return names
