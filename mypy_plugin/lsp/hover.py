"""Hover on a tensor expression or parameter: its shape and dtype, the tiles in force there, and
what it was at each call the function was checked again for (a host call, a call from a kernel)."""

from __future__ import annotations

from dataclasses import dataclass

from mypy.nodes import Argument, AssignmentStmt, Expression, FuncDef, MypyFile, Node, OperatorAssignmentStmt

from .. import insight
from ..kernel.body_walk import expressions, statements
from ..knowledge.shapes import fmt_shape
from ..knowledge.tiles import TileState
from ..knowledge.values import TensorVal
from .engine import Engine
from .lookup import enclosing_function, expressions_at, parameter_at


def describe(val: TensorVal, *, short: bool = False) -> str:
    """``[16, 1] DT_FP32`` (``short``: ``[16, 1] FP32``); ``?`` for what is not known."""
    dtype = val.dtype or "?"
    return f"{fmt_shape(val.shape)} {dtype[3:] if short and dtype.startswith('DT_') else dtype}"


def known(val: TensorVal) -> bool:
    return val.dtype is not None and val.shape is not None and all(d is not None for d in val.shape)


def fmt_tiles(tiles: TileState) -> str:
    vec, cube = insight.fmt_tiles(tiles)
    return f"vec tile {vec}, cube tile {cube}"


@dataclass(frozen=True)
class Found:
    node: Node  # the expression or parameter
    val: TensorVal
    func: FuncDef | None


def tensor_at(engine: Engine, tree: MypyFile, line: int, column: int) -> Found | None:
    """The innermost tensor expression at the position, or the tensor parameter there."""
    func = enclosing_function(tree, line)
    for expr in expressions_at(tree, line, column):
        val = insight.tensor_of(engine.type_of(expr))
        if val is not None:
            return Found(expr, val, func)
    arg = parameter_at(func, line, column) if func is not None else None
    if arg is not None:
        val = insight.tensor_of(arg.variable.type)
        if val is not None:
            return Found(arg, val, func)
    return None


def _computed_by(func: FuncDef, node: Expression) -> Expression:
    """The expression whose tiles a name shows: the value assigned to it where it is a target."""
    for s in statements(func.body.body):
        if isinstance(s, AssignmentStmt) and any(node in expressions(lvalue) for lvalue in s.lvalues):
            return s.rvalue
        if isinstance(s, OperatorAssignmentStmt) and node is s.lvalue:
            return s.rvalue
    return node


def hover_text(engine: Engine, path: str, tree: MypyFile, found: Found) -> str:
    lines = [f"`{describe(found.val)}`" + ("" if known(found.val) else " (not all known here)")]
    func = found.func
    if func is None:
        return lines[0]
    node = found.node
    tiles: TileState | None = None
    tiles_of: Node = node
    if isinstance(node, Argument):
        tiles = insight.entry_tiles(tree, func)
    elif isinstance(node, Expression):
        tiles_of = _computed_by(func, node)
        tiles = insight.tiles_at(tree, func, tiles_of, engine.modules)
    if tiles is not None:
        lines.append(fmt_tiles(tiles))
    where, tiles_where = insight.span(node), insight.span(tiles_of)
    for copy in insight.copies(path, func):
        val = copy.tensors.get(where)
        if val is None:
            continue
        line = f"with {copy.label}: `{describe(val)}`"
        copy_tiles = copy.tiles.get(tiles_where)
        if copy_tiles is not None and copy_tiles != tiles:
            line += f", {fmt_tiles(copy_tiles)}"
        lines.append(line)
    return "\n\n".join(lines)
