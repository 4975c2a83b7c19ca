"""Integer arithmetic on dims and tile values, as Python evaluates it (for constant folding)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Final

# Python's operator nodes -> the operators :func:`fold` knows.
AST_OPS: Final[dict[type, str]] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}


def fold(op: str, a: int, b: int) -> int | None:
    """``a <op> b`` for + - * // %; None for anything else or a division by zero."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "//":
        return a // b if b else None
    if op == "%":
        return a % b if b else None
    return None


# A name's (or dotted name's) int value, given the depth reached (a name bound to an expression
# folds it one level deeper, so a chain of aliases ends).
NameValue = Callable[[ast.expr, int], int | None]


def int_of_ast(node: ast.expr, name: NameValue, depth: int = 0, max_depth: int = 64) -> int | None:
    """The one folder over Python's ``ast``: int literals, names (``name``), unary - and +, and
    + - * // % on them, nested up to ``max_depth``."""
    if depth > max_depth:
        return None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, (ast.Name, ast.Attribute)):
        return name(node, depth)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = int_of_ast(node.operand, name, depth + 1, max_depth)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp):
        a = int_of_ast(node.left, name, depth + 1, max_depth)
        b = int_of_ast(node.right, name, depth + 1, max_depth)
        op = AST_OPS.get(type(node.op))
        return None if a is None or b is None or op is None else fold(op, a, b)
    return None
