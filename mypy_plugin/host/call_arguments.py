"""A kernel call's positional arguments as the host code proves them, with their text as written
(for notes in the user's own words); ``k(*inputs)`` is spread when the list is known."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from .values import UNKNOWN, Value


@dataclass(frozen=True)
class Positional:
    values: tuple[Value, ...]
    texts: tuple[str, ...]  # "" for an item of a spread list, or an argument too long to quote
    unknown_spread: bool  # a ``*xs`` whose list is not known: the argument list is not known


def positional(call: ast.Call, expr: Callable[[ast.expr], Value]) -> Positional:
    values: list[Value] = []
    texts: list[str] = []
    unknown = False
    for a in call.args:
        if not isinstance(a, ast.Starred):
            values.append(expr(a))
            texts.append(as_receiver(a))
            continue
        spread = expr(a.value)
        if isinstance(spread, tuple):  # ``k(*inputs)`` with inputs a list the source proves
            values.extend(spread)
            texts.extend("" for _ in spread)
        else:
            unknown = True
            values.append(UNKNOWN)
            texts.append("")
    return Positional(tuple(values), tuple(texts), unknown)


def as_receiver(arg: ast.expr) -> str:
    """The argument as written, ready for ``.contiguous()``; "" when too long to quote."""
    if isinstance(arg, ast.Name):
        return arg.id if len(arg.id) <= 48 else ""  # what ast.unparse gives, without its machinery
    text = ast.unparse(arg)
    if not isinstance(arg, (ast.Attribute, ast.Call, ast.Subscript)):
        text = f"({text})"
    return text if len(text) <= 48 else ""
