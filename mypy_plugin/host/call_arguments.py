"""A kernel call's argument as written, for notes in the user's own words (``pass xt.contiguous()``)."""

from __future__ import annotations

import ast


def as_receiver(arg: ast.expr) -> str:
    """The argument as written, ready for ``.contiguous()``; "" when too long to quote."""
    if isinstance(arg, ast.Name):
        return arg.id if len(arg.id) <= 48 else ""  # what ast.unparse gives, without its machinery
    text = ast.unparse(arg)
    if not isinstance(arg, (ast.Attribute, ast.Call, ast.Subscript)):
        text = f"({text})"
    return text if len(text) <= 48 else ""
