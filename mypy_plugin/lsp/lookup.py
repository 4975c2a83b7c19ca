"""Where a position is in mypy's tree of a file: the expressions around it, its function, the
parameter it names. Positions are mypy's (1-based lines, 0-based columns)."""

from __future__ import annotations

from collections.abc import Iterator

from mypy.inspections import find_all_by_location
from mypy.nodes import Argument, Decorator, Expression, FuncDef, MypyFile, OverloadedFuncDef, Statement

from ..kernel.body_walk import statements


def expressions_at(tree: MypyFile, line: int, column: int) -> list[Expression]:
    """The expressions that span the position, innermost first."""
    return find_all_by_location(tree, line, column)


def functions(tree: MypyFile) -> Iterator[FuncDef]:
    """Every function of the file, nested ones and methods too, in source order."""
    for s in statements(tree.defs, into_definitions=True):
        func = _function(s)
        if func is not None:
            yield func


def _function(s: Statement) -> FuncDef | None:
    if isinstance(s, Decorator):
        return s.func
    if isinstance(s, FuncDef):
        return s
    if isinstance(s, OverloadedFuncDef) and isinstance(s.impl, (Decorator, FuncDef)):
        return _function(s.impl)
    return None


def enclosing_function(tree: MypyFile, line: int) -> FuncDef | None:
    """The innermost function whose ``def`` (through its body) spans ``line``."""
    found = None
    for func in functions(tree):
        end = func.end_line if func.end_line is not None else func.line
        if func.line <= line <= end and (found is None or func.line >= found.line):
            found = func
    return found


def parameter_at(func: FuncDef, line: int, column: int) -> Argument | None:
    """The parameter whose name (or annotation) is at the position."""
    for arg in func.arguments:
        end_line = arg.end_line if arg.end_line is not None else arg.line
        end_column = arg.end_column if arg.end_column is not None else arg.column + len(arg.variable.name)
        if (arg.line, arg.column) <= (line, column) < (end_line, end_column):
            return arg
    return None

